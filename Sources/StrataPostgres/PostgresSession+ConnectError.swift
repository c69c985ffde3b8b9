import Foundation
import NIOCore
import PostgresNIO

extension PostgresSession {
    /// What went wrong connecting to `endpoint` of `url`, for `PostgresStoreError.connection`: a server that did not answer
    /// within `timeout` seconds names the timeout; a Unix-domain socket that cannot be reached names the
    /// socket file, as libpq does; anything else is the server's or PostgresNIO's message.
    static func connectionMessage(of error: any Error, url: PostgresStoreURL, endpoint: PostgresStoreURL.Endpoint, timeout: Int) -> String {
        let underlying = (error as? PSQLError)?.underlying ?? error
        if case ChannelError.connectTimeout = underlying {
            let setting = url.connectTimeout == nil ? "the default connect_timeout" : "connect_timeout=\(timeout)"
            return "the server did not answer within \(timeout) seconds (\(setting))"
        }
        if let socket = endpoint.socketPath, (error as? PSQLError)?.serverInfo == nil {
            let reason = (underlying as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(underlying)"
            return "connection to the server on the Unix-domain socket '\(socket)' failed: \(reason)"
                + " (is the server running there and accepting connections on that socket?)"
        }
        return message(of: error)
    }
}
