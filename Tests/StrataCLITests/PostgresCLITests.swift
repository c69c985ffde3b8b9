import Foundation
import StrataTestSupport
import Testing

/// `strata` with `--store postgres://…`: URL errors, the missing-store rule, `migrate --create`, `status`,
/// and the commands not yet supported on PostgreSQL (exit 2, nothing written).
@Suite struct PostgresCLITests {
    @Test(arguments: [
        ("postgres://localhost/shop", "it names no user (postgres://USER@HOST/DATABASE)"),
        ("postgresql://app@localhost/shop?sslmode=off", "sslmode='off' is not one of disable, prefer, require, verify-ca, verify-full"),
        ("postgresql://app@localhost/shop?ssl=true", "unknown parameter 'ssl' (the parameters are schema, sslmode and sslrootcert)"),
    ])
    func invalidURLsAreExit2(url: String, reason: String) throws {
        let project = try CLI.exampleProject()
        for command in ["migrate", "status", "history"] {
            let result = try CLI.run([command, "--store", url], in: project)
            #expect(result.status == 2)
            #expect(result.stderr.contains("error: invalid PostgreSQL store URL '\(url)': \(reason)"))
        }
    }

    @Test func otherCommandsSayTheyAreNotYetSupported() throws {
        let project = try CLI.exampleProject()
        for command in [["repair"], ["adopt", "--version", "1"]] {
            let result = try CLI.run(command + ["--store", "postgres://app@127.0.0.1:1/db"], in: project)
            #expect(result.status == 2)
            #expect(result.stderr.contains("error: this command on a PostgreSQL store is not yet supported on PostgreSQL; nothing was written"))
        }
        let backup = try CLI.run(["migrate", "--backup", "b.sqlite", "--store", "postgres://app@127.0.0.1:1/db"], in: project)
        #expect(backup.status == 2)
        #expect(backup.stderr.contains("error: migrate --backup is not yet supported on PostgreSQL"))
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
    func migrateCreateThenStatusThenMigrate() throws {
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        let url = PostgresTestServer.url()
        let missing = try CLI.run(["migrate", "--store", url], in: project)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("the schema has no strata_ tables"))
        #expect(missing.stderr.contains("pass --create"))

        let created = try CLI.run(["migrate", "--create", "--to", "2", "--store", url], in: project)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.hasPrefix("Migration: created store postgres://strata@127.0.0.1:"), "\(created.stdout)")
        #expect(created.stdout.contains(" at v2 (UUID "), "\(created.stdout)")

        let status = try CLI.run(["status", "--check", "--store", url], in: project)
        #expect(status.status == 7)
        #expect(status.stdout.contains("version:  2 (latest model: 4; created at 2)"))
        #expect(status.stdout.contains("pending:  versions 3, 4; no hooks"))

        let migrated = try CLI.run(["migrate", "--store", url, "--format", "json"], in: project)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let json = try CLI.json(migrated.stdout)
        #expect(json["schemaVersion"] as? Int == 1)
        let migration = json["migration"] as? [String: Any] ?? [:]
        #expect(migration["toVersion"] as? Int == 4)
        #expect((migration["steps"] as? [[String: Any]])?.map { $0["toVersion"] as? Int } == [3, 4])

        let done = try CLI.run(["status", "--check", "--store", url], in: project)
        #expect(done.status == 0)
        #expect(done.stdout.contains("pending:  no versions; no hooks"))
    }
}
