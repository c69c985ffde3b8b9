import Foundation
import StrataTestSupport
import Testing

/// SPEC §14.2: the migrating role needs USAGE and CREATE on the schema (CREATE on the database to create the
/// schema) and ownership of the managed tables; a missing privilege is exit 1 naming it, before any change.
/// Each test creates its own unprivileged login role on the throwaway server.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresPrivilegeCLITests {
    /// A fresh login role without privileges, and the URL of `schema` as that role.
    static func role(schema: String) throws -> (name: String, url: String) {
        let name = "r_" + UUID().uuidString.prefix(8).lowercased()
        try PostgresTestServer.psql("CREATE ROLE \(name) LOGIN")
        return (name, PostgresTestServer.url(schema: schema).replacingOccurrences(of: "//strata@", with: "//\(name)@"))
    }

    static func project() throws -> String {
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        return project
    }

    @Test func migrateNamesEachMissingPrivilegeAndWritesNothing() throws {
        let project = try Self.project()
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let owner = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--to", "2", "--store", owner], in: project).status == 0)
        let (role, url) = try Self.role(schema: schema)
        let store = url

        let noUsage = try CLI.run(["migrate", "--store", url], in: project)
        #expect(noUsage.status == 1)
        #expect(noUsage.stderr.contains("error: role \"\(role)\" lacks USAGE on schema \"\(schema)\" in \(store); nothing was written"),
                "\(noUsage.stderr)")

        // An application's runtime role: it may read and write rows, not change the schema.
        try PostgresTestServer.psql("GRANT USAGE ON SCHEMA \(schema) TO \(role); "
                                    + "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \(schema) TO \(role)")
        let runtime = try CLI.run(["migrate", "--store", url], in: project)
        #expect(runtime.status == 1)
        let tables = ["Chef", "Ingredient", "Recipe", "strata_history", "strata_hooks", "strata_metadata"]
        #expect(runtime.stderr.contains("error: role \"\(role)\" lacks CREATE on schema \"\(schema)\", "
                                        + tables.map { "ownership of table \"\($0)\" (owned by strata)" }.joined(separator: ", ")
                                        + " in \(store); nothing was written"), "\(runtime.stderr)")
        #expect(runtime.stderr.contains("hint: GRANT CREATE ON SCHEMA \"\(schema)\" TO \"\(role)\"; GRANT \"strata\" TO \"\(role)\", or ALTER TABLE … OWNER TO \"\(role)\""))

        try PostgresTestServer.psql("GRANT CREATE ON SCHEMA \(schema) TO \(role)")
        let notOwner = try CLI.run(["migrate", "--store", url], in: project)
        #expect(notOwner.status == 1)
        #expect(notOwner.stderr.contains("error: role \"\(role)\" lacks ownership of table \"Chef\" (owned by strata), "))
        #expect(try PostgresTestServer.psql("SELECT value FROM \(schema).strata_metadata WHERE key = 'strata.version'") == "2")
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM \(schema).strata_history") == "1")

        // Ownership through membership in the owning role is ownership, as PostgreSQL judges it for ALTER TABLE.
        try PostgresTestServer.psql("GRANT strata TO \(role)")
        let migrated = try CLI.run(["migrate", "--store", url], in: project)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try PostgresTestServer.psql("SELECT value FROM \(schema).strata_metadata WHERE key = 'strata.version'") == "4")
    }

    @Test func createNeedsCreateOnTheDatabaseOrTheSchema() throws {
        let project = try Self.project()
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let (role, url) = try Self.role(schema: schema)

        let noDatabase = try CLI.run(["migrate", "--create", "--store", url], in: project)
        #expect(noDatabase.status == 1)
        #expect(noDatabase.stderr.contains("error: role \"\(role)\" lacks CREATE on database \"postgres\" (to create the schema) in \(url); nothing was written"),
                "\(noDatabase.stderr)")
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM pg_namespace WHERE nspname = '\(schema)'") == "0")

        try PostgresTestServer.psql("CREATE SCHEMA \(schema)")
        let noSchema = try CLI.run(["migrate", "--create", "--store", url], in: project)
        #expect(noSchema.status == 1)
        #expect(noSchema.stderr.contains("error: role \"\(role)\" lacks USAGE on schema \"\(schema)\", CREATE on schema \"\(schema)\" in \(url); nothing was written"),
                "\(noSchema.stderr)")
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM pg_tables WHERE schemaname = '\(schema)'") == "0")

        try PostgresTestServer.psql("GRANT USAGE, CREATE ON SCHEMA \(schema) TO \(role)")
        let created = try CLI.run(["migrate", "--create", "--store", url], in: project)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try PostgresTestServer.psql("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = '\(schema)'") == role)
    }
}
