import Foundation
import Testing

/// A `strata migrate` killed with SIGKILL at any instant leaves a store that passes `integrity_check`, is at
/// a version of the path (never between: no drift), has each hook's marker exactly when it has the hook's
/// effects, keeps every original row, and completes on rerun with each hook applied once (SPEC §9, issues 6, 7).
@Suite struct CrashSafetyCLITests {
    /// About a second of work in the debug build: v1 → v5 with two hooks after v3/v4, a rebuild of
    /// Ingredient (2 rows per recipe) and a hook in the v5 step.
    static let recipes = 50_000
    static let drafts = ExampleData.expectedDrafts(recipes: recipes)
    static let favorites = ExampleData.expectedFavorites(recipes: recipes)

    /// Where the kills land, as fractions of an uninterrupted run's wall time (process start included).
    /// A busy machine changes how long a run takes: a kill that finds the run already finished shrinks the
    /// time scale of the later ones, and more kills follow (up to 40) until 10 have hit a running process.
    static let killPoints: [Double] = (0..<40).map { (i: Int) -> Double in
        let offset: Double = i < 20 ? 0 : 0.02
        return 0.03 + Double(i % 20) * 0.047 + offset
    }

    @Test func sigkillAtTwentyMomentsLeavesAConsistentStoreThatCompletesOnRerun() throws {
        let dir = try E2E.benchProject()
        let pristine = try ExampleData.v1Store(in: dir, recipes: Self.recipes, name: "pristine.sqlite")
        let store = dir + "/app.sqlite"
        let original = try Self.originalRows(pristine, version: 1)
        #expect(original.recipes.first?.hasPrefix("\(Self.recipes - Self.drafts)|") == true)
        #expect(original.ingredients.first?.hasPrefix("\(2 * (Self.recipes - Self.drafts))|") == true)

        // One uninterrupted run: the reference duration and end state.
        try E2E.copy(pristine, to: store)
        let started = Date()
        let reference = try CLI.run(Self.migrate, in: dir)
        let duration = Date().timeIntervalSince(started)
        #expect(reference.status == 0, "\(reference.stderr)")
        try Self.expectConsistent(store, version: 5, original: original)

        var versionsAtKill: [Int] = []
        var killedWhileRunning = 0
        var hotJournals = 0
        var scale = duration
        for (index, point) in Self.killPoints.enumerated() {
            if index >= 20 && killedWhileRunning >= 10 { break }
            try E2E.copy(pristine, to: store)
            let child = try E2E.Child(Self.migrate, in: dir)
            usleep(useconds_t(point * scale * 1_000_000))
            if child.process.isRunning { killedWhileRunning += 1 } else { scale *= 0.8 }
            child.kill()
            if (E2E.fileSize(store + "-journal") ?? 0) > 0 { hotJournals += 1 }

            // `status` (read-only) must see a recorded version whose schema matches: no drift.
            let status = try CLI.run(["status", "--store", "app.sqlite", "--format", "json"], in: dir)
            #expect(status.status == 0, "kill at \(point): \(status.stderr)")
            let recorded = try Self.recordedVersion(store)
            let version = try #require(recorded, "kill at \(point)")
            #expect(((try? CLI.json(status.stdout))?["version"] as? Int) == version, "kill at \(point): \(status.stdout)")
            versionsAtKill.append(version)
            #expect(try E2E.rows(store, "PRAGMA integrity_check") == ["ok"], "kill at \(point)")
            try Self.expectConsistent(store, version: version, original: original)

            // Rerun: completes, runs exactly the hooks the killed run had not committed.
            let rerun = try CLI.run(Self.migrate + ["--format", "json"], in: dir)
            #expect(rerun.status == 0, "kill at \(point): \(rerun.stderr)")
            let migration = try CLI.json(rerun.stdout)["migration"] as? [String: Any]
            #expect(migration?["toVersion"] as? Int == 5, "kill at \(point)")
            let ran = (migration?["hooks"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ran == Self.hooks.filter { $0.after > version }.map(\.id), "kill at \(point), store at v\(version)")
            try Self.expectConsistent(store, version: 5, original: original)
            #expect(try CLI.run(["status", "--check", "--store", "app.sqlite"], in: dir).status == 0, "kill at \(point)")
        }
        // The kills must mostly land inside the run, and at more than one version.
        #expect(killedWhileRunning >= 10, "only \(killedWhileRunning) kills hit a running process (run: \(duration)s)")
        #expect(Set(versionsAtKill).count >= 2, "versions at kill: \(versionsAtKill)")
        print("CrashSafety: reference run \(String(format: "%.2f", duration))s; versions at kill: \(versionsAtKill); \(hotJournals) kills left a journal")
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
