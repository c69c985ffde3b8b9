import Foundation
import GRDB
import Testing

/// `strata migrate --dry-run` (SPEC §8, §9, issue 7): never writes the store (main file and `-wal` hashed
/// before and after), and with the same `--now` reports exactly what the real run then does.
@Suite struct DryRunCLITests {
    static let recipes = 3_000
    /// Untitled, never-used recipes written after the fixture: in WAL modes they sit in uncheckpointed frames,
    /// so the counts below are right only if the dry run reads the `-wal`.
    static let extraDrafts = 7

    enum Fixture: String, CaseIterable {
        /// A rollback-journal store.
        case rollbackJournal
        /// A WAL store with uncheckpointed frames and an application connection open during the dry run.
        case walWithOpenConnection
        /// A WAL store with uncheckpointed frames and no other connection (the app is gone): the dry run
        /// is the only, hence last, connection, which must not checkpoint.
        case walAlone
    }

    @Test(arguments: Fixture.allCases)
    func dryRunNeverWritesTheStoreAndReportsWhatTheRealRunDoes(fixture: Fixture) throws {
        let dir = try E2E.benchProject()
        var path = try ExampleData.v1Store(in: dir, recipes: Self.recipes)
        var app: DatabaseQueue?
        let extra = fixture == .rollbackJournal ? 0 : Self.extraDrafts
        if fixture != .rollbackJournal {
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                _ = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint = 0")
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                for _ in 0..<extra {
                    try db.execute(sql: #"INSERT INTO "Recipe" ("name", "servings", "rating") VALUES ('Untitled', 2, 1)"#)
                }
            }
            #expect((E2E.fileSize(path + "-wal") ?? 0) > 0)
            if fixture == .walWithOpenConnection {
                app = queue
            } else {
                // A copy of the main file and its WAL, taken while no transaction is open: a WAL store
                // whose frames no connection has checkpointed.
                for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: dir + "/alone.sqlite" + suffix) }
                try queue.close()
                path = dir + "/alone.sqlite"
                #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
            }
        }
        let store = (path as NSString).lastPathComponent
        let drafts = ExampleData.expectedDrafts(recipes: Self.recipes) + extra
        let favorites = ExampleData.expectedFavorites(recipes: Self.recipes)
        let kept = Self.recipes + extra - drafts
        try? FileManager.default.removeItem(atPath: path + "-strata.lock")   // left by the fixture's `migrate --create`
        let before = E2E.storeHashes(path)
        #expect(before[0] != nil && (before[1] != nil) == (fixture != .rollbackJournal) && before[2] == nil)

        let dry = try CLI.run(["migrate", "--dry-run", "--store", store, "--now", ExampleData.now, "--no-progress", "--format", "json",
                               "--report-format", "markdown", "--report", "plan.md"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr == "")
        #expect(E2E.storeHashes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-strata.lock"))   // a dry run takes no lock: it writes nothing

        // One JSON document on stdout.
        let dryDocument = try CLI.json(dry.stdout)
        #expect(dryDocument["schemaVersion"] as? Int == 1 && dryDocument["title"] as? String == "Strata migrate (dry run)")
        let dryMigration = try #require(dryDocument["migration"] as? [String: Any])
        #expect(dryMigration["dryRun"] as? Bool == true)
        #expect(dryMigration["fromVersion"] as? Int == 1 && dryMigration["toVersion"] as? Int == 5)
        let steps = try #require(dryMigration["steps"] as? [[String: Any]])
        #expect(steps.map { $0["rowsCopied"] as? [String: Int] } == [[:], [:], [:], ["Ingredient": 2 * kept]])
        let hooks = try #require(dryMigration["hooks"] as? [[String: Any]])
        #expect(hooks.map { $0["id"] as? String } == ["purge-abandoned-drafts", "favorite-recent-recipes", "more-salt"])
        #expect(hooks.map { $0["rowsAffected"] as? Int } == [drafts, favorites, kept])
        let purge = (hooks[0]["steps"] as? [[String: Any]])?.first
        #expect(purge?["deletedCounts"] as? [String: Int] == ["Recipe": drafts, "Ingredient": 2 * (drafts - extra)])
        let changes = try #require(dryMigration["changes"] as? [String: Any])
        #expect(changes["updatedCounts"] as? [String: Int] == ["Recipe": favorites, "Ingredient": kept])
        #expect(changes["deletedCounts"] as? [String: Int] == ["Recipe": drafts, "Ingredient": 2 * (drafts - extra)])
        #expect(hooks.allSatisfy { ($0["audit"] as? [String: Any])?["totalViolations"] as? Int == 0 })

        // The Markdown plan.
        let plan = try String(contentsOfFile: dir + "/plan.md", encoding: .utf8)
        #expect(plan.hasPrefix("## Strata migrate (dry run)\n\n### Migration plan (dry run)\n\n"))
        #expect(plan.contains("**Dry run:** store \(store) at v1 → v5 ($NOW = 2024-06-01T00:00:00Z)"))
        #expect(plan.contains("| v4 → v5 | rebuild Ingredient | \((2 * kept).formatted(.number.locale(Locale(identifier: "en_US")))) | — | ok |"))

        // The real run, same --now: the same report, but for durations and the dry-run flag.
        if let app { try app.close() }
        let real = try CLI.run(["migrate", "--store", store, "--now", ExampleData.now, "--no-progress", "--format", "json"], in: dir)
        #expect(real.status == 0, "\(real.stderr)")
        let realDocument = try CLI.json(real.stdout)
        #expect((realDocument["migration"] as? [String: Any])?["dryRun"] as? Bool == false)
        #expect(Self.comparable(dryDocument) == Self.comparable(realDocument))
        #expect(try E2E.rows(path, #"SELECT count(*), sum("favorite") FROM "Recipe""#) == ["\(kept)|\(favorites)"])
        #expect(try E2E.rows(path, #"SELECT count(*), sum("quantity" = '2 tsp') FROM "Ingredient""#) == ["\(2 * kept)|\(kept)"])
    }

    @Test func textDryRunPrintsThePlanAndChangesNothing() throws {
        let dir = try E2E.benchProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 500)
        let before = E2E.storeHashes(path)
        let dry = try CLI.run(["migrate", "--dry-run", "--store", "app.sqlite", "--now", ExampleData.now, "--no-progress"], in: dir)
        #expect(dry.status == 0)
        #expect(dry.stdout.hasPrefix("Dry run: store app.sqlite at v1 → v5 ($NOW = 2024-06-01T00:00:00Z)\n"))
        #expect(dry.stdout.contains("hook purge-abandoned-drafts (after v3): batchDelete Recipe: \(ExampleData.expectedDrafts(recipes: 500)) objects; audit: 0 violations"))
        #expect(dry.stdout.contains("hook more-salt (after v5): batchUpdate Ingredient: \(500 - ExampleData.expectedDrafts(recipes: 500)) objects; audit: 0 violations"))
        #expect(E2E.storeHashes(path) == before)
        #expect(try E2E.rows(path, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["1"])
    }

    /// A report document without what legitimately differs between a dry run and a real run.
    static func comparable(_ document: [String: Any]) -> NSDictionary {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                var copy: [String: Any] = [:]
                for (key, item) in object where !["duration", "dryRun", "title"].contains(key) { copy[key] = strip(item) }
                return copy
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        return strip(document) as! NSDictionary
    }
}
