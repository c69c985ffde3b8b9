import Foundation
import Testing
import StrataTestSupport

/// Batch steps inside a version step, which runs with foreign keys off (SPEC §11.4): what SQLite would have
/// refused is still refused (1700, exit 3, located at the step, rolled back); and `diff --sql` shows their SQL.
extension InsertLinkCLITests {
    @Test func aDanglingPrimaryKeyInAnInsertIsLocated1700AndRollsTheStepBack() throws {
        let hook = "id: seed\nafter: 2\nsteps:\n  - batchInsert:\n      entity: Summary\n      objects: [ { text: orphan, post: 42 }, { text: fine, post: 1 } ]\n"
        let dir = try project(hooks: ["seed": hook])
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 3)
        #expect(run.stderr.hasPrefix("""
            migrations/seed.yaml:5:15: error: hook 'seed' step 1: the batch would leave a dangling reference (no object has that primary key): \
            Summary 1 post = 42 (1700)
            """), "\(run.stderr)")
        #expect(try version(dir) == ["1"])
        #expect(try E2E.rows(dir + "/app.sqlite", #"SELECT count(*) FROM "sqlite_master" WHERE "name" = 'Summary'"#) == ["0"])
        // Naming an object that exists passes; the new rows' keys are the only ones read.
        try hook.replacingOccurrences(of: "post: 42", with: "post: 5").write(toFile: dir + "/migrations/seed.yaml", atomically: true, encoding: .utf8)
        let fixed = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(try E2E.rows(dir + "/app.sqlite", #"SELECT "_pk", "text", "post" FROM "Summary" ORDER BY "_pk""#) == ["1|orphan|5", "2|fine|1"])
    }

    /// The model's delete rules are Strata's own; a table of yours whose foreign key points at a deleted row
    /// does not get its `ON DELETE` action inside a step: the delete is refused instead.
    @Test func aDeleteThatOrphansRowsOfYourOwnTableIs1700() throws {
        let hook = "id: prune\nafter: 2\nsteps:\n  - batchDelete:\n      entity: Post\n      predicate: \"title == 'p5'\"\n"
        let dir = try project(hooks: ["prune": hook])
        let path = dir + "/app.sqlite"
        try E2E.execute(path, """
            CREATE TABLE "Bookmark" ("note" TEXT, "post" INTEGER REFERENCES "Post"("_pk") ON DELETE CASCADE);
            INSERT INTO "Bookmark" VALUES ('keep', 1), ('gone', 5);
            """)
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 3)
        #expect(run.stderr.hasPrefix("""
            migrations/prune.yaml:5:15: error: hook 'prune' step 1: the delete would leave rows of your own tables pointing at deleted objects \
            (their ON DELETE actions do not run inside a version step): Bookmark row 2 → Post (1700)
            """), "\(run.stderr)")
        #expect(try version(dir) == ["1"])
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "Post""#) == ["5"])
        // Deleting the bookmark first, in the same hook, is the fix.
        let fixed = "id: prune\nafter: 2\nsteps:\n  - sql: DELETE FROM \"Bookmark\" WHERE \"post\" = 5\n  - batchDelete:\n      entity: Post\n      predicate: \"title == 'p5'\"\n"
        try fixed.write(toFile: dir + "/migrations/prune.yaml", atomically: true, encoding: .utf8)
        let done = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(done.status == 0, "\(done.stderr)")
        #expect(try E2E.rows(path, #"SELECT "note", "post" FROM "Bookmark""#) == ["keep|1"])
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "Post""#) == ["4"])
    }

    @Test func diffSQLShowsEachBatchStepsStatementsWithTheirBoundValues() throws {
        let prune = """
            id: prune
            after: 2
            steps:
              - batchDelete: { entity: Post, predicate: "title == $WHO" }
              - batchUpdate: { entity: Tag, predicate: "name BEGINSWITH 'q'", propertiesToUpdate: { uses: { expression: "uses + 1" } } }
            """
        let dir = try project(hooks: ["link": Self.linkAuthors, "summarize": Self.summarize, "prune": prune])
        let before = E2E.storeHashes(dir + "/app.sqlite")
        let diff = try CLI.run(["diff", "1", "2", "--sql", "--store", "app.sqlite", "--var", "WHO=o'brien"], in: dir)
        #expect(diff.status == 0, "\(diff.stderr)")
        let hooks = diff.stdout.components(separatedBy: "\n").drop { !$0.hasPrefix("-- v1 → v2: after-hook") }.joined(separator: "\n")
        #expect(hooks == """
            -- v1 → v2: after-hook link-post-authors step 1: setRelationship Post
            -- ambiguity check: a row here means a match may be ambiguous (then searched for, exit 3)
            SELECT 1 FROM "User" AS d WHERE 1 AND d."userID" IS NOT NULL GROUP BY d."userID" HAVING count(*) > 1 LIMIT 1;
            UPDATE "Post" AS t SET "author" = (SELECT d."_pk" FROM "User" AS d WHERE d."userID" = t."authorID") WHERE (t."author" IS NULL) AND (t."authorID") IN (SELECT d."userID" FROM "User" AS d WHERE 1);
            -- v1 → v2: after-hook prune step 1: batchDelete Post
            CREATE TEMP TABLE IF NOT EXISTS "strata_doomed" ("table" TEXT NOT NULL, "pk" INTEGER NOT NULL, "entity" TEXT NOT NULL, "cascaded" INTEGER NOT NULL DEFAULT 0, "round" INTEGER NOT NULL DEFAULT 0, PRIMARY KEY ("table", "pk")) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS "strata_round" ("r" INTEGER NOT NULL);
            DELETE FROM temp."strata_doomed";
            INSERT INTO temp."strata_doomed" ("table", "pk", "entity") SELECT ? /* 'Post' */, t."_pk", ? /* 'Post' */ FROM "Post" AS t WHERE t."title" = ? /* 'o''brien' */;
            UPDATE "Post" AS x SET "author" = NULL WHERE x."author" IN (SELECT k."pk" FROM temp."strata_doomed" AS k WHERE k."table" = ? /* 'User' */) AND x."_pk" NOT IN (SELECT k."pk" FROM temp."strata_doomed" AS k WHERE k."table" = ? /* 'Post' */);
            UPDATE "Summary" AS x SET "post" = NULL WHERE x."post" IN (SELECT k."pk" FROM temp."strata_doomed" AS k WHERE k."table" = ? /* 'Post' */) AND x."_pk" NOT IN (SELECT k."pk" FROM temp."strata_doomed" AS k WHERE k."table" = ? /* 'Summary' */);
            DELETE FROM "Post" WHERE "_pk" IN (SELECT "pk" FROM temp."strata_doomed" WHERE "table" = ? /* 'Post' */);
            DELETE FROM "Summary" WHERE "_pk" IN (SELECT "pk" FROM temp."strata_doomed" WHERE "table" = ? /* 'Summary' */);
            DELETE FROM "Tag" WHERE "_pk" IN (SELECT "pk" FROM temp."strata_doomed" WHERE "table" = ? /* 'Tag' */);
            DELETE FROM "User" WHERE "_pk" IN (SELECT "pk" FROM temp."strata_doomed" WHERE "table" = ? /* 'User' */);
            -- v1 → v2: after-hook prune step 2: batchUpdate Tag
            UPDATE "Tag" AS t SET "uses" = (t."uses" + ? /* 1 */) WHERE strata_beginswith(t."name", ? /* 'q' */);
            -- v1 → v2: after-hook summarize-posts step 1: batchInsert Summary
            INSERT INTO "Summary" ("position", "post", "text") SELECT ? /* 1 */, t."_pk", t."title" FROM "Post" AS t WHERE (t."title" IS NOT NULL) ORDER BY t."_pk";
            -- v1 → v2: after-hook summarize-posts step 2: batchInsert Tag
            INSERT INTO "Tag" ("name", "uses") VALUES (? /* 'quick' */, ? /* 0 */);
            INSERT INTO "Tag" ("name", "uses") VALUES (? /* 'vegan' */, ? /* 3 */);

            """)
        #expect(E2E.storeHashes(dir + "/app.sqlite") == before)
        // A batch step that does not plan is exit 2, located in its hook file, as in lint.
        try prune.replacingOccurrences(of: "title == $WHO", with: "titel == $WHO").write(toFile: dir + "/migrations/prune.yaml", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["diff", "1", "2", "--sql", "--var", "WHO=x"], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("migrations/prune.yaml:4:46: error: Post has no attribute 'titel' (did you mean 'title'?)"), "\(bad.stderr)")
    }
}
