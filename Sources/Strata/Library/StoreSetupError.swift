/// Why an application's own GRDB database cannot hold a store (``Store/open(database:models:hooks:options:)``).
public enum StoreSetupError: StrataError, Sendable, Equatable {
    /// An in-memory or temporary database: the store's lock and its crash safety need a file.
    case notAFile(path: String)
    /// The database was not created with a configuration passed through ``Store/prepare(_:)``: Strata's SQL
    /// functions are missing.
    case notPrepared(path: String)
    /// `PRAGMA foreign_keys` is off on the writer connection: delete rules and relationships need it.
    case foreignKeysOff(path: String)

    public var exitCode: ExitStatus { .invalidInput }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .notAFile(let path):
            return [.error("the database '\(path)' is not a file: a store needs one (its lock and its crash safety are files)",
                           hint: "open the DatabaseQueue or DatabasePool on a file path")]
        case .notPrepared(let path):
            return [.error("the database '\(path)' lacks Strata's SQL functions",
                           hint: "create it with a Configuration passed through Store.prepare(_:) first")]
        case .foreignKeysOff(let path):
            return [.error("the database '\(path)' has foreign keys off",
                           hint: "leave Configuration.foreignKeysEnabled on (Store.prepare(_:) does)")]
        }
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
