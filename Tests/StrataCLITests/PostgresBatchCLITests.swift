import Foundation
import StrataTestSupport
import Testing

/// `strata batch update|delete --store postgres://…`: one request in one transaction, counts and rows exact.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresBatchCLITests {
    @Test func updatesAndDeletesWithDeleteRules() throws {
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        #expect(try CLI.run(["migrate", "--create", "--store", url], in: project).status == 0)
        _ = try PostgresTestServer.psql(#"""
            INSERT INTO "\#(schema)"."Recipe" ("name", "rating", "lastUsed") VALUES ('Soup', 4, now()), ('Stew', 2, NULL), ('Crème', 5, NULL);
            INSERT INTO "\#(schema)"."Ingredient" ("name", "recipe") VALUES ('salt', 2), ('leek', 2), ('egg', 3)
            """#)
        let update = try CLI.run(["batch", "update", "--entity", "Recipe", "--where", "rating >= 4 OR name ==[c] 'stew'", "--set", "favorite=true",
                                  "--set-expr", "rating=rating + 1", "--result", "status", "--store", url, "--on-violation", "warn"], in: project)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout == "updated 3 object(s)\n")
        // Crème's rating 6 is above the model's maximum: audited before commit, committed under warn.
        #expect(update.stderr.contains("warning: 1 violation(s) committed (--on-violation warn)"), "\(update.stderr)")
        let delete = try CLI.run(["batch", "delete", "--entity", "Recipe", "--where", "lastUsed == nil AND rating < 4", "--result", "count",
                                  "--store", url], in: project)
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(delete.stdout == "1\n")
        #expect(try PostgresTestServer.psql(#"SELECT string_agg("name" || ' ' || "rating" || ' ' || "favorite", ', ' ORDER BY "_pk") FROM "\#(schema)"."Recipe""#)
                    == "Soup 5 true, Crème 6 true")
        #expect(try PostgresTestServer.psql(#"SELECT string_agg("name", ', ' ORDER BY "_pk") FROM "\#(schema)"."Ingredient""#) == "egg")
    }

    /// The same attribute twice across --set and --set-expr is exit 2 before the store is touched, as on SQLite.
    @Test func aDuplicateAttributeExits2() throws {
        let project = try CLI.exampleProject()
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        #expect(try CLI.run(["migrate", "--create", "--store", url], in: project).status == 0)
        _ = try PostgresTestServer.psql(#"INSERT INTO "\#(schema)"."Recipe" ("name", "rating") VALUES ('Soup', 4)"#)
        let run = try CLI.run(["batch", "update", "--entity", "Recipe", "--set", "rating=1", "--set-expr", "rating=2", "--store", url], in: project)
        #expect(run.status == 2)
        #expect(run.stderr == "error: 'rating' is set twice (--set rating=1, --set-expr rating=2)\nhint: give each attribute once, with --set or with --set-expr\n",
                "\(run.stderr)")
        #expect(try PostgresTestServer.psql(#"SELECT string_agg("name" || ' ' || "rating", ', ') FROM "\#(schema)"."Recipe""#) == "Soup 4")
    }

    /// The audit before commit, as on SQLite: the same rows break the same rule with the same report; rollback
    /// (the default) is exit 3 with nothing written, `warn` commits; `--changes-out` writes the same change set.
    @Test func theAuditBeforeCommitMatchesSQLite() throws {
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        let sqlite = "batch.sqlite"
        for store in [url, sqlite] { #expect(try CLI.run(["migrate", "--create", "--store", store], in: project).status == 0) }
        let rows = #"INSERT INTO %Recipe ("name", "rating", "favorite") VALUES ('Soup', 4, %f), ('Stew', 5, %f), ('Pie', 1, %f)"#
        _ = try PostgresTestServer.psql(rows.replacingOccurrences(of: "%Recipe", with: #""\#(schema)"."Recipe""#)
            .replacingOccurrences(of: "%f", with: "false"))
        try E2E.execute(project + "/" + sqlite, rows.replacingOccurrences(of: "%Recipe", with: #""Recipe""#).replacingOccurrences(of: "%f", with: "0"))
        let uuid = try PostgresTestServer.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")
        let sqliteUUID = try E2E.rows(project + "/" + sqlite, "SELECT value FROM strata_metadata WHERE key = 'strata.uuid'")[0]
        let same = { (text: String) in text.replacingOccurrences(of: sqliteUUID, with: uuid).replacingOccurrences(of: sqlite, with: url) }
        let update = ["batch", "update", "--entity", "Recipe", "--where", "rating >= 4", "--set-expr", "rating=rating + 1", "--format", "json"]

        let pgRolledBack = try CLI.run(update + ["--store", url], in: project)
        let sqliteRolledBack = try CLI.run(update + ["--store", sqlite], in: project)
        #expect(pgRolledBack.status == 3 && sqliteRolledBack.status == 3, "\(pgRolledBack.stderr)")
        #expect(pgRolledBack.stdout == same(sqliteRolledBack.stdout))
        #expect(pgRolledBack.stderr == same(sqliteRolledBack.stderr))
        #expect(pgRolledBack.stderr.contains("error: the batch update on Recipe broke the model's rules (1 violation(s)); it was rolled back"))
        #expect(pgRolledBack.stdout.contains("x-strata://\(uuid)/Recipe/p2"), "\(pgRolledBack.stdout)")
        #expect(try PostgresTestServer.psql(#"SELECT string_agg("rating"::text, ' ' ORDER BY "_pk") FROM "\#(schema)"."Recipe""#) == "4 5 1")

        let pgWarned = try CLI.run(update + ["--store", url, "--on-violation", "warn", "--changes-out", "pg.json"], in: project)
        let sqliteWarned = try CLI.run(update + ["--store", sqlite, "--on-violation", "warn", "--changes-out", "sqlite.json"], in: project)
        #expect(pgWarned.status == 0 && sqliteWarned.status == 0, "\(pgWarned.stderr)")
        #expect(pgWarned.stdout == same(sqliteWarned.stdout))
        let read = { (name: String) in try String(contentsOfFile: project + "/" + name, encoding: .utf8) }
        #expect(try read("pg.json") == same(read("sqlite.json")))
        #expect(try PostgresTestServer.psql(#"SELECT string_agg("rating"::text, ' ' ORDER BY "_pk") FROM "\#(schema)"."Recipe""#) == "5 6 1")
    }
}
