/// The URL's `sslmode=` (libpq's meaning; default `prefer`, as libpq's).
///
/// - `disable`: plain TCP.
/// - `allow`: plain TCP; when the server refuses that login, a second attempt with TLS (certificate not checked).
/// - `prefer`: TLS when the server offers it, else plain; the certificate is not checked.
/// - `require`: TLS or no connection; the certificate is not checked.
/// - `verify-ca`: TLS, the certificate chain checked against `sslrootcert=` (else the system's roots).
/// - `verify-full`: as `verify-ca`, and the certificate must name the URL's host.
public enum PostgresSSLMode: String, CaseIterable, Hashable, Sendable {
    case disable
    case allow
    case prefer
    case require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"

    /// Whether the server's certificate chain is checked.
    public var verifiesCertificate: Bool { self == .verifyCA || self == .verifyFull }
}
