import Foundation
import NIOSSL
import PostgresNIO

extension PostgresSession {
    /// PostgresNIO's TLS setting for the URL's `sslmode=` (libpq's meaning): `prefer` and `require` encrypt
    /// without checking the certificate, `verify-ca` checks its chain, `verify-full` its chain and host name.
    /// - Throws: `PostgresStoreError.connection` (exit 1) when `sslrootcert=` cannot be read or is not PEM.
    static func tls(for url: PostgresStoreURL) throws(PostgresStoreError) -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch url.sslMode {
        case .disable: return .disable
        case .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let file = url.sslRootCert {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw .connection(store: url.description, message: "cannot read the sslrootcert file '\(file)'")
            }
            configuration.trustRoots = .file(file)
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw .connection(store: url.description, message: "cannot set up TLS (sslmode=\(url.sslMode.rawValue)"
                                + (url.sslRootCert.map { ", sslrootcert=\($0)" } ?? "") + "): \(error)")
        }
        return url.sslMode == .prefer ? .prefer(context) : .require(context)
    }
}
