import Foundation

/// A throwaway PostgreSQL cluster for the tests of PostgreSQL stores, started on first use and stopped and
/// removed when the test process exits.
///
/// `initdb` into a temporary directory (as the `postgres` user when the tests run as root, since initdb
/// refuses root), trust authentication for the superuser `strata`, `pg_ctl start` on a free loopback port
/// with its socket in the same directory. Each test takes its own schema (``url(schema:)``), so tests run in
/// parallel on one server. When no server can start (no PostgreSQL installed), ``unavailableReason`` says
/// why, the PostgreSQL tests are skipped, and the reason is printed once on stderr.
public enum PostgresTestServer {
    public struct Server: Sendable {
        public let port: Int
        public let user = "strata"
        public let database = "postgres"
        let directory: String
        /// The server's self-signed certificate (PEM, for 127.0.0.1), when `openssl` could make one: the
        /// server then accepts TLS, and a test can name the file as `sslrootcert=`.
        public let certificate: String?
        /// A client certificate and key (PEM) for the role ``certificateUser``, signed by ``certificate``:
        /// that role logs in over TLS with it only (pg_hba `cert`). Nil without `openssl`.
        public let clientCertificate: (certificate: String, key: String)?
    }

    /// A superuser that may log in only over TLS (pg_hba: `hostnossl … reject`), for `sslmode=allow`.
    public static let tlsOnlyUser = "strata_tls_only"
    /// A superuser that logs in only with the client certificate ``Server/clientCertificate``.
    public static let certificateUser = "strata_cert"

    /// The running server, or why there is none.
    public static let shared: Result<Server, StartFailure> = {
        let result = Result { try start() }.mapError { ($0 as? StartFailure) ?? StartFailure(reason: "\($0)") }
        if case .failure(let failure) = result {
            FileHandle.standardError.write(Data("""

                ⚠️  PostgreSQL tests SKIPPED: \(failure.reason)
                    (install PostgreSQL 13 or later: initdb and pg_ctl on PATH or under /usr/lib/postgresql/*/bin)

                """.utf8))
        }
        return result
    }()

    public struct StartFailure: Error, Sendable { public let reason: String }

    public static var isAvailable: Bool { (try? shared.get()) != nil }

    /// The running server's certificate file (see ``Server/certificate``), or nil.
    public static var certificate: String? { (try? shared.get())?.certificate }

    /// The client certificate of ``certificateUser`` (see ``Server/clientCertificate``), or nil.
    public static var clientCertificate: (certificate: String, key: String)? { (try? shared.get())?.clientCertificate }

    /// ``url(schema:)`` logging in as `user`.
    public static func url(user: String, schema: String = "t_" + UUID().uuidString.prefix(8).lowercased()) -> String {
        url(schema: schema).replacingOccurrences(of: "postgres://strata@", with: "postgres://\(user)@")
    }

    public static var unavailableReason: String {
        if case .failure(let failure) = shared { return failure.reason }
        return ""
    }

    /// A new schema name, unique in this process, and the store URL naming it.
    public static func url(schema: String = "t_" + UUID().uuidString.prefix(8).lowercased()) -> String {
        let server = try! shared.get()
        return "postgres://\(server.user)@127.0.0.1:\(server.port)/\(server.database)?schema=\(schema)"
    }

    /// The directory of the server's Unix-domain socket (`.s.PGSQL.<port>`; pg_hba's `local` lines trust every role).
    public static var socketDirectory: String { try! shared.get().directory }

    /// ``url(schema:)`` through the server's Unix-domain socket: its directory percent-encoded as the host.
    public static func socketURL(schema: String = "t_" + UUID().uuidString.prefix(8).lowercased()) -> String {
        let server = try! shared.get()
        let host = server.directory.replacingOccurrences(of: "/", with: "%2F")
        return "postgres://\(server.user)@\(host):\(server.port)/\(server.database)?schema=\(schema)"
    }

