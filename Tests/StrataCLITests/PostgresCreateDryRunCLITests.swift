import Foundation
import StrataTestSupport
import Testing

/// `migrate --create --dry-run` on PostgreSQL, through the real `strata` binary: the creation (schema
/// included) runs in one transaction that is rolled back, so it reports what the real run would do and fails
/// as it would, writing nothing.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresCreateDryRunCLITests {
    static func objects(in schema: String) throws -> String {
        try PostgresTestServer.psql("""
            SELECT count(*) || ' ' || coalesce(string_agg(c.relname, ',' ORDER BY c.relname), '') FROM pg_class AS c \
            JOIN pg_namespace AS n ON n.oid = c.relnamespace WHERE n.nspname = '\(schema)' AND c.relkind = 'r'
            """)
    }

    @Test func aDryRunCreationReportsAndLeavesNoSchema() throws {
        let project = try CLI.exampleProject()
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        let dry = try CLI.run(["migrate", "--create", "--dry-run", "--store", url], in: project)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout == "Dry run: would create store \(url) at v4\nHooks recorded as not needed: purge-abandoned-drafts, favorite-recent-recipes\n")
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM pg_namespace WHERE nspname = '\(schema)'") == "0")

        let json = try CLI.run(["migrate", "--create", "--dry-run", "--to", "2", "--store", url, "--format", "json"], in: project)
        #expect(json.status == 0, "\(json.stderr)")
        let document = try CLI.json(json.stdout)["migration"] as? [String: Any] ?? [:]
        #expect(document["created"] as? Bool == true)
        #expect(document["dryRun"] as? Bool == true)
        #expect(document["toVersion"] as? Int == 2)
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM pg_namespace WHERE nspname = '\(schema)'") == "0")

        // The real creation still works, and a dry run on the store it made is a dry run of a migration.
        #expect(try CLI.run(["migrate", "--create", "--to", "3", "--store", url], in: project).status == 0)
        let existing = try CLI.run(["migrate", "--create", "--dry-run", "--store", url], in: project)
        #expect(existing.status == 0, "\(existing.stderr)")
        #expect(existing.stdout.hasPrefix("Dry run: store \(url) at v3 → v4 ($NOW = "), "\(existing.stdout)")
        #expect(try PostgresTestServer.psql(#"SELECT "value" FROM "\#(schema)"."strata_metadata" WHERE "key" = 'strata.version'"#) == "3")
    }

    @Test func aDryRunCreationFailsAsTheRealOneWouldAndWritesNothing() throws {
        let project = try CLI.exampleProject()
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        _ = try PostgresTestServer.psql(#"CREATE SCHEMA "\#(schema)"; CREATE TABLE "\#(schema)"."Recipe" ("x" integer)"#)
        let dry = try CLI.run(["migrate", "--create", "--dry-run", "--store", url], in: project)
        #expect(dry.status == 2)
        #expect(dry.stderr.contains("error: cannot create a store in \(url): the schema already has table(s) Recipe"))
        #expect(dry.stdout.isEmpty)
        #expect(try Self.objects(in: schema) == "1 Recipe")
        let real = try CLI.run(["migrate", "--create", "--store", url], in: project)
        #expect(real.status == 2)
        #expect(real.stderr == dry.stderr)
    }
}
