import StrataCore

/// What can go wrong with a PostgreSQL store, each case with its exit code (SPEC §8, §14.2).
public enum PostgresStoreError: Error, Hashable, Sendable {
    /// The `--store` URL cannot be used (exit 2).
    case invalidURL(url: String, reason: String)
    /// A `--stores` URL with a glob character outside its `schema` parameter (exit 2).
    case globOutsideSchema(url: String, part: String, value: String)
    /// The schema has no `strata_` tables and `--create` was not given (exit 2).
    case missingStore(store: String)
    /// The schema already holds a Strata store where one was to be created, or tables in the way (exit 2).
    case exists(store: String, detail: String)
    /// Work this engine cannot do yet; nothing was written (exit 2).
    case notYetSupported(what: String)
    /// A table or column name PostgreSQL would cut at 63 bytes (exit 2).
    case nameTooLong(kind: String, name: String, hint: String)
    /// The server cannot be reached or refused the login (exit 1).
    case connection(store: String, message: String)
    /// The server refused a statement (exit 1; exit 5 when it could not get a lock in time); `constraint` names
    /// the constraint or index a constraint failure broke, as the server reports it.
    case server(message: String, sqlState: String?, statement: String?, constraint: String? = nil)
    /// Another run holds the store's advisory lock (exit 5).
    case busy(store: String, holder: String?)
    /// The store's version is above the target, or the metadata names an unknown version (exit 2).
    case version(message: String)
    /// The recorded model hash is not the hash of the model file of the store's version (exit 6).
    case drift(store: String, detail: String)
    /// A step's data condition failed (exit 3), rolled back.
    case violations(message: String, objects: [String])
    /// User views, materialized views or rules depend on what a step drops or retypes (exit 4); nothing
    /// of the step was written.
    case dependentObjects(step: String, objects: [String])
}

extension PostgresStoreError: StrataError {
    public var exitCode: ExitStatus {
        switch self {
        case .invalidURL, .globOutsideSchema, .missingStore, .exists, .notYetSupported, .nameTooLong, .version: .invalidInput
        case .connection: .runtimeFailure
        case .server(_, let state, _, _):
            switch state {
            case PostgresStoreError.lockNotAvailable: .storeBusy
            case PostgresStoreError.valueOutOfRange, PostgresStoreError.dateOutOfRange: .validationViolations
            default: .runtimeFailure
            }
        case .busy: .storeBusy
        case .drift: .drift
        case .violations: .validationViolations
        case .dependentObjects: .notInferable
        }
    }

    /// SQLSTATE 55P03, `lock_not_available` (a `lock_timeout` ran out).
    static let lockNotAvailable = "55P03"
    /// SQLSTATE 22003, `numeric_value_out_of_range`: a value its column's type cannot hold (40000 into an int16's
    /// `smallint`). SQLite stores it and its audit reports 1610/1620 (exit 3); PostgreSQL refuses the
    /// statement, which rolls back: exit 3 too.
    static let valueOutOfRange = "22003"
    /// SQLSTATE 22008, `datetime_field_overflow`: a date outside `timestamptz`'s range (4713 BC to 294276 AD),
    /// which SQLite stores as seconds: exit 3, as `valueOutOfRange`.
    static let dateOutOfRange = "22008"

    /// What to do about a server error of the SQLSTATEs above.
    static func hint(forSQLState state: String) -> String? {
        switch state {
        case lockNotAvailable: "another session holds a lock on a table; retry, or raise the lock timeout"
        case valueOutOfRange: "a value is outside the range of its PostgreSQL column's type (int16 -32768…32767, int32 -2147483648…2147483647, "
            + "a double's ±1.7976931348623157e308), which an SQLite column holds (1610/1620 on SQLite); its transaction was rolled back"
        case dateOutOfRange: "a date is outside PostgreSQL's range (4713 BC to 294276 AD); its transaction was rolled back"
        default: nil
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .invalidURL(let url, let reason):
            [.error("invalid PostgreSQL store URL '\(url)': \(reason)",
                    hint: "use postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME]")]
        case .globOutsideSchema(let url, let part, let value):
            [.error("--stores '\(url)': the \(part) '\(value)' holds a glob character; a pattern may only be the schema's",
                    hint: "match schemas of one database: postgres://USER@HOST[:PORT]/DATABASE?schema=PATTERN; "
                        + "list stores on other hosts or databases in --stores-from FILE")]
        case .missingStore(let store):
            [.error("no Strata store in \(store): the schema has no strata_ tables",
                    hint: "check the URL and schema, or create the store (PostgresStore.open(_:models:hooks:options:) creates a missing one)")]
        case .exists(let store, let detail):
            [.error("cannot create a store in \(store): \(detail)")]
        case .notYetSupported(let what):
            [.error("\(what) is not yet supported on PostgreSQL; nothing was written",
                    hint: "see Docs/postgresql.md for what a PostgreSQL store supports today")]
        case .nameTooLong(let kind, let name, let hint):
            [.error("\(kind) name '\(name)' is longer than PostgreSQL's 63 bytes", hint: hint)]
        case .connection(let store, let message):
            [.error("cannot connect to \(store): \(message)")]
        case .server(let message, let state, let statement, _):
            [.error("PostgreSQL: \(message)" + (state.map { " (SQLSTATE \($0))" } ?? "")
                        + (statement.map { "\n  in: \($0)" } ?? ""),
                    hint: state.flatMap(Self.hint(forSQLState:)))]
        case .busy(let store, let holder):
            [.error("\(store) is busy: another strata run holds its lock" + (holder.map { " (\($0))" } ?? ""),
                    hint: "wait for it to finish, or raise the lock timeout")]
        case .drift(let store, let detail):
            [.error("\(store) is in drift: \(detail)", hint: "a model file of a version the store has passed was edited; restore it")]
        case .version(let message):
            [.error(message)]
        case .violations(let message, let objects):
            [.error(message + (objects.isEmpty ? "" : ": " + objects.joined(separator: ", ")),
                    hint: "fix the data (or add a default to the model), then run again; the step was rolled back")]
        case .dependentObjects(let step, let objects):
            [.error("\(step) drops or changes the type of what user objects depend on: " + objects.joined(separator: ", "),
                    hint: "drop them, migrate, then re-create them; Strata never drops them (no CASCADE); nothing was written")]
        }
    }

    public var description: String { diagnostics.map(\.headline).joined(separator: "\n") }
}
