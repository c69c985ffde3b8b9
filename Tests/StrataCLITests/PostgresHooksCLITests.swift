import Foundation
import GRDB
import StrataTestSupport
import Testing

/// The bundled example through the real `strata` binary on a PostgreSQL store: its hooks run during `migrate`
/// with the same counts as on SQLite, `--dry-run` reports them and writes nothing, a second run applies nothing.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresHooksCLITests {
    static let now = "2024-05-21T00:00:00Z"
    static let seconds: Double = 1_716_249_600
    static let day: Double = 86_400
    /// Four recipes (two untitled, one never used) and three ingredients, as (name, lastUsed) and (name, recipe).
    static let recipes: [(String, Double?)] = [("Untitled", nil), ("Soup", seconds - 5 * day), ("Old stew", seconds - 90 * day),
                                               ("Untitled", seconds - 100 * day)]
    static let ingredients = [("salt", 1), ("pepper", 1), ("leek", 2)]

    /// `id rowsAffected` of each hook in a `--format json` run report (SQLite's nests it under "migration").
    static func hookCounts(_ stdout: String) throws -> [String] {
        let json = try CLI.json(stdout)
        let hooks = (json["hooks"] ?? (json["migration"] as? [String: Any])?["hooks"]) as? [[String: Any]] ?? []
        return hooks.map { "\($0["id"] ?? "") \($0["rowsAffected"] ?? "")" }
    }

    @Test func exampleHooksGiveTheSameCountsAsOnSQLite() throws {
        let project = try CLI.exampleProject()
        // SQLite
        let file = project + "/store.sqlite"
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", file], in: project).status == 0)
        try DatabaseQueue(path: file).write { db in
            for (name, used) in Self.recipes {
                try db.execute(sql: #"INSERT INTO "Recipe" ("name", "lastUsed", "rating") VALUES (?, ?, 0)"#, arguments: [name, used])
            }
            for (name, recipe) in Self.ingredients {
                try db.execute(sql: #"INSERT INTO "Ingredient" ("name", "recipe") VALUES (?, ?)"#, arguments: [name, recipe])
            }
        }
        let onSQLite = try CLI.run(["migrate", "--store", file, "--now", Self.now, "--format", "json"], in: project)
        #expect(onSQLite.status == 0, "\(onSQLite.stderr)")
        #expect(try Self.hookCounts(onSQLite.stdout) == ["purge-abandoned-drafts 1", "favorite-recent-recipes 1"])

        // PostgreSQL
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: project).status == 0)
        let values = Self.recipes.map { "('\($0.0)', " + ($0.1.map { "to_timestamp(\($0))" } ?? "NULL") + ", 0)" }.joined(separator: ", ")
        _ = try PostgresTestServer.psql(#"INSERT INTO "\#(schema)"."Recipe" ("name", "lastUsed", "rating") VALUES "# + values + ";"
            + #"INSERT INTO "\#(schema)"."Ingredient" ("name", "recipe") VALUES "#
            + Self.ingredients.map { "('\($0.0)', \($0.1))" }.joined(separator: ", "))

        let dry = try CLI.run(["migrate", "--dry-run", "--store", url, "--now", Self.now], in: project)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasPrefix("Dry run: store \(url) at v1 → v4 ($NOW = 2024-05-21T00:00:00Z)\n"), "\(dry.stdout)")
        #expect(dry.stdout.contains("\n\nhook purge-abandoned-drafts (after v3): batchDelete Recipe: 1 object; audit: 0 violations\n"))
        #expect(dry.stdout.contains("\n\nhook favorite-recent-recipes (after v4): batchUpdate Recipe: 1 object; audit: 0 violations\n"))
        #expect(try PostgresTestServer.psql(#"SELECT count(*) || ' ' || count(*) FILTER (WHERE "name" = 'Untitled') FROM "\#(schema)"."Recipe""#) == "4 2")

        let onPostgres = try CLI.run(["migrate", "--store", url, "--now", Self.now, "--format", "json"], in: project)
        #expect(onPostgres.status == 0, "\(onPostgres.stderr)")
        #expect(try Self.hookCounts(onPostgres.stdout) == ["purge-abandoned-drafts 1", "favorite-recent-recipes 1"])
        #expect(try Self.hookCounts(onPostgres.stdout) == Self.hookCounts(onSQLite.stdout))
        #expect(try PostgresTestServer.psql(#"SELECT string_agg("name" || ' ' || "favorite", ', ' ORDER BY "_pk") FROM "\#(schema)"."Recipe""#)
                    == "Soup true, Old stew false, Untitled false")
        let sqliteRows = try DatabaseQueue(path: file).read { db in
            try String.fetchAll(db, sql: #"SELECT "name" || ' ' || CASE "favorite" WHEN 1 THEN 'true' ELSE 'false' END FROM "Recipe" ORDER BY "_pk""#)
        }
        #expect(sqliteRows == ["Soup true", "Old stew false", "Untitled false"])

        let again = try CLI.run(["migrate", "--store", url, "--now", Self.now], in: project)
        #expect(again.status == 0)
        #expect(again.stdout == "Migration: store \(url) is at v4, nothing to do\n")
    }
}
