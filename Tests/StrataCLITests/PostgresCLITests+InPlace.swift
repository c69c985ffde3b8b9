import Foundation
import StrataTestSupport
import Testing

/// `strata migrate` on a PostgreSQL store whose step drops a column a user view reads: exit 4 naming the
/// view, nothing written; once the view is gone the step runs in place and keeps the rows.
extension PostgresCLITests {
    @Test(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
    func aViewOnADroppedColumnIsExit4ThenTheStepRunsInPlace() throws {
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        try FileManager.default.removeItem(atPath: project + "/models")
        try FileManager.default.createDirectory(atPath: project + "/models", withIntermediateDirectories: true)
        try "version: 1\nentities:\n  Order:\n    attributes:\n      note: { type: string }\n      total: { type: float }\n"
            .write(toFile: project + "/models/1.yaml", atomically: true, encoding: .utf8)
        try "version: 2\nentities:\n  Order:\n    attributes:\n      total: { type: double }\n"
            .write(toFile: project + "/models/2.yaml", atomically: true, encoding: .utf8)
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: project)
        #expect(created.status == 0, "\(created.stderr)")
        _ = try PostgresTestServer.psql("""
            SET search_path TO "\(schema)";
            INSERT INTO "Order" ("note", "total") VALUES ('gift', 2.5), (NULL, NULL);
            CREATE VIEW gifts AS SELECT "_pk" FROM "Order" WHERE "note" IS NOT NULL;
            """)

        let stopped = try CLI.run(["migrate", "--store", url], in: project)
        #expect(stopped.status == 4)
        #expect(stopped.stderr.contains(#"error: version 1 → 2 drops or changes the type of what user objects depend on: view gifts (on "Order".note)"#))
        #expect(try PostgresTestServer.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.version'") == "1")

        _ = try PostgresTestServer.psql(#"DROP VIEW "\#(schema)".gifts"#)
        let migrated = try CLI.run(["migrate", "--store", url], in: project)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try PostgresTestServer.psql(#"SELECT "_pk" || ' ' || coalesce("total"::text, '-') FROM "\#(schema)"."Order" ORDER BY 1"#) == "1 2.5\n2 -")
        #expect(try PostgresTestServer.psql("""
            SELECT data_type FROM information_schema.columns WHERE table_schema = '\(schema)' AND table_name = 'Order' AND column_name = 'total'
            """) == "double precision")
    }
}
