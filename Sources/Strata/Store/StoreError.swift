import GRDB

/// Errors about the store file itself and SQLite.
public enum StoreError: StrataError, Sendable {
    /// No store at the path (and creating one was not asked for).
    case missing(path: String)
    /// The directory of the path does not exist.
    case missingDirectory(path: String)
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String)
    /// `PRAGMA integrity_check` failed or SQLite reported corruption.
    case corrupt(path: String, detail: String)
    /// The file or its directory cannot be written.
    case readOnly(path: String)
    /// The store has no Strata metadata (use `strata adopt`).
    case notAdopted(path: String)
    /// Any other SQLite failure, with the statement.
    case sqlite(message: String, sql: String?)
    /// A store was to be created where a file already is.
    case exists(path: String)
    /// The store has a hot journal and cannot be read without a write.
    case hotJournal(path: String)
    case other(String)

    public var exitCode: ExitStatus {
        switch self {
        case .missing, .missingDirectory, .notADatabase: return .invalidInput
        case .notAdopted: return .drift
        case .corrupt, .readOnly, .sqlite, .hotJournal, .exists, .other: return .runtimeFailure
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .missing(let path):
            return [.error("no store at '\(path)'", hint: StoreError.missingHint)]
        case .missingDirectory(let path):
            return [.error("the directory of '\(path)' does not exist", hint: "create the directory or fix the path")]
        case .notADatabase(let path):
            return [.error("'\(path)' is not an SQLite database", hint: StoreError.pathHint)]
        case .corrupt(let path, let detail):
            return [.error("the store '\(path)' is corrupt: \(detail)",
                           hint: "restore it from a backup; Strata will not migrate a corrupt store")]
        case .readOnly(let path):
            return [.error("the store '\(path)' is read-only", hint: "check the permissions of the file and its directory")]
        case .notAdopted(let path):
            return [.error("'\(path)' has no Strata metadata", hint: StoreError.notAdoptedHint)]
        case .sqlite(let message, let sql):
            return [.error("SQLite: \(message)" + (sql.map { " (in: \($0))" } ?? ""))]
        case .hotJournal(let path):
            return [.error("'\(path)' has a hot rollback journal (a writer died mid-transaction)",
                           hint: "run `strata status` or `strata migrate` (a real run) once to recover it, then retry the dry run")]
        case .exists(let path):
            return [.error("'\(path)' already exists", hint: "open it instead, or adopt it first if it is not a store yet (StoreAdoption.adopt)")]
        case .other(let message):
            return [.error(message)]
        }
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// The library's hints speak in its own terms; the command line replaces them with its flags.
    static let missingHint = "check the path, or create the store (Store.open(at:models:) creates a missing one)"
    static let pathHint = "check the store's path"
    static let notAdoptedHint = "baseline it first, at the version its schema matches (StoreAdoption.adopt)"

    /// Maps a GRDB error to the store error a person can act on (`SQLITE_FULL`: `PipelineError.diskFull`;
    /// `SQLITE_BUSY`: `PipelineError.databaseBusy`).
    static func from(_ error: Error, path: String) -> Error {
        guard let db = error as? DatabaseError else { return error }
        switch db.resultCode {
        case .SQLITE_NOTADB: return StoreError.notADatabase(path: path)
        case .SQLITE_CORRUPT: return StoreError.corrupt(path: path, detail: db.message ?? "database disk image is malformed")
        case .SQLITE_READONLY: return StoreError.readOnly(path: path)
        case .SQLITE_CANTOPEN: return StoreError.missingDirectory(path: path)
        case .SQLITE_BUSY:
            // Another connection kept its lock past the busy timeout, whichever statement met it: a read meets an
            // application's EXCLUSIVE lock, a write its RESERVED one. Busy, exit 5, the same condition either way.
            return PipelineError.databaseBusy(path: path)
        case .SQLITE_FULL:
            // Every write path says the same thing about a full disk (or `max_page_count`): the transaction
            // rolled back, the store is unchanged, free space.
            return PipelineError.diskFull(path: path, detail: db.message ?? "database or disk is full")
        default: return StoreError.sqlite(message: db.message ?? "\(db.resultCode)", sql: db.sql)
        }
    }
}
