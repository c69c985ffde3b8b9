import Foundation
import GRDB

/// Errors of a pipeline run (lock, backup, disk space, store version) that say what to do next.
public enum PipelineError: StrataError, Sendable {
    /// Another process held `<store>-strata.lock` for longer than the lock timeout (exit 5).
    case storeBusy(storePath: String, lockPath: String, holder: LockHolder?, timeout: TimeInterval)
    /// The store is at a version above the newest model file: a later app version wrote it (exit 6).
    case newerThanModels(path: String, storeVersion: Int, newestModel: Int)
    /// `--backup PATH` names an existing file and `force` was not given (exit 2).
    case backupExists(path: String)
    /// The backup could not be written; the store was not touched (exit 1).
    case backupFailed(path: String, detail: String)
    /// SQLite ran out of space (disk full or `max_page_count`); the transaction was rolled back (exit 1).
    case diskFull(path: String, detail: String)
    /// The lock file could not be created or locked for a reason other than contention (exit 1).
    case lockFailed(lockPath: String, detail: String)
    /// Another connection (an application, or a run through another lock file) kept SQLite's write lock
    /// for longer than the busy timeout; nothing was written (exit 5).
    case databaseBusy(path: String)

    public var exitCode: ExitStatus {
        switch self {
        case .storeBusy, .databaseBusy: return .storeBusy
        case .newerThanModels: return .drift
        case .backupExists: return .invalidInput
        case .backupFailed, .diskFull, .lockFailed: return .runtimeFailure
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case let .storeBusy(storePath, lockPath, holder, timeout):
            let who = holder.map { "\($0)" } ?? "another process"
            return [.error("the store '\(storePath)' is busy: \(who) holds '\(lockPath)' (waited \(Self.seconds(timeout)))",
                           hint: Self.busyHint(holder: holder, raise: "the lock timeout"))]
        case let .newerThanModels(path, storeVersion, newestModel):
            return [.error("the store '\(path)' is at version \(storeVersion), newer than the newest model (\(newestModel)): "
                           + "it was written by a later app version",
                           hint: "deploy the model files of version \(storeVersion) (or later); Strata never migrates a store backwards")]
        case .backupExists(let path):
            return [.error("the backup file '\(path)' already exists",
                           hint: "choose another backup path, remove the file, or allow overwriting it (forceBackup)")]
        case let .backupFailed(path, detail):
            return [.error("could not write the backup '\(path)': \(detail); the store was not changed",
                           hint: "check that the backup's directory exists, is writable and has room for a copy of the store")]
        case let .diskFull(path, detail):
            return [.error("out of space while writing '\(path)' (\(detail)); the step was rolled back and the store is unchanged",
                           hint: "free disk space (a table rebuild needs room for a second copy of the table) and rerun")]
        case .databaseBusy(let path):
            return [.error("the store '\(path)' is busy: another connection holds its write lock; nothing was written",
                           hint: "retry when the other writer is done, or raise the lock timeout")]
        case let .lockFailed(lockPath, detail):
            return [.error("could not lock '\(lockPath)': \(detail)",
                           hint: "the lock file lives next to the store; check that its directory is writable")]
        }
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// The hint of ``storeBusy(storePath:lockPath:holder:timeout:)``, `raise` naming the timeout (the library's
    /// option, or the command line's flag).
    public static func busyHint(holder: LockHolder?, raise: String) -> String {
        "wait for that run to finish, or raise \(raise); if \(holder == nil ? "the holder" : "that process") "
            + "is gone, the lock is already free (the OS releases it when a process dies)"
    }

    /// Maps an error thrown while writing `path` to the error a person can act on:
    /// `SQLITE_FULL` (from SQLite itself or from a batch statement of a hook or `strata batch`) becomes
    /// ``diskFull(path:detail:)``, other SQLite errors become `StoreError`s; anything else passes through.
    static func mapWriteError(_ error: Error, path: String) -> Error {
        if let db = error as? DatabaseError, db.resultCode == .SQLITE_FULL {
            return PipelineError.diskFull(path: path, detail: db.message ?? "database or disk is full")
        }
        if case BatchError.outOfSpace(let message) = error {
            return PipelineError.diskFull(path: path, detail: message)
        }
        if let busy = error as? DatabaseError, busy.resultCode == .SQLITE_BUSY {
            return PipelineError.databaseBusy(path: path)
        }
        return StoreError.from(error, path: path)
    }

    static func seconds(_ t: TimeInterval) -> String {
        t == t.rounded() ? "\(Int(t))s" : String(format: "%.1fs", t)
    }
}
