import Foundation
import NIOCore
import NIOPosix
import PostgresNIO

extension PostgresSession {
    /// What went wrong connecting to `endpoint` of `url`, for `PostgresStoreError.connection`: a server that
    /// did not answer within `timeout` seconds names the timeout; a host that cannot be reached names the
    /// host and port (or the socket file) and the system's reason, as libpq does; a host name that does not
    /// resolve says so; anything else is the server's or PostgresNIO's message.
    static func connectionMessage(of error: any Error, url: PostgresStoreURL, endpoint: PostgresStoreURL.Endpoint, timeout: Int) -> String {
        let underlying = (error as? PSQLError)?.underlying ?? error
        if case ChannelError.connectTimeout = underlying {
            let setting = url.connectTimeout == nil ? "the default connect_timeout" : "connect_timeout=\(timeout)"
            return "the server did not answer within \(timeout) seconds (\(setting))"
        }
        if let socket = endpoint.socketPath, (error as? PSQLError)?.serverInfo == nil {
            return "connection to the server on the Unix-domain socket '\(socket)' failed: \(reason(underlying))"
                + " (is the server running there and accepting connections on that socket?)"
        }
        if let failure = underlying as? NIOConnectionError {
            if failure.connectionErrors.isEmpty, let lookup = failure.dnsAError ?? failure.dnsAAAAError {
                let detail = (lookup as? SocketAddressError.UnknownHost)?.errorDescription ?? "\(lookup)"
                return "could not translate host name '\(endpoint.host)' to an address: \(detail)"
            }
            var reasons: [String] = []
            for single in failure.connectionErrors where !reasons.contains(reason(single.error)) { reasons.append(reason(single.error)) }
            return "connection to the server at \(endpoint.host), port \(endpoint.port) failed: \(reasons.joined(separator: ", "))"
                + " (is the server running on that host and accepting TCP/IP connections?)"
        }
        return message(of: error)
    }

    /// The system's words for a failed connect (`Connection refused`), else the error's own description.
    static func reason(_ error: any Error) -> String {
        (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
    }
}
