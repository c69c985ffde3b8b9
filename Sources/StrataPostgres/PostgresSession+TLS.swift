import Foundation
import NIOSSL
import PostgresNIO

extension PostgresSession {
    /// PostgresNIO's TLS setting for the URL's `sslmode=` (libpq's meaning): `prefer` and `require` encrypt
    /// without checking the certificate, `verify-ca` checks its chain, `verify-full` its chain and host name.
    /// `allow` is TLS without checks too: the setting of its second attempt (``connect(_:)`` tries plain
    /// first). A client certificate (`sslcert=`, `sslkey=`, decrypted with `sslpassword=` when given) is offered in
    /// every mode but `disable`; the TLS versions are `ssl_min_protocol_version` to `ssl_max_protocol_version`.
    /// - Throws: `PostgresStoreError.connection` (exit 1) when `sslrootcert=`, `sslcert=` or `sslkey=` cannot
    ///   be read or is not PEM.
    static func tls(for url: PostgresStoreURL) throws(PostgresStoreError) -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = tlsVersion(url.sslMinProtocolVersion)
        configuration.maximumTLSVersion = url.sslMaxProtocolVersion.map(tlsVersion)
        switch url.sslMode {
        case .disable: return .disable
        case .allow, .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        for (name, file) in [("sslrootcert", url.sslRootCert), ("sslcert", url.sslCert), ("sslkey", url.sslKey)] {
            if let file, !FileManager.default.isReadableFile(atPath: file) {
                throw .connection(store: url.description, message: "cannot read the \(name) file '\(file)'")
            }
        }
        if let file = url.sslRootCert { configuration.trustRoots = .file(file) }
        let context: NIOSSLContext
        do {
            if let certificate = url.sslCert, let key = url.sslKey {
                configuration.certificateChain = try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }
                let privateKey = if let password = url.sslPassword {
                    try NIOSSLPrivateKey(file: key, format: .pem) { setPassphrase in setPassphrase(Array(password.utf8)) }
                } else {
                    try NIOSSLPrivateKey(file: key, format: .pem)
                }
                configuration.privateKey = .privateKey(privateKey)
            }
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            let files = [("sslrootcert", url.sslRootCert), ("sslcert", url.sslCert), ("sslkey", url.sslKey)]
                .compactMap { name, file in file.map { ", \(name)=\($0)" } }.joined()
            throw .connection(store: url.description, message: "cannot set up TLS (sslmode=\(url.sslMode.rawValue)\(files)): \(error)")
        }
        return url.sslMode == .prefer ? .prefer(context) : .require(context)
    }

    /// SwiftNIO SSL's name for `version`.
    static func tlsVersion(_ version: PostgresTLSVersion) -> TLSVersion {
        switch version {
        case .tlsv1: .tlsv1
        case .tlsv11: .tlsv11
        case .tlsv12: .tlsv12
        case .tlsv13: .tlsv13
        }
    }
}
