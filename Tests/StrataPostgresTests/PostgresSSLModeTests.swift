import Foundation
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// `sslmode=` and `sslrootcert=` in the store URL (libpq's meaning, default `prefer`), and the TLS setting
/// each gives PostgresNIO.
@Suite struct PostgresSSLModeTests {
    @Test(arguments: [
        ("postgres://app@db/shop", PostgresSSLMode.prefer),
        ("postgres://app@db/shop?sslmode=disable", .disable),
        ("postgres://app@db/shop?sslmode=allow", .allow),
        ("postgres://app@db/shop?sslmode=prefer&schema=s", .prefer),
        ("postgres://app@db/shop?sslmode=require", .require),
        ("postgres://app@db/shop?schema=s&sslmode=verify-ca", .verifyCA),
        ("postgres://app@db/shop?sslmode=verify-full", .verifyFull),
    ])
    func parsesTheModeAndMapsItToPostgresNIO(text: String, mode: PostgresSSLMode) throws {
        let url = try PostgresStoreURL(parsing: text, environment: [:])
        #expect(url.sslMode == mode)
        #expect(url.sslRootCert == nil)
        let tls = try PostgresSession.tls(for: url)
        #expect(tls.isAllowed == (mode != .disable))
        // allow's TLS is its second attempt's, after a refused plain login.
        #expect(tls.isEnforced == (mode != .disable && mode != .prefer))
    }

    @Test func theDescriptionLeavesTheTLSParametersOut() throws {
        let url = try PostgresStoreURL(parsing: "postgres://app@db:5433/shop?sslmode=require&schema=s", environment: [:])
        #expect(url.description == "postgres://app@db:5433/shop?schema=s")
    }

    @Test func aRootCertificateFileThatCannotBeReadIsAConnectionError() throws {
        let url = try PostgresStoreURL(parsing: "postgres://app@db/shop?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem",
                                       environment: [:])
        #expect(url.sslRootCert == "/nonexistent/ca.pem")
        let error = #expect(throws: PostgresStoreError.self) { try PostgresSession.tls(for: url) }
        #expect(error?.exitCode == .runtimeFailure)
        #expect(error?.description
                == "error: cannot connect to postgres://app@db:5432/shop?schema=public: cannot read the sslrootcert file '/nonexistent/ca.pem'")
        let notPEM = Temporary.directory("tls") + "/ca.pem"
        try "not a certificate".write(toFile: notPEM, atomically: true, encoding: .utf8)
        let garbage = #expect(throws: PostgresStoreError.self) {
            try PostgresSession.tls(for: try PostgresStoreURL(parsing: "postgres://app@db/shop?sslmode=verify-ca&sslrootcert=" + notPEM,
                                                              environment: [:]))
        }
        #expect(garbage?.description.hasPrefix("error: cannot connect to postgres://app@db:5432/shop?schema=public: "
                                               + "cannot set up TLS (sslmode=verify-ca, sslrootcert=\(notPEM)): ") == true)
        let badKey = #expect(throws: PostgresStoreError.self) {
            try PostgresSession.tls(for: try PostgresStoreURL(parsing: "postgres://app@db/shop?sslmode=require&sslcert=\(notPEM)&sslkey=\(notPEM)",
                                                              environment: [:]))
        }
        #expect(badKey?.description.hasPrefix("error: cannot connect to postgres://app@db:5432/shop?schema=public: "
                                              + "cannot set up TLS (sslmode=require, sslcert=\(notPEM), sslkey=\(notPEM)): ") == true)
    }
}
