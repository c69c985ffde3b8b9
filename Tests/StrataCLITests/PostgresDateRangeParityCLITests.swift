import Foundation
import StrataTestSupport
import Testing

/// A date computed past `timestamptz`'s range (4713 BC to 294276 AD) in a comparison: PostgreSQL compares it
/// as an infinity, so the same predicate matches the same rows as on SQLite (which compares the number).
/// Before, `--where 'lastUsed >= $NOW - $DAYS days' --var DAYS=9223372036854775807` matched on SQLite and was
/// exit 3 on PostgreSQL ("PostgreSQL: timestamp out of range … (SQLSTATE 22008)"), nothing written.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresDateRangeParityCLITests {
    @Test func aDurationPastTheRangeMatchesAsOnSQLite() throws {
        let project = try CLI.exampleProject()
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        let path = project + "/app.sqlite"
        for store in [path, url] { #expect(try CLI.run(["migrate", "--create", "--store", store], in: project).status == 0) }
        // r1 used at 1970-01-01, r2 never.
        try E2E.execute(path, "INSERT INTO Recipe (name, lastUsed, rating, favorite) VALUES ('r1', 0, 1, 0), ('r2', NULL, 1, 0)")
        _ = try PostgresTestServer.psql(#"""
            INSERT INTO \#(schema)."Recipe" ("name", "lastUsed", "rating", "favorite") VALUES ('r1', to_timestamp(0), 1, false), ('r2', NULL, 1, false)
            """#)
        let cases: [(predicate: String, days: String, count: String)] = [
            ("lastUsed >= $NOW - $D days", "9223372036854775807", "1"), ("lastUsed > $NOW + $D days", "1000000000", "0"),
            ("lastUsed < $NOW + $D days", "-9223372036854775808", "0"), ("lastUsed + $D days > $NOW", "9223372036854775807", "1"),
            ("lastUsed BETWEEN {$NOW - $D days, $NOW + $D days}", "1000000000", "1"),
        ]
        for (predicate, days, count) in cases {
            for store in [path, url] {
                let result = try CLI.run(["batch", "update", "--entity", "Recipe", "--where", predicate, "--var", "D=" + days,
                                          "--set-expr", "rating=rating + 1", "--store", store], in: project)
                #expect(result.status == 0 && result.stdout == count + "\n", "\(store) \(predicate): \(result.stderr)")
            }
        }
        // r1 matched three times, r2 never, on both engines.
        #expect(try E2E.rows(path, "SELECT name, rating FROM Recipe ORDER BY _pk") == ["r1|4", "r2|1"])
        #expect(try PostgresTestServer.psql(#"SELECT string_agg("name" || '|' || "rating", ',' ORDER BY "_pk") FROM \#(schema)."Recipe""#) == "r1|4,r2|1")
    }
}
