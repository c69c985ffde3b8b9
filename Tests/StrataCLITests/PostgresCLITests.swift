import Foundation
import StrataTestSupport
import Testing

/// `strata` with `--store postgres://…`: URL errors, the missing-store rule, `migrate --create`, `status`,
/// `migrate --backup` refused on PostgreSQL (exit 2, nothing written).
@Suite struct PostgresCLITests {
    @Test(arguments: [
        ("postgres://localhost/shop", "it names no user (postgres://USER@HOST/DATABASE)"),
        ("postgresql://app@localhost/shop?sslmode=off", "sslmode='off' is not one of disable, allow, prefer, require, verify-ca, verify-full"),
        ("postgresql://app@localhost/shop?ssl=1", "unknown parameter 'ssl' (the parameters are schema, service, user, password, passfile, dbname, "
         + "host, port, connect_timeout, options, sslmode, sslrootcert, sslcert, sslkey, sslpassword, ssl_min_protocol_version, ssl_max_protocol_version, "
         + "target_session_attrs, load_balance_hosts, "
         + "gssencmode, channel_binding, sslnegotiation and sslcertmode)"),
        ("postgres://app@localhost/shop?application_name=deploy",
         "application_name= cannot be set: Strata names its sessions 'strata <version> pid@host', the name a run that finds the store busy quotes"),
        ("postgres://app@localhost/shop?connect_timeout=5s", "connect_timeout='5s' is not a whole number of seconds"),
    ])
    func invalidURLsAreExit2(url: String, reason: String) throws {
        let project = try CLI.exampleProject()
        for command in ["migrate", "status", "history"] {
            let result = try CLI.run([command, "--store", url], in: project)
            #expect(result.status == 2)
            #expect(result.stderr.contains("error: invalid PostgreSQL store URL '\(url)': \(reason)"))
        }
    }

    @Test func backupIsRefusedBeforeConnectingAndAdoptAndRepairConnect() throws {
        let project = try CLI.exampleProject()
        let unreachable = "postgres://app@127.0.0.1:1/db"
        for command in [["repair"], ["adopt", "--version", "1"]] {
            let result = try CLI.run(command + ["--store", unreachable], in: project)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("error: cannot connect to \(unreachable)?schema=public: "), "\(result.stderr)")
        }
        // Refused before any connection: the unreachable server is never tried (Docs/postgresql.md, "Backups").
        let backup = try CLI.run(["migrate", "--backup", "b.sqlite", "--store", unreachable], in: project)
        #expect(backup.status == 2)
        #expect(backup.stderr == """
            error: migrate --backup is not available on a PostgreSQL store: each step commits in one transaction with its hooks, \
            so a step that fails leaves the schema at the version before it; nothing was written
            hint: for a copy before migrating, run pg_dump --schema=NAME first (see "Backups" in Docs/postgresql.md), then migrate without --backup

            """)
        #expect(!FileManager.default.fileExists(atPath: project + "/b.sqlite"))
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
