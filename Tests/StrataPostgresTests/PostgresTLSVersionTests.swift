import Foundation
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// `ssl_min_protocol_version`, `ssl_max_protocol_version` and `sslpassword`, read as libpq reads them.
@Suite struct PostgresTLSVersionTests {
    @Test func versionsAreLibpqsNamesIgnoringCase() throws {
        let plain = try PostgresStoreURL(parsing: "postgres://app@h/db", environment: [:])
        #expect(plain.sslMinProtocolVersion == .tlsv12 && plain.sslMaxProtocolVersion == nil && plain.sslPassword == nil)
        let given = try PostgresStoreURL(parsing: "postgres://app@h/db?ssl_min_protocol_version=tlsv1.1&ssl_max_protocol_version=TLSv1.2&sslpassword=p",
                                         environment: ["PGSSLMINPROTOCOLVERSION": "TLSv1.3"])
        #expect(given.sslMinProtocolVersion == .tlsv11 && given.sslMaxProtocolVersion == .tlsv12 && given.sslPassword == "p")
        let environment = try PostgresStoreURL(parsing: "postgres://app@h/db", environment: ["PGSSLMINPROTOCOLVERSION": "TLSv1.3", "PGSSLMAXPROTOCOLVERSION": "TLSv1.3"])
        #expect(environment.sslMinProtocolVersion == .tlsv13 && environment.sslMaxProtocolVersion == .tlsv13)
        for (text, environment, reason) in [
            ("postgres://app@h/db?ssl_min_protocol_version=SSLv3", [:], "ssl_min_protocol_version='SSLv3' is not one of TLSv1, TLSv1.1, TLSv1.2, TLSv1.3"),
            ("postgres://app@h/db", ["PGSSLMAXPROTOCOLVERSION": "1.3"], "PGSSLMAXPROTOCOLVERSION='1.3' is not one of TLSv1, TLSv1.1, TLSv1.2, TLSv1.3"),
            ("postgres://app@h/db?ssl_max_protocol_version=TLSv1.1", [:], "ssl_max_protocol_version TLSv1.1 is older than ssl_min_protocol_version TLSv1.2"),
        ] as [(String, [String: String], String)] {
            #expect(throws: PostgresStoreError.invalidURL(url: text, reason: reason)) { try PostgresStoreURL(parsing: text, environment: environment) }
        }
    }
}

/// Against the test server's TLS (a self-signed certificate and a client certificate made by `openssl`).
@Suite(.enabled(if: PostgresTestServer.clientCertificate != nil, "needs PostgreSQL and openssl (certificates)"))
struct PostgresTLSConnectionTests {
    static func connect(_ text: String) async throws(PostgresStoreError) -> PostgresSession {
        let url: PostgresStoreURL
        do { url = try PostgresStoreURL(parsing: text, environment: [:]) } catch { throw error as! PostgresStoreError }
        return try await PostgresSession.connect(url)
    }

    @Test func theTLSVersionsAreTheURLs() async throws {
        let url = PostgresTestServer.url() + "&sslmode=require"
        for (parameters, version) in [("&ssl_max_protocol_version=TLSv1.2", "TLSv1.2"), ("&ssl_min_protocol_version=TLSv1.3", "TLSv1.3")] {
            let session = try await Self.connect(url + parameters)
            #expect(try await session.value("SELECT version FROM pg_stat_ssl WHERE pid = pg_backend_pid()", as: String.self) == version)
            await session.close()
        }
    }

    /// An encrypted client key is decrypted with `sslpassword`; a wrong one is exit 1 before any login.
    @Test func anEncryptedClientKeyIsDecryptedWithSslpassword() async throws {
        let (certificate, key) = try #require(PostgresTestServer.clientCertificate)
        let encrypted = Temporary.directory("pgkey") + "/client.key"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["pkey", "-in", key, "-aes256", "-passout", "pass:s3cret", "-out", encrypted]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        #expect(try String(contentsOfFile: encrypted, encoding: .utf8).contains("ENCRYPTED PRIVATE KEY"))
        let url = PostgresTestServer.url(user: PostgresTestServer.certificateUser) + "&sslmode=require&sslcert=\(certificate)&sslkey=\(encrypted)"
        let session = try await Self.connect(url + "&sslpassword=s3cret")
        #expect(try await session.value("SELECT current_user", as: String.self) == PostgresTestServer.certificateUser)
        await session.close()
        let error = await #expect(throws: PostgresStoreError.self) { try await Self.connect(url + "&sslpassword=wrong") }
        #expect(error?.exitCode == .runtimeFailure)
        #expect(error?.description.contains("cannot set up TLS (sslmode=require, sslcert=\(certificate), sslkey=\(encrypted))") == true, "\(String(describing: error))")
    }
}
