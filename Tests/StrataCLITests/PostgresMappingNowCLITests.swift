import Foundation
import StrataTestSupport
import Testing

/// A mapping file's `$NOW`, `now()` and `--var` values on a PostgreSQL store (SPEC §6, §11.3, §14): the run's
/// `$NOW` (or `--now`), bound, never PostgreSQL's `now()` nor 1970; the same rows as on SQLite.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMappingNowCLITests {
    @Test func nowAndVariablesReachTheMappingOnPostgres() throws {
        let mapping = MappingValuesCLITests.nowMapping + "\n      tag: \"'tag-' + $TAG\"\n"
        let (dir, store) = try MappingProject.project(v1: MappingValuesCLITests.items1, v2: MappingValuesCLITests.items2,
                                                      files: ["map.yaml": mapping], name: "pgmapnow")
        try E2E.execute(store, #"INSERT INTO "Item" ("name", "lastUsed") VALUES ('recent', 1714521600), ('old', 86400)"#)
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", url, "--var", "TAG=x"], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        _ = try PostgresTestServer.psql("""
            SET search_path TO "\(schema)";
            INSERT INTO "Item" ("name", "lastUsed") VALUES ('recent', to_timestamp(1714521600)), ('old', to_timestamp(86400));
            """)
        for store in ["app.sqlite", url] {
            let r = try CLI.run(["migrate", "--store", store, "--now", "2025-01-01T00:00:00Z", "--var", "TAG=x"], in: dir)
            #expect(r.status == 0, "\(store): \(r.stderr)")
        }
        #expect(try E2E.rows(store, #"SELECT "_pk", "name", "migratedAt", "stamp", "tag" FROM "Item" ORDER BY "_pk""#)
                == ["1|recent|1735689600.0|2025-01-01T00:00:00Z|tag-x", "2|old|1735689600.0|2025-01-01T00:00:00Z|tag-x"])
        let rows = try PostgresTestServer.psql("""
            SET search_path TO "\(schema)";
            SELECT "_pk" || '|' || "name" || '|' || extract(epoch FROM "migratedAt")::bigint || '|' || "stamp" || '|' || "tag" FROM "Item" ORDER BY "_pk";
            """).split(separator: "\n").map(String.init).filter { $0 != "SET" }
        #expect(rows == ["1|recent|1735689600|2025-01-01T00:00:00Z|tag-x", "2|old|1735689600|2025-01-01T00:00:00Z|tag-x"])
    }
}
