import Foundation
import Testing

/// A `strata migrate` killed with SIGKILL at any instant leaves a store that passes `integrity_check`, is at
/// a version of the path (never between: no drift), has each hook's marker exactly when it has the hook's
/// effects, keeps every original row, and completes on rerun with each hook applied once (SPEC §9, issues 6, 7).
@Suite struct CrashSafetyCLITests {
    /// v1 → v5 with two hooks after v3/v4, a rebuild of Ingredient (2 rows per recipe) and a hook in the
    /// v5 step: transactions big enough to be seen, and killed, from outside.
    static let recipes = 50_000
    static let drafts = ExampleData.expectedDrafts(recipes: recipes)
    static let favorites = ExampleData.expectedFavorites(recipes: recipes)

    /// Where a kill lands, told by the store's files as seen from outside (no clock: a busy machine only
    /// makes the run slower, not the kill land elsewhere). In rollback-journal mode a write transaction has
    /// a `-journal` from its first change until it commits, and each journal's header carries its own random
    /// nonce (bytes 12-15): a new nonce is a new transaction, even one that follows the last without a gap.
    enum Moment: CustomStringConvertible {
        /// The run has written its lock record (it holds the lock, no transaction yet).
        case lockTaken
        /// The `k`-th write transaction has started.
        case writing(Int)
        /// The `k`-th write transaction's journal has grown to `bytes` (about half of it in the reference run).
        case halfway(Int, bytes: Int)
        /// The `k`-th write transaction has committed (no journal, or the next one's).
        case committed(Int)

        var description: String {
            switch self {
            case .lockTaken: return "lock taken"
            case .writing(let k): return "transaction \(k) started"
            case .halfway(let k, let bytes): return "transaction \(k) at \(bytes) journal bytes"
            case .committed(let k): return "transaction \(k) committed"
            }
        }
    }

