/// A TLS protocol version as libpq's `ssl_min_protocol_version` and `ssl_max_protocol_version` name it
/// (case-insensitively): the oldest the connection accepts (default `TLSv1.2`, as libpq's) and the newest
/// (default none, the newest the TLS library knows).
public enum PostgresTLSVersion: String, CaseIterable, Comparable, Hashable, Sendable {
    case tlsv1 = "TLSv1"
    case tlsv11 = "TLSv1.1"
    case tlsv12 = "TLSv1.2"
    case tlsv13 = "TLSv1.3"

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The version `text` names, ignoring case (libpq's reading).
    init?(libpq text: String) {
        guard let version = Self.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else { return nil }
        self = version
    }
}
