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
                                  "--set-expr", "rating=rating + 1", "--result", "status", "--store", url], in: project)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout == "updated 3 object(s)\n")
        let delete = try CLI.run(["batch", "delete", "--entity", "Recipe", "--where", "lastUsed == nil AND rating < 4", "--result", "count",
                                  "--store", url], in: project)
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(delete.stdout == "1\n")
        #expect(try PostgresTestServer.psql(#"SELECT string_agg("name" || ' ' || "rating" || ' ' || "favorite", ', ' ORDER BY "_pk") FROM "\#(schema)"."Recipe""#)
                    == "Soup 5 true, Crème 6 true")
        #expect(try PostgresTestServer.psql(#"SELECT string_agg("name", ', ' ORDER BY "_pk") FROM "\#(schema)"."Ingredient""#) == "egg")
    }
}