    /// Runs `psql -c sql` against the server (for setting up and inspecting stores), returning its unaligned output.
    public static func psql(_ sql: String) throws -> String {
        let server = try shared.get()
        let result = try run(tool("psql"), ["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(server.port),
                                            "-U", server.user, "-d", server.database, "-c", sql])
        guard result.status == 0 else { throw StartFailure(reason: "psql failed: \(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: starting and stopping

    nonisolated(unsafe) private static var cleanup: (pgCtl: String, directory: String, asPostgres: Bool)?

    private static func start() throws -> Server {
        let initdb = tool("initdb"), pgCtl = tool("pg_ctl")
        guard FileManager.default.isExecutableFile(atPath: initdb), FileManager.default.isExecutableFile(atPath: pgCtl) else {
            throw StartFailure(reason: "initdb or pg_ctl not found")
        }
        let asPostgres = geteuid() == 0
        let directory = "/tmp/strata-pg-\(getpid())-" + UUID().uuidString.prefix(8)
        let data = directory + "/data"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        if asPostgres { _ = try run("/bin/chown", ["postgres:", directory]) }
        let initialized = try run(initdb, ["-D", data, "-U", "strata", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
                                  asPostgres: asPostgres)
        guard initialized.status == 0 else { throw StartFailure(reason: "initdb failed: \(initialized.output)") }
        let port = try freePort()
        // Swift Testing runs the suites in parallel, and each test's `strata` processes, fleets (--jobs) and
        // lock-holding sessions connect at once: 50 connections ran out once the fleet and library suites came.
        var options = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=250"
        let certificate = try makeCertificate(data: data, directory: directory, asPostgres: asPostgres)
        let clientCertificate = certificate == nil ? nil : try makeClientCertificate(data: data, directory: directory, asPostgres: asPostgres)
        if certificate != nil { options += " -c ssl=on" }
        if clientCertificate != nil {
            // The server's certificate is also the authority of client certificates; pg_hba.conf's first
            // matching line wins, so these go in front of initdb's `trust` lines.
            options += " -c ssl_ca_file=server.crt"
            let lines = ["hostnossl all \(tlsOnlyUser) 127.0.0.1/32 reject", "hostssl all \(certificateUser) 127.0.0.1/32 cert",
                         "host all \(certificateUser) 127.0.0.1/32 reject"]
            let hba = data + "/pg_hba.conf"
            let script = #"{ printf '%s\n' "$@"; cat "$0"; } > "$0.new" && mv "$0.new" "$0""#
            guard try run("/bin/sh", ["-c", script, hba] + lines, asPostgres: asPostgres).status == 0 else {
                throw StartFailure(reason: "cannot write \(hba)")
            }
        }
        let started = try run(pgCtl, ["-D", data, "-o", options, "-l", directory + "/server.log", "-w", "-t", "60", "start"],
                              asPostgres: asPostgres)
        guard started.status == 0 else {
            let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
            throw StartFailure(reason: "pg_ctl start failed: \(started.output) \(log)")
        }
        cleanup = (pgCtl, directory, asPostgres)
        if clientCertificate != nil {
            let created = try run(tool("psql"), ["-X", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port), "-U", "strata",
                                                 "-d", "postgres", "-c", "CREATE ROLE \(tlsOnlyUser) LOGIN SUPERUSER; CREATE ROLE \(certificateUser) LOGIN SUPERUSER"])
            guard created.status == 0 else { throw StartFailure(reason: "cannot create the TLS roles: \(created.output)") }
        }
        atexit {
            guard let (pgCtl, directory, asPostgres) = PostgresTestServer.cleanup else { return }
            _ = try? PostgresTestServer.run(pgCtl, ["-D", directory + "/data", "-m", "immediate", "-w", "stop"], asPostgres: asPostgres)
            try? FileManager.default.removeItem(atPath: directory)
        }
        return Server(port: port, directory: directory, certificate: certificate, clientCertificate: clientCertificate)
    }

    /// A self-signed certificate and key for `127.0.0.1` in the data directory (`server.crt`, `server.key`,
    /// where `ssl=on` looks), and a copy of the certificate readable by the tests; nil without `openssl`.
    private static func makeCertificate(data: String, directory: String, asPostgres: Bool) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else { return nil }
        let made = try run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                                 "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                                                 "-keyout", data + "/server.key", "-out", data + "/server.crt"], asPostgres: asPostgres)
        guard made.status == 0, try run("/bin/chmod", ["600", data + "/server.key"], asPostgres: asPostgres).status == 0 else { return nil }
        let copy = directory + "/ca.pem"
        guard try run("/bin/cp", [data + "/server.crt", copy], asPostgres: asPostgres).status == 0 else { return nil }
        return copy
    }

    /// A key and a certificate for ``certificateUser`` signed with the server's key, readable by the tests.
    private static func makeClientCertificate(data: String, directory: String, asPostgres: Bool) throws -> (certificate: String, key: String)? {
        let key = directory + "/client.key", request = directory + "/client.csr", certificate = directory + "/client.crt"
        let requested = try run("/usr/bin/openssl", ["req", "-new", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(certificateUser)",
                                                      "-keyout", key, "-out", request], asPostgres: asPostgres)
        guard requested.status == 0 else { return nil }
        let signed = try run("/usr/bin/openssl", ["x509", "-req", "-in", request, "-CA", data + "/server.crt", "-CAkey", data + "/server.key",
                                                   "-CAcreateserial", "-CAserial", directory + "/ca.srl", "-days", "2", "-out", certificate],
                             asPostgres: asPostgres)
        guard signed.status == 0, try run("/bin/chmod", ["644", key, certificate], asPostgres: asPostgres).status == 0 else { return nil }
        return (certificate, key)
    }

    /// A PostgreSQL program: from `PATH`, else the newest `/usr/lib/postgresql/*/bin`.
    static func tool(_ name: String) -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
        if let found = path.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted()
        return versions.last.map { "/usr/lib/postgresql/\($0)/bin/\(name)" } ?? name
    }

    /// A loopback port nothing listens on now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw StartFailure(reason: "no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a program (as `postgres` through runuser when asked, from `/tmp`) and returns its status and output.
    ///
    /// Spawned and waited for with `posix_spawn`/`waitpid`, output through a file: `pg_ctl start` leaves the
    /// server running with every descriptor it inherited, so neither a pipe's end nor Foundation's `Process`
    /// (which watches a descriptor the child holds) would see it finish.
    static func run(_ program: String, _ arguments: [String], asPostgres: Bool = false) throws -> (status: Int32, output: String) {
        let outputPath = NSTemporaryDirectory() + "strata-pg-output-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let command = (asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [program] + arguments
        let argv = ["/bin/sh", "-c", #"cd /tmp && exec "$@""#, "sh"] + command
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw StartFailure(reason: "cannot run \(program): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS, which Swift does not import: a signal is reported as 128 + its number.
        return (status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), text)
    }
}
