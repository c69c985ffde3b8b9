import Foundation

/// The parts of a `postgres://` URL, read as libpq's URI parser reads them (`conninfo_uri_parse_options`),
/// percent-decoded: `postgres://[USER[:PASSWORD]@][HOST[:PORT][,HOST[:PORT]…]][/DATABASE][?KEY=VALUE&…]`.
///
/// Foundation's `URLComponents` cannot read an authority of several hosts, so the authority is read here:
/// the user information ends at the first `@`, each host is a name, a percent-encoded socket directory or
/// an IPv6 address in brackets, with its own optional port. As libpq, the hosts and ports are kept as one
/// comma-separated list each (`h1,h2` and `5432,`: a host without a port has an empty entry), and an empty
/// user, password or database counts as not given.
///
/// ```swift
/// let text = try PostgresURLText("postgres://app@h1:5433,[::1]/shop?schema=inv")
/// text.hosts   // "h1,::1"
/// text.ports   // "5433,"
/// text.query   // [("schema", "inv")]
/// ```
struct PostgresURLText {
    var user: String?
    var password: String?
    /// The authority's hosts, comma-separated; nil when the URL writes none.
    var hosts: String?
    /// The authority's ports, one entry per host (empty where a host has none); nil when there is no port
    /// and only one host (libpq's rule: the port is then left to `port=` or `PGPORT`).
    var ports: String?
    var database: String?
    /// The query's parameters in order; a parameter without `=` has an empty value.
    var query: [(name: String, value: String)]

    /// Reads `given`, a URL whose scheme is `postgres://` or `postgresql://`.
    /// - Throws: `PostgresStoreError.invalidURL` for a bracket that is not closed, a character after an
    ///   IPv6 address that is not `:` or `,`, or text that is not valid percent-encoding.
    init(_ given: String) throws(PostgresStoreError) {
        func invalid(_ reason: String) -> PostgresStoreError { .invalidURL(url: PostgresStoreURL.redacted(given), reason: reason) }
        // Read by its ASCII delimiters with every other scalar percent-encoded (each part decodes back): a
        // `Character` joins a combining mark to the delimiter before it, so `app:́secret` had no `:` and the
        // password went into the user name, shown in messages.
        let text = Self.encodingNonASCII(given)
        func decoded(_ part: Substring) throws(PostgresStoreError) -> String {
            guard let value = part.removingPercentEncoding else { throw invalid("'\(part)' is not valid percent-encoding") }
            guard !value.contains("\0") else { throw invalid("'\(part)' holds a NUL character (%00)") }
            return value
        }
        let schemeLength = text.lowercased().hasPrefix("postgresql://") ? "postgresql://".count : "postgres://".count
        let rest = text.dropFirst(schemeLength)
        var authority = rest.prefix { $0 != "/" && $0 != "?" }
        var remainder = rest[authority.endIndex...]
        if let at = authority.firstIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            let colon = userInfo.firstIndex(of: ":")
            user = try decoded(userInfo[..<(colon ?? userInfo.endIndex)])
            if let colon { password = try decoded(userInfo[userInfo.index(after: colon)...]) }
            if user?.isEmpty == true { user = nil }
            if password?.isEmpty == true { password = nil }
        }
        var hostList: [String] = [], portList: [String] = []
        var spec = authority
        while true {
            var host: Substring, after: Substring
            if spec.hasPrefix("[") {
                guard let close = spec.firstIndex(of: "]") else { throw invalid("the IPv6 host address '\(spec)' has no closing ']'") }
                host = spec[spec.index(after: spec.startIndex)..<close]
                guard !host.isEmpty else { throw invalid("an IPv6 host address in brackets is empty") }
                after = spec[spec.index(after: close)...]
                if let next = after.first, next != ":" && next != "," {
                    throw invalid("unexpected character '\(next)' after the IPv6 host address [\(host)]")
                }
            } else {
                host = spec.prefix { $0 != ":" && $0 != "," }
                after = spec[host.endIndex...]
            }
            var port: Substring = ""
            if after.first == ":" {
                port = after.dropFirst().prefix { $0 != "," }
                after = after[port.endIndex...]
            }
            hostList.append(try decoded(host))
            portList.append(try decoded(port))
            guard after.first == "," else { break }
            spec = after.dropFirst()
        }
        let joinedHosts = hostList.joined(separator: ","), joinedPorts = portList.joined(separator: ",")
        hosts = joinedHosts.isEmpty ? nil : joinedHosts
        ports = joinedPorts.isEmpty ? nil : joinedPorts
        if remainder.first == "/" {
            let path = remainder.dropFirst().prefix { $0 != "?" }
            remainder = remainder[path.endIndex...]
            let name = try decoded(path)
            database = name.isEmpty ? nil : name
        }
        query = []
        if remainder.first == "?" {
            for item in remainder.dropFirst().split(separator: "&") {
                let equals = item.firstIndex(of: "=")
                let name = try decoded(item[..<(equals ?? item.endIndex)])
                let value = try equals.map { (equals) throws(PostgresStoreError) in try decoded(item[item.index(after: equals)...]) } ?? ""
                query.append((name, value))
            }
        }
    }

    /// `text` with every scalar outside ASCII percent-encoded as UTF-8.
    static func encodingNonASCII(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy(\.isASCII) else { return text }
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII { out.append(scalar); continue }
            for byte in String(scalar).utf8 { out.append(contentsOf: ["%", hex[Int(byte >> 4)], hex[Int(byte & 15)]]) }
        }
        return String(out)
    }
}
