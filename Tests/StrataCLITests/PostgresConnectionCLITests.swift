import Foundation
import StrataTestSupport
import Testing

/// Connecting through the server's Unix-domain socket (libpq's three spellings of a socket directory), and
/// `connect_timeout` against a server that never answers, through the real `strata` binary.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresConnectionCLITests {
    /// migrate and status over the socket: a percent-encoded host, `host=` with `PGPORT`, and `PGHOST`; `sslmode`
    /// does not apply there (as libpq), so `require` connects without TLS.
    @Test func migrateAndStatusOverTheUnixDomainSocket() throws {
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let encoded = PostgresTestServer.socketURL(schema: schema)
        let directory = PostgresTestServer.socketDirectory
        let port = String(try PostgresTestServer.shared.get().port)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", encoded], in: project)
        #expect(created.status == 0, "\(created.stderr)")

        let parameter = "postgres://strata@/postgres?host=\(directory)&schema=\(schema)&sslmode=require"
        let status = try CLI.run(["status", "--store", parameter], in: project, environment: ["PGPORT": port])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\nversion:  1 (latest model: 4; created at 1)\n"), "\(status.stdout)")

        let environment = ["PGHOST": directory, "PGPORT": port, "PGUSER": "strata", "PGDATABASE": "postgres"]
        let migrated = try CLI.run(["migrate", "--store", "postgres:///?schema=\(schema)"], in: project, environment: environment)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let latest = try CLI.run(["status", "--store", "postgres:///?schema=\(schema)"], in: project, environment: environment)
        #expect(latest.stdout.contains("\nversion:  4 (latest model: 4; created at 1)\n"), "\(latest.stdout)")
        #expect(try PostgresTestServer.psql(#"SELECT "value" FROM "\#(schema)"."strata_metadata" WHERE "key" = 'strata.version'"#) == "4")

        // A fleet list takes the same URLs.
        try [encoded, "postgresql://strata@/postgres?host=\(directory)&schema=\(schema)"].joined(separator: "\n")
            .write(toFile: project + "/stores.txt", atomically: true, encoding: .utf8)
        let fleet = try CLI.run(["status", "--stores-from", "stores.txt", "--check"], in: project, environment: ["PGPORT": port])
        #expect(fleet.status == 0, "\(fleet.stdout)\(fleet.stderr)")
        #expect(fleet.stdout.contains(encoded), "\(fleet.stdout)")
    }

    /// A socket directory where no server listens: exit 1 naming the socket file, as libpq does.
    @Test func aSocketDirectoryWithoutAServerIsExit1NamingTheSocket() throws {
        let project = try CLI.exampleProject()
        // A short path: a socket path longer than 107 bytes is refused before connecting (exit 2).
        let directory = "/tmp/strata-nosocket-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = "postgres://strata@/postgres?host=\(directory)&schema=app"
        let result = try CLI.run(["status", "--store", url], in: project)
        #expect(result.status == 1)
        let shown = "postgres://strata@\(directory.replacingOccurrences(of: "/", with: "%2F")):5432/postgres?schema=app"
        #expect(result.stderr == """
            error: cannot connect to \(shown): connection to the server on the Unix-domain socket '\(directory)/.s.PGSQL.5432' \
            failed: No such file or directory (is the server running there and accepting connections on that socket?)

            """, "\(result.stderr)")
    }
}

/// `connect_timeout`: a server that accepts the connection but never answers is exit 1 naming the timeout,
/// once the timeout has run out (libpq's minimum, 2 seconds), whether the URL or `PGCONNECT_TIMEOUT` gives it.
@Suite struct PostgresConnectTimeoutCLITests {
    /// A loopback port that accepts connections (the kernel completes them) and never reads or answers.
    final class SilentListener {
        let fd: Int32
        let port: Int

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.fd = fd
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            try #require(bound && listen(fd, 16) == 0)
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }
    }

    @Test(arguments: [("?connect_timeout=1", [:]), ("", ["PGCONNECT_TIMEOUT": "2"])] as [(String, [String: String])])
    func aServerThatNeverAnswersTimesOut(parameter: String, environment: [String: String]) throws {
        let listener = try SilentListener()
        let project = try CLI.exampleProject()
        let url = "postgres://strata@127.0.0.1:\(listener.port)/postgres"
        let started = Date()
        let result = try CLI.run(["status", "--store", url + parameter], in: project, environment: environment)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 1)
        #expect(result.stderr == """
            error: cannot connect to \(url)?schema=public: the server did not answer within 2 seconds (connect_timeout=2)

            """, "\(result.stderr)")
        #expect(elapsed >= 2 && elapsed < 8, "\(elapsed)")
        withExtendedLifetime(listener) {}
    }
}
