import Foundation
import Testing
import StrataTestSupport

/// `sql:` hook steps and `diff --sql` on the real binary (SPEC §11.1, §11.4; issue 14 items 2 and 7).
@Suite struct SQLStepCLITests {
    /// The example's models 1 and 2 (v2 adds Chef, unique by email, and Recipe.author) and one hook after v2.
    static func project(hook: String) throws -> String {
        let dir = Temporary.directory("sqlstep")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        for v in [1, 2] {
            try FileManager.default.copyItem(atPath: CLI.packageRoot + "/models/\(v).yaml", toPath: dir + "/models/\(v).yaml")
        }
        try hook.write(toFile: dir + "/migrations/fix.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    /// A v1 store with three recipes (servings 2, 3, 4; "a", "b", "c").
    static func v1Store(_ dir: String, extra: [String] = []) throws -> String {
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", "app.sqlite"] + extra, in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        let path = dir + "/app.sqlite"
        try E2E.execute(path, #"INSERT INTO "Recipe" ("name", "servings", "rating") VALUES ('a', 2, 1), ('b', 3, 1), ('c', 4, 1)"#)
        return path
    }

    static func hook(_ statements: String) -> String {
        "id: fix\nafter: 2\nsteps:\n  - sql: |\n" + statements.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n") + "\n"
    }

    static let update = hook("""
        UPDATE {{Recipe}} SET {{Recipe.servings}} = {{Recipe.servings}} * 10
        WHERE {{Recipe.name}} != {{$KEEP}};
        INSERT INTO {{Chef}} ({{Chef.name}}, {{Chef.email}}) VALUES ('Ann', 'ann@example.com');
        """)

    @Test func runsExactlyOnceAcrossRerunsAndInvalidatesWhatItWrote() throws {
        let dir = try Self.project(hook: Self.update)
        let path = try Self.v1Store(dir, extra: ["--var", "KEEP=b"])
        let run = try CLI.run(["migrate", "--store", "app.sqlite", "--var", "KEEP=b", "--changes-out", "changes.json", "--format", "json"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let hooks = try #require((try CLI.json(run.stdout)["migration"] as? [String: Any])?["hooks"] as? [[String: Any]])
        #expect(hooks.map { $0["rowsAffected"] as? Int } == [3])   // 2 recipes updated, 1 chef inserted
        #expect(try E2E.rows(path, #"SELECT "name", "servings" FROM "Recipe" ORDER BY "_pk""#) == ["a|20", "b|3", "c|40"])
        let changes = try CLI.json(try String(contentsOfFile: dir + "/changes.json", encoding: .utf8))
        #expect(changes["invalidated"] as? [String] == ["Chef", "Recipe"])
        for _ in 0..<2 {
            let again = try CLI.run(["migrate", "--store", "app.sqlite", "--var", "KEEP=b"], in: dir)
            #expect(again.status == 0)
            #expect(again.stdout.contains("nothing to do"))
        }
        #expect(try E2E.rows(path, #"SELECT "name", "servings" FROM "Recipe" ORDER BY "_pk""#) == ["a|20", "b|3", "c|40"])
        #expect(try E2E.rows(path, #"SELECT "name" FROM "Chef""#) == ["Ann"])
        #expect(try E2E.rows(path, #"SELECT "id", "status", "rowsAffected" FROM "strata_hooks""#) == ["fix|applied|3"])
    }

    @Test func aKilledRunLeavesTheStepUndoneOrDoneAndTheRerunAppliesItOnce() throws {
        // A slow first statement (a correlated count per row), then a quick one: the kill lands inside the step.
        let dir = try Self.project(hook: Self.hook("""
            UPDATE {{Recipe}} SET {{Recipe.servings}} = {{Recipe.servings}} + 1
              + 0 * (SELECT count(*) FROM {{Recipe}} AS r WHERE r.{{Recipe.name}} <= {{Recipe}}.{{Recipe.name}});
            INSERT INTO {{Chef}} ({{Chef.name}}) VALUES ('Ann');
            """))
        let path = try Self.v1Store(dir)
        try E2E.execute(path, #"""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
            INSERT INTO "Recipe" ("name", "servings", "rating") SELECT 'r' || i, 1, 0 FROM n
            """#)
        let child = try E2E.Child(["migrate", "--store", "app.sqlite", "--no-progress"], in: dir)
        #expect(Wait.until(timeout: 60) { FileManager.default.fileExists(atPath: path + "-journal") || !child.process.isRunning })
        usleep(200_000)
        let killedRunning = child.process.isRunning
        child.kill()
        let recorded = try E2E.rows(path, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#)
        let total = try E2E.rows(path, #"SELECT total("servings") FROM "Recipe""#)
        let markers = try E2E.rows(path, #"SELECT count(*) FROM "strata_hooks""#)
        if killedRunning {
            // Killed inside the step: none of it committed (the store is still at v1).
            #expect(recorded == ["1"])
            #expect(markers == ["0"])
            #expect(total == ["6009.0"])
        }
        let rerun = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(rerun.status == 0, "\(rerun.stderr) (recorded \(recorded))")
        #expect(try E2E.rows(path, #"SELECT total("servings") FROM "Recipe""#) == ["12012.0"])   // each row + 1, once
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "Chef""#) == ["1"])
        #expect(try E2E.rows(path, #"SELECT "id", "status" FROM "strata_hooks""#) == ["fix|applied"])
        #expect(try E2E.rows(path, "PRAGMA integrity_check") == ["ok"])
    }

    @Test func aDryRunCountsExactlyWhatTheRunDoesAndWritesNothing() throws {
        let dir = try Self.project(hook: Self.update)
        let path = try Self.v1Store(dir, extra: ["--var", "KEEP=a"])
        let before = E2E.storeHashes(path)
        let dry = try CLI.run(["migrate", "--store", "app.sqlite", "--var", "KEEP=a", "--dry-run", "--format", "json"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(E2E.storeHashes(path) == before)
        let real = try CLI.run(["migrate", "--store", "app.sqlite", "--var", "KEEP=a", "--format", "json"], in: dir)
        #expect(real.status == 0, "\(real.stderr)")
        func steps(_ out: String) throws -> [[String: Any]] {
            let hooks = try #require((try CLI.json(out)["migration"] as? [String: Any])?["hooks"] as? [[String: Any]])
            return try #require(hooks.first?["steps"] as? [[String: Any]])
        }
        let dryStep = try steps(dry.stdout), realStep = try steps(real.stdout)
        #expect(dryStep.map { $0["count"] as? Int } == [3])
        #expect(realStep.map { $0["count"] as? Int } == [3])
        #expect(realStep.map { $0["entity"] as? String } == ["Chef, Recipe"])
    }

    @Test func constraintFailuresRollBackWithExit3() throws {
        let cases: [(String, String)] = [
            // UNIQUE (Chef.email): 1551, at the second statement's line.
            ("UPDATE {{Recipe}} SET {{Recipe.servings}} = 9;\nINSERT INTO {{Chef}} ({{Chef.name}}, {{Chef.email}}) VALUES ('x', 'a@b.c'), ('y', 'a@b.c');",
             "migrations/fix.yaml:6:7: error: uniqueness violated: UNIQUE constraint failed: Chef.email (1551)"),
            // A dangling reference found by foreign_key_check before commit: 1700.
            ("UPDATE {{Recipe}} SET {{Recipe.servings}} = 9;\nUPDATE {{Recipe}} SET {{Recipe.author}} = 999;",
             "migrations/fix.yaml:5:7: error: hook 'fix' left 3 references to missing objects: Recipe row 1 → Chef, Recipe row 2 → Chef, Recipe row 3 → Chef (1700)"),
        ]
        for (statements, message) in cases {
            let dir = try Self.project(hook: Self.hook(statements))
            let path = try Self.v1Store(dir)
            let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
            #expect(run.status == 3, "\(run.stderr)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
            #expect(try E2E.rows(path, #"SELECT "servings" FROM "Recipe" ORDER BY "_pk""#) == ["2", "3", "4"])
            #expect(try E2E.rows(path, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["1"])
            #expect(try E2E.rows(path, #"SELECT count(*) FROM "strata_hooks""#) == ["0"])
            #expect(try E2E.rows(path, #"SELECT count(*) FROM "sqlite_master" WHERE "name" = 'Chef'"#) == ["0"])   // the v2 step rolled back too
        }
    }

    @Test func rawSQLNeverFiresForeignKeyActions() throws {
        // Ingredient.recipe is ON DELETE SET NULL: with foreign keys on, deleting a recipe would quietly unlink
        // its ingredients. Steps run with them off, so the reference dangles and the check before commit says so.
        let dir = try Self.project(hook: Self.hook("DELETE FROM {{Recipe}} WHERE {{Recipe.name}} = 'a';"))
        let path = try Self.v1Store(dir)
        try E2E.execute(path, #"INSERT INTO "Ingredient" ("name", "recipe") VALUES ('salt', 1), ('flour', 2)"#)
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("migrations/fix.yaml:5:7: error: hook 'fix' left 1 reference to missing objects: Ingredient row 1 → Recipe (1700)"),
                "\(run.stderr)")
        #expect(try E2E.rows(path, #"SELECT "name", "recipe" FROM "Ingredient" ORDER BY "_pk""#) == ["salt|1", "flour|2"])
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "Recipe""#) == ["3"])
        // Unlinking in the same hook is the fix.
        try Self.hook("UPDATE {{Ingredient}} SET {{Ingredient.recipe}} = NULL WHERE {{Ingredient.recipe}} = 1;\nDELETE FROM {{Recipe}} WHERE {{Recipe.name}} = 'a';")
            .write(toFile: dir + "/migrations/fix.yaml", atomically: true, encoding: .utf8)
        let fixed = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(try E2E.rows(path, #"SELECT "name", ifnull("recipe", 'nil') FROM "Ingredient" ORDER BY "_pk""#) == ["salt|nil", "flour|2"])
    }

    @Test func whatAStepWroteIsAuditedInFull() throws {
        // rating has max 5: every Recipe row is judged, not only rows a batch recorded.
        let dir = try Self.project(hook: Self.hook("UPDATE {{Recipe}} SET {{Recipe.rating}} = 9 WHERE {{Recipe.name}} = 'b';"))
        let path = try Self.v1Store(dir)
        let run = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(run.status == 3, "\(run.stderr)")
        let hooks = try #require((try CLI.json(run.stdout)["migration"] as? [String: Any])?["hooks"] as? [[String: Any]])
        let audit = try #require(hooks.first?["audit"] as? [String: Any])
        #expect(audit["totalViolations"] as? Int == 1)
        #expect(try E2E.rows(path, #"SELECT "rating" FROM "Recipe" ORDER BY "_pk""#) == ["1", "1", "1"])
        // --audit none skips it (and commits).
        let unaudited = try CLI.run(["migrate", "--store", "app.sqlite", "--audit", "none"], in: dir)
        #expect(unaudited.status == 0, "\(unaudited.stderr)")
        #expect(try E2E.rows(path, #"SELECT "rating" FROM "Recipe" ORDER BY "_pk""#) == ["1", "9", "1"])
    }

    @Test func refusalsAndBadSQLAreExit2LocatedBeforeAnythingIsWritten() throws {
        let cases: [(String, String)] = [
            ("PRAGMA foreign_keys = ON;", "migrations/fix.yaml:6:7: error: refused: PRAGMA foreign_keys is refused in sql: steps"),
            ("COMMIT;", "migrations/fix.yaml:6:7: error: refused: transaction control and savepoints are Strata's"),
            ("DELETE FROM strata_hooks;", "migrations/fix.yaml:6:7: error: refused: writes to Strata's table 'strata_hooks' are refused"),
            ("DROP TABLE {{Chef}};", "migrations/fix.yaml:6:7: error: refused: creating or dropping the model's table 'Chef' is refused"),
            ("ATTACH 'other.sqlite' AS o;", "migrations/fix.yaml:6:7: error: refused: ATTACH and DETACH are refused in sql: steps"),
            ("UPDATE {{Recipe}} SET nme = 1;", "migrations/fix.yaml:6:7: error: SQL error: no such column: nme"),
            ("UPDATE {{Recipe}} SET {{Recipe.nme}} = 1;", "migrations/fix.yaml:6:29: error: Recipe has no property 'nme'"),
            ("UPDATE {{Recipes}} SET x = 1;", "migrations/fix.yaml:6:14: error: unknown entity 'Recipes' in an sql: placeholder"),
            ("UPDTE {{Recipe}} SET x = 1;", "migrations/fix.yaml:6:7: error: SQL error: near \"UPDTE\": syntax error"),
        ]
        for (second, message) in cases {
            // The store is made first: a hook naming what the model lacks stops every migrate (exit 2).
            let dir = try Self.project(hook: Self.hook("UPDATE {{Recipe}} SET {{Recipe.servings}} = 1;"))
            let path = try Self.v1Store(dir)
            try Self.hook("UPDATE {{Recipe}} SET {{Recipe.servings}} = 1; -- fine\n" + second)
                .write(toFile: dir + "/migrations/fix.yaml", atomically: true, encoding: .utf8)
            let before = E2E.storeHashes(path)
            let lint = try CLI.run(["lint"], in: dir)
            #expect(lint.status == 2, "\(second)")
            #expect(lint.stderr.contains(message), "\(second): \(lint.stderr)")
            for extra in [["--dry-run"], []] {
                let run = try CLI.run(["migrate", "--store", "app.sqlite"] + extra, in: dir)
                #expect(run.status == 2, "\(second)")
                #expect(run.stderr.contains(message), "\(second): \(run.stderr)")
            }
            #expect(E2E.storeHashes(path) == before, "\(second)")
        }
    }

    /// One lint finds every bad file: a hook with a bad predicate no longer hides another file's bad SQL.
    @Test func lintReportsBadSQLBesideAnotherFilesErrors() throws {
        let dir = try Self.project(hook: Self.hook("UPDATE {{Recipe}} SET nme = 1;"))
        try "id: other\nafter: 2\nsteps:\n  - batchUpdate: { entity: Recipe, predicate: \"ratng > 1\", propertiesToUpdate: { rating: 1 } }\n"
            .write(toFile: dir + "/migrations/other.yaml", atomically: true, encoding: .utf8)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.contains("migrations/fix.yaml:5:7: error: SQL error: no such column: nme"), "\(lint.stderr)")
        #expect(lint.stderr.contains("migrations/other.yaml:4:48: error: Recipe has no attribute 'ratng'"), "\(lint.stderr)")
        #expect(lint.stdout.hasSuffix("0 hook(s), 2 error(s), 0 warning(s)\n"), "\(lint.stdout)")
    }

    @Test func writingSQLiteSequenceIsExit2AtLintAndBeforeAnyWriteSoIDsAreNeverReused() throws {
        let text = Self.hook("DELETE FROM {{Recipe}} WHERE {{Recipe._pk}} = 3;\nUPDATE sqlite_sequence SET seq = 1 WHERE name = 'Recipe';")
            + "  - batchInsert:\n      entity: Recipe\n      objects: [ { name: brandnew } ]\n"
        let dir = try Self.project(hook: text)
        let path = try Self.v1Store(dir)
        let message = "migrations/fix.yaml:6:7: error: refused: writes to sqlite_sequence are refused: object IDs are never reused after a delete"
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2, "\(lint.stderr)")
        #expect(lint.stderr.contains(message), "\(lint.stderr)")
        let before = E2E.storeHashes(path)
        for extra in [["--dry-run"], []] {
            let run = try CLI.run(["migrate", "--store", "app.sqlite"] + extra, in: dir)
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
        }
        #expect(E2E.storeHashes(path) == before)
        // Without the write, the new recipe gets an ID no object ever had.
        try text.replacingOccurrences(of: "      UPDATE sqlite_sequence SET seq = 1 WHERE name = 'Recipe';\n", with: "")
            .write(toFile: dir + "/migrations/fix.yaml", atomically: true, encoding: .utf8)
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(path, #"SELECT "_pk", "name" FROM "Recipe" ORDER BY "_pk""#) == ["1|a", "2|b", "4|brandnew"])
    }

    @Test(arguments: [">", ">-"])
    func anErrorInAFoldedBlockPointsAtItsLine(indicator: String) throws {
        let dir = try Self.project(hook: "id: fix\nafter: 2\nsteps:\n  - sql: \(indicator)\n      UPDATE {{Recipe}}\n      SET {{Recipe.ratng}} = 2\n")
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2, "\(lint.stderr)")
        #expect(lint.stderr.contains("migrations/fix.yaml:6:11: error: Recipe has no property 'ratng'"), "\(lint.stderr)")
        #expect(lint.stderr.contains("\n          SET {{Recipe.ratng}} = 2\n              ^"), "\(lint.stderr)")
    }

    @Test func aBeforeHooksSQLRunsOnTheVersionBelowAndComesFirst() throws {
        let before = "id: early\nbefore: 2\nsteps:\n  - sql: |\n      UPDATE {{Recipe}} SET {{Recipe.servings}} = {{Recipe.servings}} + 50;\n"
        let dir = try Self.project(hook: Self.hook("INSERT INTO {{Chef}} ({{Chef.name}}) SELECT {{Recipe.name}} FROM {{Recipe}} WHERE {{Recipe.servings}} > 50;"))
        let path = try Self.v1Store(dir)
        try before.write(toFile: dir + "/migrations/early.yaml", atomically: true, encoding: .utf8)
        let diff = try CLI.run(["diff", "1", "2", "--sql", "--store", "app.sqlite"], in: dir)
        #expect(diff.status == 0, "\(diff.stderr)")
        let comments = diff.stdout.split(separator: "\n").filter { $0.hasPrefix("--") }
        #expect(comments == ["-- v1 → v2: before-hook early step 1: sql", "-- v1 → v2: inferred changes", "-- v1 → v2: after-hook fix step 1: sql"])
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(path, #"SELECT "name" FROM "Chef" ORDER BY "_pk""#) == ["a", "b", "c"])
        // Before v2 there is no Chef: named in a before-hook, it is exit 2 at the placeholder, in lint as in migrate.
        let dir2 = try Self.project(hook: Self.hook("UPDATE {{Recipe}} SET {{Recipe.servings}} = 1;"))
        let path2 = try Self.v1Store(dir2)
        try "id: early\nbefore: 2\nsteps:\n  - sql: DELETE FROM {{Chef}}\n".write(toFile: dir2 + "/migrations/early.yaml", atomically: true, encoding: .utf8)
        let hashes = E2E.storeHashes(path2)
        for args in [["lint"], ["migrate", "--store", "app.sqlite"]] {
            let refused = try CLI.run(args, in: dir2)
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("migrations/early.yaml:4:22: error: unknown entity 'Chef' in an sql: placeholder"), "\(refused.stderr)")
        }
        #expect(E2E.storeHashes(path2) == hashes)
    }

    @Test func diffSQLPrintsTheStepsSQLInRunOrderForTheStoresLayout() throws {
        let dir = try Self.project(hook: Self.update)
        _ = try Self.v1Store(dir, extra: ["--var", "KEEP=b"])
        let expected = """
            -- v1 → v2: inferred changes
            CREATE TABLE "strata_new_Chef" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT, "email" TEXT);
            ALTER TABLE "Recipe" ADD COLUMN "author" INTEGER REFERENCES "Chef"("_pk") ON DELETE SET NULL;
            ALTER TABLE "strata_new_Chef" RENAME TO "Chef";
            CREATE UNIQUE INDEX "strata_uniq_Chef_email" ON "Chef" ("email");
            CREATE INDEX "strata_fk_Recipe_author" ON "Recipe" ("author");
            -- v1 → v2: after-hook fix step 1: sql
            UPDATE "Recipe" SET "servings" = "servings" * 10
            WHERE "name" != ? /* $KEEP = 'b' */;
            INSERT INTO "Chef" ("name", "email") VALUES ('Ann', 'ann@example.com');

            """
        let before = E2E.storeHashes(dir + "/app.sqlite")
        for extra in [[], ["--store", "app.sqlite"]] {
            let diff = try CLI.run(["diff", "1", "2", "--sql", "--var", "KEEP=b"] + extra, in: dir)
            #expect(diff.status == 0, "\(diff.stderr)")
            #expect(diff.stdout == expected)
        }
        #expect(E2E.storeHashes(dir + "/app.sqlite") == before)
        // The store's layout is known at its own version only.
        let wrong = try CLI.run(["diff", "2", "2", "--sql", "--var", "KEEP=b", "--store", "app.sqlite"], in: dir)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("error: 'app.sqlite' is at version 1, not 2"))
        // An unset variable is located in the hook file.
        let unset = try CLI.run(["diff", "1", "2", "--sql"], in: dir)
        #expect(unset.status == 2)
        #expect(unset.stderr.contains("migrations/fix.yaml:6:32: error: unknown variable '$KEEP'"), "\(unset.stderr)")
    }
}
