import Foundation
import StrataTestSupport
import Testing

/// libpq's connection options through the real `strata` binary: several hosts tried in order with
/// `target_session_attrs`, a service file, and a URL without a host (libpq's default socket directory).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresHostsCLITests {
    static var port: Int { try! PostgresTestServer.shared.get().port }

    /// A project whose store (schema) is created at version 1 through the TCP URL.
    static func createdStore() throws -> (project: String, schema: String) {
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", PostgresTestServer.url(schema: schema)], in: project)
        #expect(created.status == 0, "\(created.stderr)")
        return (project, schema)
    }

    @Test func aHostThatIsDownIsPassedOverAndNoHostIsExit1NamingEach() throws {
        let (project, schema) = try Self.createdStore()
        let dead = try PostgresTestServer.freePort()
        let url = "postgres://strata@127.0.0.1:\(dead),127.0.0.1:\(Self.port)/postgres?schema=\(schema)&target_session_attrs=read-write"
        let migrated = try CLI.run(["migrate", "--to", "2", "--store", url], in: project)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let status = try CLI.run(["status", "--store", url], in: project)
        #expect(status.stdout.contains("\nversion:  2 (latest model: 4; created at 1)\n"), "\(status.stdout)\(status.stderr)")

        let other = try PostgresTestServer.freePort()
        let none = try CLI.run(["status", "--store", "postgres://strata@127.0.0.1:\(dead),127.0.0.1:\(other)/postgres?schema=\(schema)&sslmode=disable"],
                               in: project)
        #expect(none.status == 1)
        let refused = "failed: Connection refused (is the server running on that host and accepting TCP/IP connections?)"
        #expect(none.stderr == """
            error: cannot connect to postgres://strata@127.0.0.1:\(dead),127.0.0.1:\(other)/postgres?schema=\(schema): \
            no host accepted the connection: 127.0.0.1:\(dead): connection to the server at 127.0.0.1, port \(dead) \(refused); \
            127.0.0.1:\(other): connection to the server at 127.0.0.1, port \(other) \(refused)

            """, "\(none.stderr)")

        // Counts that do not match are exit 2 before connecting.
        let mismatched = try CLI.run(["status", "--store", "postgres://strata@/postgres?host=a,b,c&port=1,2"], in: project)
        #expect(mismatched.status == 2)
        #expect(mismatched.stderr.hasPrefix("""
            error: invalid PostgreSQL store URL 'postgres://strata@/postgres?host=a,b,c&port=1,2': it names 3 hosts (host='a,b,c') \
            and 2 ports (port='1,2'): give one port for all hosts, or one port for each host
            """), "\(mismatched.stderr)")
    }

    @Test func aServiceNamesTheServer() throws {
        let (project, schema) = try Self.createdStore()
        let file = Temporary.directory("pgservice") + "/services.conf"
        try """
            [shop]
            host=127.0.0.1
            port=\(Self.port)
            user=strata
            dbname=postgres
            options=-c statement_timeout=60s

            """.write(toFile: file, atomically: true, encoding: .utf8)
        let byURL = try CLI.run(["status", "--store", "postgres:///?service=shop&schema=\(schema)"], in: project, environment: ["PGSERVICEFILE": file])
        #expect(byURL.status == 0, "\(byURL.stderr)")
        #expect(byURL.stdout.contains("\nversion:  1 (latest model: 4; created at 1)\n"), "\(byURL.stdout)")
        let byEnvironment = try CLI.run(["status", "--store", "postgres:///?schema=\(schema)"], in: project,
                                        environment: ["PGSERVICEFILE": file, "PGSERVICE": "shop"])
        #expect(byEnvironment.status == 0, "\(byEnvironment.stderr)")

        let missing = try CLI.run(["status", "--store", "postgres:///?service=nope"], in: project,
                                  environment: ["PGSERVICEFILE": file, "PGSYSCONFDIR": "/nonexistent"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("error: invalid PostgreSQL store URL 'postgres:///?service=nope': "
                                         + "service 'nope' is not defined in '\(file)' or '/nonexistent/pg_service.conf'\n"), "\(missing.stderr)")
    }

    /// No host: libpq's default socket directory, `/var/run/postgresql` (Debian's) then `/tmp` (upstream's).
    /// The test server's socket is linked into `/tmp` for the run.
    @Test func aURLWithoutAHostUsesTheDefaultSocketDirectory() throws {
        let (project, schema) = try Self.createdStore()
        let link = "/tmp/.s.PGSQL.\(Self.port)"
        try #require(!FileManager.default.fileExists(atPath: "/var/run/postgresql/.s.PGSQL.\(Self.port)"))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: PostgresTestServer.socketDirectory + "/.s.PGSQL.\(Self.port)")
        defer { try? FileManager.default.removeItem(atPath: link) }
        let status = try CLI.run(["status", "--store", "postgres://strata@/postgres?schema=\(schema)"], in: project,
                                 environment: ["PGPORT": String(Self.port)])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\nversion:  1 (latest model: 4; created at 1)\n"), "\(status.stdout)")
        try FileManager.default.removeItem(atPath: link)
        let gone = try CLI.run(["status", "--store", "postgres://strata@/postgres?schema=\(schema)"], in: project,
                               environment: ["PGPORT": String(Self.port)])
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("'/var/run/postgresql/.s.PGSQL.\(Self.port)' failed") && gone.stderr.contains("'/tmp/.s.PGSQL.\(Self.port)' failed"),
                "\(gone.stderr)")
    }
}
