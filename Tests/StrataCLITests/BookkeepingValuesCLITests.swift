import Foundation
import Testing

/// Strata's own tables edited by hand or by another tool (a value of the wrong storage class) make the store
/// corrupt, exit 1, named and located by table and column, with the store unchanged: they stopped the process
/// (SIGILL, exit 132) in GRDB's row subscripts, with no JSON document and, in a fleet, no other store's outcome.
/// A missing `strata_history` or `strata_hooks` is a corrupt store too.
@Suite struct BookkeepingValuesCLITests {
    static let now = ["--now", ExampleData.now, "--no-progress"]

    /// The example at v4 with its hooks recorded, then `damage` applied.
    static func store(_ damage: String) throws -> (dir: String, path: String) {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 20)
        let migrated = try CLI.run(["migrate", "--store", "app.sqlite"] + now, in: dir)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        try E2E.execute(path, damage)
        return (dir, path)
    }

    static let hookReaders: [[String]] = [["status"], ["status", "--check"], ["migrate"], ["migrate", "--dry-run"], ["repair"], ["history"]]
    /// Everything that reads the system keys (`history` and `meta list` show rows as stored).
    static let metadataReaders: [[String]] = [["status"], ["status", "--check"], ["migrate"], ["migrate", "--dry-run"], ["repair"], ["audit"]]

    /// Each damage with the commands that read the damaged value.
    @Test(arguments: [
        (#"UPDATE "strata_hooks" SET "rowsAffected" = 'x'"#, "strata_hooks.rowsAffected holds text, not an integer", hookReaders),
        (#"UPDATE "strata_hooks" SET "results" = X'00FF'"#, "strata_hooks.results holds a BLOB, not text", hookReaders),
        (#"UPDATE "strata_hooks" SET "afterVersion" = 'four'"#, "strata_hooks.afterVersion holds text, not an integer", hookReaders),
        (#"UPDATE "strata_history" SET "duration" = 'slow'"#, "strata_history.duration holds text, not a number", [["history"]]),
        (#"UPDATE "strata_history" SET "toVersion" = 'five'"#, "strata_history.toVersion holds text, not an integer", [["history"]]),
        (#"UPDATE "strata_history" SET "toolVersion" = X'FF'"#, "strata_history.toolVersion holds a BLOB, not text", [["history"]]),
        (#"INSERT INTO "strata_metadata" VALUES ('note', X'00FF')"#, "strata_metadata.value holds a BLOB, not text", [["meta", "list"], ["status"]]),
        (#"UPDATE "strata_metadata" SET "value" = '4abc' WHERE "key" = 'strata.version'"#, "metadata key 'strata.version' does not hold a version number", metadataReaders),
        (#"UPDATE "strata_metadata" SET "value" = '{' WHERE "key" = 'strata.layout'"#, "metadata key 'strata.layout' does not hold a storage layout (JSON)", metadataReaders),
    ])
    func everyReaderSaysWhichValueIsDamaged(_ damage: String, _ detail: String, _ commands: [[String]]) throws {
        let (dir, path) = try Self.store(damage)
        let before = E2E.storeHashes(path)
        let message = "the store 'app.sqlite' is corrupt: \(detail)"
        for command in commands {
            let options = ["--store", "app.sqlite"] + (command.first == "migrate" ? Self.now : [])
            let text = try CLI.run(command + options, in: dir)
            #expect(text.status == 1, "\(command): \(text.stderr)")
            #expect(text.stderr == "error: \(message)\nhint: restore it from a backup; Strata will not migrate a corrupt store\n", "\(command)")
            let json = try CLI.run(command + options + ["--format", "json"], in: dir)
            #expect(json.status == 1, "\(command)")
            let error = try CLI.json(json.stdout)["error"] as? [String: Any]
            let diagnostics = error?["diagnostics"] as? [[String: Any]]
            #expect(diagnostics?.map { $0["message"] as? String } == [message], "\(command): \(json.stdout)")
        }
        #expect(E2E.storeHashes(path) == before)
    }

    /// A dropped `strata_history` read as "drift: none" in `status` and failed `migrate` and `history` on SQLite's
    /// raw "no such table" (exit 1, after `migrate` had started its step); a dropped `strata_hooks` likewise.
    /// Every command now says the store is corrupt, naming the table, and changes nothing.
    @Test(arguments: ["strata_history", "strata_hooks"])
    func aMissingBookkeepingTableIsACorruptStoreForEveryCommand(_ table: String) throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 20)
        let upTo2 = try CLI.run(["migrate", "--store", "app.sqlite", "--to", "2"] + Self.now, in: dir)
        #expect(upTo2.status == 0, "\(upTo2.stderr)")
        try E2E.execute(path, "DROP TABLE \"\(table)\"")
        let before = E2E.storeHashes(path)
        let message = "the store 'app.sqlite' is corrupt: Strata's table '\(table)' is missing"
        let commands: [[String]] = [
            ["status"], ["status", "--check"], ["migrate"], ["migrate", "--dry-run"], ["history"], ["repair"], ["audit"],
            ["meta", "list"], ["meta", "get", "strata.version"], ["meta", "set", "k", "v"],
            ["batch", "update", "--entity", "Recipe", "--set", "rating=1"], ["adopt", "--version", "2"],
        ]
        for command in commands {
            let options = ["--store", "app.sqlite"] + (["migrate", "batch"].contains(command[0]) ? Self.now : ["--no-progress"])
            let r = try CLI.run(command + options, in: dir)
            #expect(r.status == 1, "\(command): \(r.stderr)")
            #expect(r.stderr == "error: \(message)\nhint: restore it from a backup; Strata will not migrate a corrupt store\n", "\(command)")
            #expect(E2E.storeHashes(path) == before, "\(command)")
        }
    }

    /// One damaged store no longer ends the fleet: the others run, and the summary gives each its own code.
    @Test func aFleetReportsTheDamagedStoreAndRunsTheOthers() throws {
        let (dir, path) = try Self.store(#"UPDATE "strata_hooks" SET "rowsAffected" = 'x'"#)
        try FileManager.default.createDirectory(atPath: dir + "/tenants", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path, toPath: dir + "/tenants/a.sqlite")
        try E2E.execute(path, #"UPDATE "strata_hooks" SET "rowsAffected" = 0"#)
        try FileManager.default.copyItem(atPath: path, toPath: dir + "/tenants/b.sqlite")
        let r = try CLI.run(["status", "--stores", "tenants/*.sqlite", "--continue-on-error", "--format", "json"], in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        let fleet = try #require(try CLI.json(r.stdout)["fleet"] as? [String: Any])
        let stores = try #require(fleet["stores"] as? [[String: Any]])
        #expect(stores.map { $0["path"] as? String } == ["tenants/a.sqlite", "tenants/b.sqlite"])
        #expect(stores.map { $0["exitCode"] as? Int } == [1, 0])
        #expect(stores.first?["message"] as? String == "the store 'tenants/a.sqlite' is corrupt: strata_hooks.rowsAffected holds text, not an integer")
    }
}
