import Foundation

extension PostgresStoreURL {
    /// One host of the URL with its port: a TCP host (a name or an IP address), or a Unix-domain socket's
    /// directory (a host that starts with `/`), and the password found for it (the URL's, the service's,
    /// `PGPASSWORD`, else the password file's line for this host and port).
    public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var password: String?

        public init(host: String, port: Int, password: String? = nil) {
            (self.host, self.port, self.password) = (host, port, password)
        }

        /// Whether ``host`` is the directory of a Unix-domain socket rather than a TCP host.
        public var isUnixSocket: Bool { host.hasPrefix("/") }

        /// The server's Unix-domain socket, `<host>/.s.PGSQL.<port>`, when ``host`` is a socket directory.
        public var socketPath: String? { isUnixSocket ? PostgresStoreURL.socketPath(directory: host, port: port) : nil }

        /// `host:port` as a URL writes it: a socket directory percent-encoded, an IPv6 address in brackets.
        public var description: String {
            let shown = isUnixSocket ? host.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
                : host.contains(":") ? "[\(host)]" : host
            return "\(shown):\(port)"
        }

        /// The endpoint as a connection message names it: `host:port`, or the socket file.
        var label: String { socketPath.map { "'\($0)'" } ?? description }
    }
}
