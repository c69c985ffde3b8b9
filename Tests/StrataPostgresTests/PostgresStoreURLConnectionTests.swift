import Foundation
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// How a store URL says where and how long to connect: a Unix-domain socket directory as the host (libpq's
/// three spellings), `connect_timeout`/`PGCONNECT_TIMEOUT`, and `application_name`, which Strata keeps.
@Suite struct PostgresStoreURLConnectionTests {
    /// `host=`, a percent-encoded host and `PGHOST`, each a directory: the socket is `<dir>/.s.PGSQL.<port>`.
    @Test func aDirectoryAsTheHostIsAUnixDomainSocket() throws {
        let parameter = try PostgresStoreURL(parsing: "postgres://app@/shop?host=/var/run/postgresql&schema=inv", environment: [:])
        #expect(parameter.host == "/var/run/postgresql" && parameter.port == 5432 && parameter.isUnixSocket)
        #expect(parameter.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
        #expect(parameter.description == "postgres://app@%2Fvar%2Frun%2Fpostgresql:5432/shop?schema=inv")

        let encoded = try PostgresStoreURL(parsing: "postgresql://app@%2Ftmp%2Fpg:6543/shop", environment: ["PGPORT": "7000"])
        #expect(encoded.host == "/tmp/pg" && encoded.socketPath == "/tmp/pg/.s.PGSQL.6543")
        // The description is itself a URL naming the same socket.
        #expect(try PostgresStoreURL(parsing: encoded.description, environment: [:]) == encoded)

        let environment = try PostgresStoreURL(parsing: "postgres:///shop", environment: ["PGHOST": "/run/pg/", "PGUSER": "app", "PGPORT": "6000"])
        #expect(environment.socketPath == "/run/pg/.s.PGSQL.6000")
        #expect(try PostgresStoreURL(parsing: "postgres:///shop?host=/var/run/postgresql", environment: ["PGHOST": "db", "PGUSER": "app"]).isUnixSocket)

        // host= wins over the URL's host, as in libpq; a TCP host there is a TCP host.
        let tcp = try PostgresStoreURL(parsing: "postgres://app@%2Ftmp/shop?host=db.internal", environment: [:])
        #expect(tcp.host == "db.internal" && !tcp.isUnixSocket && tcp.socketPath == nil)
        #expect(throws: PostgresStoreError.invalidURL(url: "postgres://app@/shop?host=", reason: "host= names no host")) {
            try PostgresStoreURL(parsing: "postgres://app@/shop?host=", environment: [:])
        }
        // The system's limit on a socket path (107 bytes on Linux) is exit 2 before connecting.
        let long = "/" + String(repeating: "d", count: PostgresStoreURL.maximumSocketPathBytes - 15)
        #expect(try PostgresStoreURL(parsing: "postgres://app@/shop?host=" + long, environment: [:]).socketPath?.utf8.count == PostgresStoreURL.maximumSocketPathBytes)
        #expect(throws: PostgresStoreError.invalidURL(url: "postgres://app@/shop?host=\(long)d", reason: "the Unix-domain socket path '\(long)d/.s.PGSQL.5432' is longer than \(PostgresStoreURL.maximumSocketPathBytes) bytes, the most the system takes")) {
            try PostgresStoreURL(parsing: "postgres://app@/shop?host=\(long)d", environment: [:])
        }
    }

    /// libpq: values below 2 are 2; 0, negative or absent is no timeout of the URL's (Strata's default, 10 s).
    @Test(arguments: [("5", 5), ("2", 2), ("1", 2), (" 7 ", 7), ("0", nil), ("-3", nil)] as [(String, Int?)])
    func connectTimeoutIsSecondsAsLibpqReadsThem(value: String, seconds: Int?) throws {
        let given = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-")))!
        #expect(try PostgresStoreURL(parsing: "postgres://app@db/shop?connect_timeout=\(given)", environment: [:]).connectTimeout == seconds)
        #expect(try PostgresStoreURL(parsing: "postgres://app@db/shop", environment: ["PGCONNECT_TIMEOUT": value]).connectTimeout == seconds)
    }

    @Test func connectTimeoutFromTheURLWinsAndBadValuesAreRefused() throws {
        #expect(PostgresStoreURL.defaultConnectTimeout == 10)
        #expect(try PostgresStoreURL(parsing: "postgres://app@db/shop", environment: [:]).connectTimeout == nil)
        #expect(try PostgresStoreURL(parsing: "postgres://app@db/shop?connect_timeout=4", environment: ["PGCONNECT_TIMEOUT": "9"]).connectTimeout == 4)
        #expect(try PostgresStoreURL(parsing: "postgres://app@db/shop", environment: ["PGCONNECT_TIMEOUT": ""]).connectTimeout == nil)
        for (text, environment, reason) in [
            ("postgres://app@db/shop?connect_timeout=2.5", [:], "connect_timeout='2.5' is not a whole number of seconds"),
            ("postgres://app@db/shop?connect_timeout=ten", [:], "connect_timeout='ten' is not a whole number of seconds"),
            ("postgres://app@db/shop?connect_timeout=99999999999", [:], "connect_timeout='99999999999' is not a whole number of seconds"),
            ("postgres://app@db/shop?connect_timeout=", [:], "connect_timeout= names no number of seconds"),
            ("postgres://app@db/shop", ["PGCONNECT_TIMEOUT": "5s"], "PGCONNECT_TIMEOUT='5s' is not a whole number of seconds"),
        ] as [(String, [String: String], String)] {
            let error = #expect(throws: PostgresStoreError.self) { try PostgresStoreURL(parsing: text, environment: environment) }
            #expect(error == .invalidURL(url: text, reason: reason))
            #expect(error?.exitCode == .invalidInput)
        }
    }

    /// SPEC §14.2: every Strata session is `strata <version> pid@host`, the name the busy message quotes, so a
    /// URL's own name is refused (exit 2); `PGAPPNAME` is not read.
    @Test func applicationNameIsRefusedAndPGAPPNAMEIgnored() throws {
        let text = "postgres://app@db/shop?application_name=deploy"
        let error = #expect(throws: PostgresStoreError.self) { try PostgresStoreURL(parsing: text, environment: [:]) }
        #expect(error == .invalidURL(url: text, reason: "application_name= cannot be set: Strata names its sessions 'strata <version> pid@host', the name a run that finds the store busy quotes"))
        #expect(error?.exitCode == .invalidInput)
        #expect(try PostgresStoreURL(parsing: "postgres://app@db/shop", environment: ["PGAPPNAME": "deploy"]) == PostgresStoreURL(parsing: "postgres://app@db/shop", environment: [:]))
    }

    /// libpq's password file: a socket connection matches its directory, libpq's default socket directory matches `localhost`.
    @Test func thePasswordFileMatchesASocketByItsDirectoryOrAsLocalhost() throws {
        let file = Temporary.directory("pgpass") + "/pgpass"
        try "/srv/pg:5432:shop:app:by-directory\nlocalhost:5432:shop:app:local\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let environment = ["PGPASSFILE": file]
        #expect(try PostgresStoreURL(parsing: "postgres://app@/shop?host=/srv/pg", environment: environment).password == "by-directory")
        #expect(try PostgresStoreURL(parsing: "postgres://app@/shop?host=/var/run/postgresql", environment: environment).password == "local")
        #expect(try PostgresStoreURL(parsing: "postgres://app@%2Ftmp/shop", environment: environment).password == "local")
        #expect(try PostgresStoreURL(parsing: "postgres://app@/shop?host=/other", environment: environment).password == nil)
    }
}

/// The library's open call takes the same URLs as `--store`: migrate on open through the test server's socket.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresSocketLibraryTests {
    @Test func openMigratesThroughTheUnixDomainSocket() async throws {
        let url = try PostgresStoreURL(parsing: PostgresTestServer.socketURL() + "&connect_timeout=5")
        #expect(url.socketPath == PostgresTestServer.socketDirectory + "/.s.PGSQL.\(url.port)" && url.connectTimeout == 5)
        let (models, hooks) = (ProjectSource.yaml(PostgresLibraryTests.models), ProjectSource.yaml(PostgresLibraryTests.hooks))
        let created = try await PostgresStore.open(url, models: models, hooks: hooks, options: PostgresLibraryTests.options(target: 1))
        #expect(created.migration?.created == true && created.migration?.toVersion == 1)
        await created.close()
        let store = try await PostgresStore.open(url, models: models, hooks: hooks, options: PostgresLibraryTests.options(target: nil))
        #expect(store.migration?.fromVersion == 1 && store.migration?.toVersion == 2 && store.migration?.hooks.map(\.id) == ["seed"])
        #expect(try await store.fetchAll("Item").count == 5)
        await store.close()
    }
}
