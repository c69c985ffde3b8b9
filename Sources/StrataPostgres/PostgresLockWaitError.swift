import Foundation
import StrataCore

/// A statement of a Strata transaction waited longer than `--ddl-lock-timeout` for a lock another session
/// holds (PostgreSQL's `lock_timeout`, SQLSTATE 55P03): the transaction was rolled back (exit 5, SPEC §14.2).
public struct PostgresLockWaitError: Error, Hashable, Sendable {
    /// The `lock_timeout` in seconds.
    public var seconds: Double
    /// The statement that waited.
    public var statement: String?
    /// The server's message.
    public var message: String

    /// `error` as a lock wait when it is the server's `lock_not_available`, else `error` unchanged.
    static func lockWait(_ error: any Error, seconds: Double) -> any Error {
        guard case PostgresStoreError.server(let message, let state, let statement, _) = error,
              state == PostgresStoreError.lockNotAvailable else { return error }
        return PostgresLockWaitError(seconds: seconds, statement: statement, message: message)
    }
}

extension PostgresLockWaitError: StrataError {
    public var exitCode: ExitStatus { .storeBusy }

    /// In the library's terms (SPEC §13): the limit is PostgreSQL's `lock_timeout`, set from the call's `ddlLockTimeout`.
    public var diagnostics: [Diagnostic] { [diagnostic(limit: "lock_timeout", setting: "ddlLockTimeout")] }

    /// The error naming the limit and the setting that raises it: `lock_timeout` and `ddlLockTimeout` in the
    /// library, `--ddl-lock-timeout` for both on the command line.
    public func diagnostic(limit name: String, setting: String) -> Diagnostic {
        let limit = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        return .error("waited more than \(limit) s (\(name)) for a lock that another session holds; "
                      + "the transaction was rolled back (PostgreSQL: \(message))"
                      + (statement.map { "\n  in: \($0)" } ?? ""),
                      hint: "find the holder in pg_locks / pg_stat_activity; retry when it has finished, or raise \(setting)")
    }

    public var description: String { diagnostics.map(\.headline).joined(separator: "\n") }
}