    /// The journal's size and header nonce, or nil while there is no journal (or no header yet).
    static func journal(_ store: String) -> (size: Int, nonce: Data)? {
        guard let size = E2E.fileSize(store + "-journal"), size >= 28,
              let file = FileHandle(forReadingAtPath: store + "-journal") else { return nil }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: 16), header.count == 16 else { return nil }
        return (size, header.subdata(in: 12..<16))
    }

    /// Watches `child`'s store files every millisecond until `moment` (true), or until the run ends (false).
    /// Also returns the largest journal each transaction reached, for the reference run. A transaction too
    /// short to be seen between two looks shifts the count by one: "k-th or later" keeps the kill inside
    /// the run, at the next moment of the same kind.
    static func watch(_ child: E2E.Child, store: String, until moment: Moment?) -> (reached: Bool, journals: [Int]) {
        let pid = child.process.processIdentifier
        var journals: [Int] = []
        var nonce: Data?
        while child.process.isRunning {
            let current = journal(store)
            if let current {
                if current.nonce != nonce { nonce = current.nonce; journals.append(0) }
                journals[journals.count - 1] = max(journals[journals.count - 1], current.size)
            }
            let writing = current != nil
            switch moment {
            case .lockTaken?:
                if (try? String(contentsOfFile: store + "-strata.lock", encoding: .utf8))?.contains("pid: \(pid)\n") == true { return (true, journals) }
            case .writing(let k)?:
                if writing && journals.count >= k { return (true, journals) }
            case .halfway(let k, let bytes)?:
                if writing && journals.count >= k && current!.size >= bytes { return (true, journals) }
            case .committed(let k)?:
                if (!writing && journals.count >= k) || journals.count > k { return (true, journals) }
            case nil:
                break
            }
            usleep(1_000)
        }
        return (false, journals)
    }

    /// Copies the pristine store over the working one and removes the last run's lock record.
    static func reset(_ store: String, from pristine: String) throws {
        try E2E.copy(pristine, to: store)
        try? FileManager.default.removeItem(atPath: store + "-strata.lock")
    }

    @Test func sigkillAtEachMomentOfARunLeavesAConsistentStoreThatCompletesOnRerun() throws {
        let dir = try E2E.benchProject()
        let pristine = try ExampleData.v1Store(in: dir, recipes: Self.recipes, name: "pristine.sqlite")
        let store = dir + "/app.sqlite"
        let original = try Self.originalRows(pristine, version: 1)
        // Not a check of the product: the fingerprint must cover the kept rows, else every comparison with it
        // below would pass on nothing.
        #expect(original.recipes.first?.hasPrefix("\(Self.recipes - Self.drafts)|") == true)
        #expect(original.ingredients.first?.hasPrefix("\(2 * (Self.recipes - Self.drafts))|") == true)

        // One uninterrupted run, watched: its write transactions and their journals, and its end state.
        try Self.reset(store, from: pristine)
        let referenceChild = try E2E.Child(Self.migrate, in: dir)
        let profile = Self.watch(referenceChild, store: store, until: nil).journals
        let reference = referenceChild.wait()
        #expect(reference.status == 0, "\(reference.stderr)")
        try Self.expectConsistent(store, version: 5, original: original)
        // One transaction per step at least (v1 → v5); a step too short to be seen between two looks
        // would only merge its kill points into the next one's.
        #expect(profile.count >= 3, "transactions seen: \(profile)")

        // One more commit than the reference saw: when a short transaction escaped it, the kill after the last
        // commit still happens (when none did, this run just completes, at v5).
        let moments: [Moment] = [.lockTaken] + profile.indices.flatMap { i -> [Moment] in
            [.writing(i + 1), .halfway(i + 1, bytes: max(profile[i] / 2, 1)), .committed(i + 1)]
        } + [.committed(profile.count + 1)]
        var versionsAtKill: [Int] = []
        var killedWhileRunning = 0
        var hotJournals = 0
        for moment in moments {
            try Self.reset(store, from: pristine)
            let child = try E2E.Child(Self.migrate, in: dir)
            let reached = Self.watch(child, store: store, until: moment).reached
            if reached && child.process.isRunning { killedWhileRunning += 1 }
            child.kill()
            if (E2E.fileSize(store + "-journal") ?? 0) > 0 { hotJournals += 1 }

            // `status` (read-only) must see a recorded version whose schema matches: no drift.
            let status = try CLI.run(["status", "--store", "app.sqlite", "--format", "json"], in: dir)
            #expect(status.status == 0, "kill at \(moment): \(status.stderr)")
            let recorded = try Self.recordedVersion(store)
            let version = try #require(recorded, "kill at \(moment)")
            #expect(((try? CLI.json(status.stdout))?["version"] as? Int) == version, "kill at \(moment): \(status.stdout)")
            versionsAtKill.append(version)
            #expect(try E2E.rows(store, "PRAGMA integrity_check") == ["ok"], "kill at \(moment)")
            try Self.expectConsistent(store, version: version, original: original)

            // Rerun: completes, runs exactly the hooks the killed run had not committed.
            let rerun = try CLI.run(Self.migrate + ["--format", "json"], in: dir)
            #expect(rerun.status == 0, "kill at \(moment): \(rerun.stderr)")
            let migration = try CLI.json(rerun.stdout)["migration"] as? [String: Any]
            #expect(migration?["toVersion"] as? Int == 5, "kill at \(moment)")
            let ran = (migration?["hooks"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ran == Self.hooks.filter { $0.after > version }.map(\.id), "kill at \(moment), store at v\(version)")
            try Self.expectConsistent(store, version: 5, original: original)
            #expect(try CLI.run(["status", "--check", "--store", "app.sqlite"], in: dir).status == 0, "kill at \(moment)")
        }
        // The kills land inside the run (a moment is missed only when a transaction is too short to be seen
        // in the killed run), before the first step and after every one: every version of the path is seen.
        #expect(killedWhileRunning >= moments.count - 2, "\(killedWhileRunning) of \(moments.count) kills hit a running process")
        #expect(Set(versionsAtKill) == Set(1...5), "versions at kill: \(versionsAtKill)")
        print("CrashSafety: journals per transaction \(profile); versions at kill: \(versionsAtKill); \(hotJournals) kills left a journal")
    }

    /// A writer that died mid-transaction leaves a hot journal: a dry run refuses it (it would have to write
    /// the store to read it), `status` recovers it (its read-only connection cannot), and the data is the
    /// committed data.
    @Test func aHotJournalIsRefusedByADryRunAndRecoveredByStatus() throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 5_000)
        let names = try E2E.rows(path, #"SELECT count(*), sum(length("name")) FROM "Recipe""#)
        try E2E.killWriterMidTransaction(path)
        #expect((E2E.fileSize(path + "-journal") ?? 0) > 4096)
        let hot = E2E.storeHashes(path)

        let dry = try CLI.run(["migrate", "--dry-run", "--store", "app.sqlite", "--now", ExampleData.now], in: dir)
        #expect(dry.status == 1)
        #expect(dry.stderr == """
            error: 'app.sqlite' has a hot rollback journal (a writer died mid-transaction)
            hint: run `strata status` or `strata migrate` (a real run) once to recover it, then retry the dry run

            """)
        #expect(E2E.storeHashes(path) == hot)

        let status = try CLI.run(["status", "--store", "app.sqlite"], in: dir)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("version:  1 (latest model: 4; created at 1)"))
        #expect((E2E.fileSize(path + "-journal") ?? 0) == 0)
        #expect(try E2E.rows(path, "PRAGMA integrity_check") == ["ok"])
        #expect(try E2E.rows(path, #"SELECT count(*), sum(length("name")) FROM "Recipe""#) == names)
        #expect(try CLI.run(["migrate", "--dry-run", "--store", "app.sqlite", "--now", ExampleData.now], in: dir).status == 0)
    }

    static let migrate = ["migrate", "--store", "app.sqlite", "--now", ExampleData.now, "--no-progress"]

    /// The hooks on the path, in the order they run, with the rows each affects.
    static let hooks: [(id: String, after: Int, rows: Int)] = [
        ("purge-abandoned-drafts", 3, drafts),
        ("favorite-recent-recipes", 4, favorites),
        ("more-salt", 5, recipes - drafts),
    ]

    static func recordedVersion(_ store: String) throws -> Int? {
        try ExampleData.query(store, #"SELECT CAST("value" AS INTEGER) FROM "strata_metadata" WHERE "key" = 'strata.version'"#)
    }

    /// Fingerprints of the rows no hook deletes: recipes that are not drafts, and their ingredients
    /// (`servings` is `portions` from v3; `quantity` is what the v5 hook changes, so it is left out).
    static func originalRows(_ store: String, version: Int) throws -> (recipes: [String], ingredients: [String]) {
        let portions = version >= 3 ? "portions" : "servings"
        let kept = #"NOT ("name" = 'Untitled' AND "lastUsed" IS NULL)"#
        let recipes = try E2E.rows(store, """
            SELECT count(*), sum("_pk"), sum("rating"), total("lastUsed"), sum(length("name")), sum("\(portions)")
            FROM "Recipe" WHERE \(kept)
            """)
        let ingredients = try E2E.rows(store, """
            SELECT count(*), sum("_pk"), sum("recipe"), sum(length("name"))
            FROM "Ingredient" WHERE "recipe" IN (SELECT "_pk" FROM "Recipe" WHERE \(kept))
            """)
        return (recipes, ingredients)
    }

    /// The store at `version` has exactly the markers and effects of the hooks up to it, and every original row.
    static func expectConsistent(_ store: String, version: Int, original: (recipes: [String], ingredients: [String]),
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect((1...5).contains(version), sourceLocation: sourceLocation)
        let applied = hooks.filter { $0.after <= version }
        let markers = try E2E.rows(store, #"SELECT "id", "status", "rowsAffected" FROM "strata_hooks" ORDER BY "afterVersion""#)
        #expect(markers == applied.map { "\($0.id)|applied|\($0.rows)" }, "v\(version)", sourceLocation: sourceLocation)

        let draftsLeft: Int? = try ExampleData.query(store, #"SELECT count(*) FROM "Recipe" WHERE "name" = 'Untitled' AND "lastUsed" IS NULL"#)
        #expect(draftsLeft == (version >= 3 ? 0 : drafts), "v\(version)", sourceLocation: sourceLocation)
        let recipeCount: Int? = try ExampleData.query(store, #"SELECT count(*) FROM "Recipe""#)
        #expect(recipeCount == recipes - (version >= 3 ? drafts : 0), "v\(version)", sourceLocation: sourceLocation)
        let ingredientCount: Int? = try ExampleData.query(store, #"SELECT count(*) FROM "Ingredient""#)
        #expect(ingredientCount == 2 * (recipes - (version >= 3 ? drafts : 0)), "v\(version)", sourceLocation: sourceLocation)
        if version >= 4 {
            let marked: Int? = try ExampleData.query(store, #"SELECT count(*) FROM "Recipe" WHERE "favorite" = 1"#)
            #expect(marked == favorites, "v\(version)", sourceLocation: sourceLocation)
        }
        let salted: Int? = try ExampleData.query(store, #"SELECT count(*) FROM "Ingredient" WHERE "quantity" = '2 tsp'"#)
        #expect(salted == (version >= 5 ? recipes - drafts : 0), "v\(version)", sourceLocation: sourceLocation)

        let now = try originalRows(store, version: version)
        #expect(now.recipes == original.recipes, "v\(version)", sourceLocation: sourceLocation)
        #expect(now.ingredients == original.ingredients, "v\(version)", sourceLocation: sourceLocation)
    }
}
