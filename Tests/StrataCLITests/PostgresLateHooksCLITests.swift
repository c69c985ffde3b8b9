import Foundation
import StrataTestSupport
import Testing

/// `migrate --run-late-hooks` on a PostgreSQL store, through the real `strata` binary: SQLite's semantics
/// (SPEC §5): a late hook is exit 6 until asked for, then runs first, in its own transaction, on the current
/// model; a late before-hook stays exit 6.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresLateHooksCLITests {
    static let rateFavorites = """
        id: rate-favorites
        after: 4
        steps:
          - batchUpdate: { entity: Recipe, predicate: "favorite == YES AND rating < 3", propertiesToUpdate: { rating: 3 } }
        """

    /// The example project's store migrated to version 4 with its hooks, then a hook for version 4 added:
    /// (project directory, URL, schema).
    static func storePastAHook() throws -> (String, String, String) {
        let project = try CLI.exampleProject()
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: project).status == 0)
        let values = PostgresHooksCLITests.recipes.map { "('\($0.0)', " + ($0.1.map { "to_timestamp(\($0))" } ?? "NULL") + ", 0)" }
        _ = try PostgresTestServer.psql(#"INSERT INTO "\#(schema)"."Recipe" ("name", "lastUsed", "rating") VALUES "#
                                            + values.joined(separator: ", "))
        let migrated = try CLI.run(["migrate", "--store", url, "--now", PostgresHooksCLITests.now], in: project)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        try rateFavorites.write(toFile: project + "/migrations/rate-favorites.yaml", atomically: true, encoding: .utf8)
        return (project, url, schema)
    }

    static func ratings(_ schema: String) throws -> String {
        try PostgresTestServer.psql(#"SELECT string_agg("name" || ' ' || "favorite" || ' ' || "rating", ', ' ORDER BY "_pk") FROM "\#(schema)"."Recipe""#)
    }

    @Test func aLateHookIsExit6UntilAskedForThenRunsOnce() throws {
        let (project, url, schema) = try Self.storePastAHook()
        #expect(try Self.ratings(schema) == "Soup true 0, Old stew false 0, Untitled false 0")

        let check = try CLI.run(["status", "--check", "--store", url], in: project)
        #expect(check.status == 6)
        #expect(check.stdout.contains("; late hooks rate-favorites (need --run-late-hooks)\n"), "\(check.stdout)")
        let refused = try CLI.run(["migrate", "--store", url], in: project)
        #expect(refused.status == 6)
        #expect(refused.stderr.hasPrefix("error: late hook(s) 'rate-favorites': the store already passed their version by migrating (it is at version 4)"))

        let dry = try CLI.run(["migrate", "--run-late-hooks", "--dry-run", "--store", url, "--now", PostgresHooksCLITests.now], in: project)
        #expect(dry.status == 0, "\(dry.stderr)")
        // The same report as on SQLite: a dry run of no step, the late hook with its audit, what it changed.
        let dryLines = dry.stdout.split(separator: "\n").map(String.init)
        #expect(dryLines.first == "Dry run: store \(url) at v4 → v4 ($NOW = \(PostgresHooksCLITests.now))", "\(dry.stdout)")
        #expect(Array(dryLines.dropFirst()) == ["hook rate-favorites (after v4, late): batchUpdate Recipe: 1 object; audit: 0 violations",
                                                "Changed objects:", "  Recipe: 1 updated"])
        #expect(try Self.ratings(schema) == "Soup true 0, Old stew false 0, Untitled false 0")
        #expect(try PostgresTestServer.psql(#"SELECT count(*) FROM "\#(schema)"."strata_hooks" WHERE "id" = 'rate-favorites'"#) == "0")

        let ran = try CLI.run(["migrate", "--run-late-hooks", "--store", url, "--format", "json"], in: project)
        #expect(ran.status == 0, "\(ran.stderr)")
        let json = try CLI.json(ran.stdout)["migration"] as? [String: Any] ?? [:]
        let hooks = json["hooks"] as? [[String: Any]]
        #expect(hooks?.map { "\($0["id"] ?? "") \($0["late"] ?? "") \($0["rowsAffected"] ?? "")" } == ["rate-favorites 1 1"])
        #expect(json["nothingToDo"] as? Bool == false)
        #expect((json["steps"] as? [Any])?.isEmpty == true)
        #expect(try Self.ratings(schema) == "Soup true 3, Old stew false 0, Untitled false 0")
        #expect(try PostgresTestServer.psql(#"""
            SELECT "status" || ' ' || "afterVersion" || ' ' || "modelVersion" || ' ' || "rowsAffected" FROM "\#(schema)"."strata_hooks" WHERE "id" = 'rate-favorites'
            """#) == "applied 4 4 1")

        let again = try CLI.run(["migrate", "--run-late-hooks", "--store", url], in: project)
        #expect(again.status == 0)
        #expect(again.stdout == "Migration: store \(url) is at v4, nothing to do\n")
        #expect(try CLI.run(["status", "--check", "--store", url], in: project).status == 0)
    }

    @Test func lateHooksRunBeforeThePendingStepsOnTheCurrentModel() throws {
        let project = try CLI.exampleProject()
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: project).status == 0)
        _ = try PostgresTestServer.psql(#"INSERT INTO "\#(schema)"."Recipe" ("name", "rating") VALUES ('Soup', 0), ('Stew', 5)"#)
        #expect(try CLI.run(["migrate", "--to", "2", "--store", url], in: project).status == 0)
        // A hook for version 2 (which the store passed) on a field version 2 has: late; the steps to 4 are pending.
        try """
            id: bump-low-ratings
            after: 2
            steps:
              - batchUpdate: { entity: Recipe, predicate: "rating < 3", propertiesToUpdate: { rating: 1 } }
            """.write(toFile: project + "/migrations/bump-low-ratings.yaml", atomically: true, encoding: .utf8)
        let ran = try CLI.run(["migrate", "--run-late-hooks", "--store", url, "--now", PostgresHooksCLITests.now], in: project)
        #expect(ran.status == 0, "\(ran.stderr)")
        // The late hook comes first, before the steps' lines, as on SQLite.
        let lines = ran.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Migration: store \(url) at v2 → v4 ($NOW = \(PostgresHooksCLITests.now))", "\(ran.stdout)")
        let late = lines.firstIndex(of: "hook bump-low-ratings (after v2, late): batchUpdate Recipe: 1 object; audit: 0 violations")
        let step = lines.firstIndex { $0.hasPrefix("v2 → v3") }
        #expect(late != nil && step != nil && late! < step!, "\(ran.stdout)")
        #expect(try PostgresTestServer.psql(#"SELECT string_agg("name" || ' ' || "rating", ', ' ORDER BY "_pk") FROM "\#(schema)"."Recipe""#)
                    == "Soup 1, Stew 5")
        #expect(try PostgresTestServer.psql(#"SELECT "modelVersion" FROM "\#(schema)"."strata_hooks" WHERE "id" = 'bump-low-ratings'"#) == "2")
    }

    @Test func aLateBeforeHookStaysExit6EvenWhenLateHooksAreAskedFor() throws {
        let (project, url, schema) = try Self.storePastAHook()
        try FileManager.default.removeItem(atPath: project + "/migrations/rate-favorites.yaml")
        try """
            id: keep-ratings
            before: 4
            steps:
              - batchUpdate: { entity: Recipe, predicate: "rating < 3", propertiesToUpdate: { rating: 3 } }
            """.write(toFile: project + "/migrations/keep-ratings.yaml", atomically: true, encoding: .utf8)
        let refused = try CLI.run(["migrate", "--run-late-hooks", "--store", url], in: project)
        #expect(refused.status == 6)
        #expect(refused.stderr.hasPrefix("error: late before-hook(s) 'keep-ratings': the store already passed their step by migrating (it is at version 4); they can never run"))
        let check = try CLI.run(["status", "--check", "--store", url], in: project)
        #expect(check.status == 6)
        #expect(check.stdout.contains("; late before-hooks keep-ratings (never run: strata repair --skip ID)\n"), "\(check.stdout)")
        #expect(try Self.ratings(schema) == "Soup true 0, Old stew false 0, Untitled false 0")
        #expect(try PostgresTestServer.psql(#"SELECT count(*) FROM "\#(schema)"."strata_hooks" WHERE "id" = 'keep-ratings'"#) == "0")
    }
}
