import Foundation
import Testing

/// End-to-end: `strata batch update|delete` on a temporary store created from the repository's models.
@Suite struct BatchCommandTests {
    /// A store at the newest example model with two recipes, a chef and an ingredient, in a fresh project.
    static func makeStore() throws -> (dir: String, store: String) {
        let dir = try CLI.exampleProject()
        let created = try CLI.run(["migrate", "--create", "--store", "s.sqlite"], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        let path = dir + "/s.sqlite"
        try E2E.execute(path, """
            INSERT INTO Chef(_pk, name) VALUES (1, 'Ana');
            INSERT INTO Recipe(_pk, name, rating, favorite, lastUsed, author) VALUES (1, 'Soup', 3, 0, 1716000000, 1), (2, 'Tea', 5, 0, 1600000000, NULL);
            INSERT INTO Ingredient(_pk, name, recipe) VALUES (1, 'salt', 1);
            """)
        return (dir, path)
    }

    @Test func updatePrintsIDsAndChangesTheRows() throws {
        let (dir, store) = try Self.makeStore()
        let run = try CLI.run(["batch", "update", "--store", store, "--entity", "Recipe", "--where", "lastUsed >= $NOW - 30 days",
                               "--set", "favorite=true", "--now", "2024-05-21T00:00:00Z", "--result", "ids"], in: dir)
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("/Recipe/p1\n"))
        #expect(run.stdout.hasPrefix("x-strata://"))
        #expect(try E2E.rows(store, "SELECT group_concat(favorite) FROM (SELECT favorite FROM Recipe ORDER BY _pk)") == ["1,0"])
    }

    /// A value starting with `-` is the option's value: `--arg -1` and `--where '-rating < -4'` were "Missing value
    /// for '--arg <arg>'" (exit 2), as a date before year 0 was for `--now`.
    @Test func valuesStartingWithADashAreTaken() throws {
        let (dir, store) = try Self.makeStore()
        let arg = try CLI.run(["batch", "update", "--store", store, "--entity", "Recipe", "--where", "rating > %@", "--arg", "-1",
                               "--set", "favorite=true"], in: dir)
        #expect(arg.status == 0, "\(arg.stderr)")
        #expect(arg.stdout == "2\n")
        let predicate = try CLI.run(["batch", "update", "--store", store, "--entity", "Recipe", "--where", "-rating < -4",
                                     "--set", "favorite=false"], in: dir)
        #expect(predicate.status == 0, "\(predicate.stderr)")
        #expect(predicate.stdout == "1\n")
        #expect(try E2E.rows(store, "SELECT group_concat(favorite) FROM (SELECT favorite FROM Recipe ORDER BY _pk)") == ["1,0"])
        let now = try CLI.run(["batch", "update", "--store", store, "--entity", "Recipe", "--where", "lastUsed < $NOW",
                               "--set", "rating=0", "--now", "-0001-12-31T00:00:00Z"], in: dir)
        #expect(now.status == 0, "\(now.stderr)")
        #expect(now.stdout == "0\n")
        let migrate = try CLI.run(["migrate", "--store", store, "--dry-run", "--now", "-0001-12-31T00:00:00Z", "--format", "json"], in: dir)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect((try CLI.json(migrate.stdout)["migration"] as? [String: Any])?["now"] as? String == "-0001-12-31T00:00:00Z")
    }

    @Test func badPredicateExits2WithLocation() throws {
        let (dir, store) = try Self.makeStore()
        let run = try CLI.run(["batch", "update", "--store", store, "--entity", "Recipe", "--where", "rating >= 3 AND lastUsd > 1", "--set", "favorite=true"], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("predicate:1:17: error: Recipe has no attribute 'lastUsd' (did you mean 'lastUsed'?)\n"))
        #expect(try E2E.rows(store, "SELECT SUM(favorite) FROM Recipe") == ["0"])
    }

    /// `--set rating=1 --set rating=2` (or `--set-expr rating=2`) exited 0 and the last won, while the same
    /// key twice in a hook's propertiesToUpdate is exit 2. Exit 2, nothing written.
    @Test(arguments: [
        (["--set", "rating=1", "--set", "rating=2"], "error: 'rating' is set twice (--set rating=1, --set rating=2)\n"),
        (["--set", "rating=1", "--set-expr", "rating=2"], "error: 'rating' is set twice (--set rating=1, --set-expr rating=2)\n"),
        (["--set-expr", "rating=rating + 1", "--set", "favorite=true", "--set-expr", "rating=0"],
         "error: 'rating' is set twice (--set-expr rating=rating + 1, --set-expr rating=0)\n"),
    ])
    func aDuplicateAttributeExits2(_ options: [String], _ expected: String) throws {
        let (dir, store) = try Self.makeStore()
        let before = E2E.hash(store)
        let run = try CLI.run(["batch", "update", "--store", store, "--entity", "Recipe"] + options, in: dir)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == expected + "hint: give each attribute once, with --set or with --set-expr\n", "\(run.stderr)")
        #expect(E2E.hash(store) == before)
    }

    @Test func setValueOutOfRangeExits2() throws {
        let (dir, store) = try Self.makeStore()
        let run = try CLI.run(["batch", "update", "--store", store, "--entity", "Recipe", "--set", "rating=70000"], in: dir)
        #expect(run.status == 2)
        #expect(try E2E.rows(store, "SELECT group_concat(rating) FROM Recipe") == ["3,5"])
    }

    @Test func setInjectionIsStoredAsText() throws {
        let (dir, store) = try Self.makeStore()
        let run = try CLI.run(["batch", "update", "--store", store, "--entity", "Recipe", "--where", "name == 'Tea'",
                               "--set", "notes='); DROP TABLE Chef; --"], in: dir)
        #expect(run.status == 0)
        #expect(try E2E.rows(store, "SELECT notes FROM Recipe WHERE _pk = 2") == ["'); DROP TABLE Chef; --"])
        #expect(try E2E.rows(store, "SELECT COUNT(*) FROM Chef") == ["1"])
    }

    @Test func deleteCascadesAndWritesChanges() throws {
        let (dir, store) = try Self.makeStore()
        let changes = store + ".changes.json"
        let run = try CLI.run(["batch", "delete", "--store", store, "--entity", "Recipe", "--where", "name == %@", "--arg", "Soup",
                               "--changes-out", changes, "--format", "json"], in: dir)
        #expect(run.status == 0)
        #expect(run.stdout.contains("\"schemaVersion\" : 1"))
        #expect(run.stdout.contains("\"count\" : 1"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: changes))) as? [String: [String: [String]]]
        // The recipe asked for and, by the cascade, its one ingredient.
        #expect(json?["deleted"]?["Recipe"]?.map { $0.hasSuffix("/Recipe/p1") } == [true])
        #expect(json?["deleted"]?["Ingredient"]?.map { $0.hasSuffix("/Ingredient/p1") } == [true])
        #expect(try E2E.rows(store, "SELECT _pk FROM Recipe") == ["2"])
        #expect(try E2E.rows(store, "SELECT COUNT(*) FROM Ingredient") == ["0"])
    }
}
