import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// Runs an `sql:` step's statements on a connection, one at a time as SQLite's own tokenizer splits them
/// (prepare, then continue at the tail), each compiled under the `SQLAuthorizer` and given its bound values.
enum SQLStepRunner {
    struct Outcome {
        /// Tables the statements wrote, trigger programs included.
        var writtenTables: Set<String> = []
        /// How each table (lowercased) was written, for the foreign-key check.
        var writes: [String: SQLAuthorizer.TableWrite] = [:]
        /// Rows the statements inserted, updated or deleted (`sqlite3_changes`, summed; rows changed by
        /// triggers are not counted, as in the sqlite3 shell).
        var changes = 0
    }

    /// - Parameters:
    ///   - expanded: the step's SQL for this store's layout.
    ///   - source: the hook file's text, for the errors' caret.
    /// - Throws: `SQLStepError` (refused, does not compile, constraint failure, other SQL error), located at
    ///   the statement in the hook file; `DatabaseError` for I/O errors, disk full, interruption.
    ///   - precheck: the pre-run on an empty store: constraint failures depend on the data and are left to
    ///     the real run; a statement interrupted by the work limit is an error of its own.
    static func run(_ expanded: ExpandedSQL, of step: SQLStep, source: String, in db: Database,
                    authorizer: SQLAuthorizer, precheck: Bool = false) throws -> Outcome {
        guard let connection = db.sqliteConnection else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "connection closed") }
        let (sql, values) = expanded.text.rendered(for: .sqlite)
        var outcome = Outcome()
        authorizer.resetWrites()
        let bytes = Array(sql.utf8CString)
        let total = bytes.count - 1   // without the terminating NUL
        try bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            var offset = 0
            while offset < total {
                let start = offset
                func located(_ kind: SQLStepError.Kind, _ message: String, hint: String? = nil) -> SQLStepError {
                    let at = step.location(atUTF8Offset: expanded.sourceOffset(ofRendered: start))
                    var error = SQLStepError(kind, message, at: at, hint: hint)
                    error.source = source
                    return error
                }
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                authorizer.reset()
                authorizer.armed = true
                let prepared = sqlite3_prepare_v2(connection, base + offset, Int32(total - offset), &statement, &tail)
                authorizer.armed = false
                offset = tail.map { base.distance(to: $0) } ?? total
                guard prepared == SQLITE_OK else {
                    sqlite3_finalize(statement)
                    if let refusal = authorizer.refusal {
                        throw located(.invalid, "refused: \(refusal)", hint: "sql: steps change data; Strata owns the schema and the transaction")
                    }
                    throw located(.invalid, "SQL error: \(String(cString: sqlite3_errmsg(connection)))")
                }
                guard let statement else {
                    // Only white space or comments, or a NUL character, where SQLite stops reading.
                    guard offset > start else { throw located(.invalid, "the SQL text contains a NUL character") }
                    continue
                }
                defer { sqlite3_finalize(statement) }
                // This statement's values: the `?` Strata wrote between its start and its tail.
                let own = expanded.valueOffsets.indices.filter { start <= expanded.valueOffsets[$0] && expanded.valueOffsets[$0] < offset }
                guard Int(sqlite3_bind_parameter_count(statement)) == own.count else {
                    throw located(.invalid, "SQL parameters (?, :name, $name, @name) are not allowed in sql: steps",
                                  hint: "write {{$NAME}} for a variable (--var NAME=VALUE) and {{$NOW}} for the run's time")
                }
                for (position, index) in own.enumerated() { bind(values[index], to: statement, at: Int32(position + 1)) }
                authorizer.armed = true   // SQLite re-compiles a statement whose schema changed: under the same rules
                defer { authorizer.armed = false }
                var code = sqlite3_step(statement)
                while code == SQLITE_ROW { code = sqlite3_step(statement) }
                guard code == SQLITE_DONE else {
                    let extended = sqlite3_extended_errcode(connection)
                    let message = String(cString: sqlite3_errmsg(connection))
                    if let refusal = authorizer.refusal { throw located(.invalid, "refused: \(refusal)") }
                    if precheck && extended & 0xFF == SQLITE_CONSTRAINT { continue }
                    if precheck && extended == SQLITE_INTERRUPT {
                        throw located(.invalid, "the statement did not finish within the pre-check's limit on an empty store",
                                      hint: "look for a recursive query without an end")
                    }
                    if let error = classify(extended, message: message, located: located) { throw error }
                    throw DatabaseError(resultCode: ResultCode(rawValue: extended), message: message)
                }
                if authorizer.writesRows { outcome.changes += Int(sqlite3_changes64(connection)) }
            }
        }
        outcome.writtenTables = authorizer.writtenTables
        outcome.writes = authorizer.writes
        return outcome
    }

    /// A user's statement's error as SPEC §11.4 says: constraint failures are violations (exit 3), other SQL
    /// errors invalid input (exit 2); nil for what stays a SQLite error (I/O, disk full, busy, interrupted: exit 1).
    static func classify(_ extended: Int32, message: String,
                         located: (SQLStepError.Kind, String, String?) -> SQLStepError) -> SQLStepError? {
        switch extended & 0xFF {
        case SQLITE_CONSTRAINT:
            switch extended {
            case 2067, 1555: return located(.violation(code: 1551), "uniqueness violated: \(message)", nil)   // UNIQUE, PRIMARYKEY
            case 787: return located(.violation(code: 1700), "foreign key violated: \(message)", nil)
            case 1299: return located(.violation(code: 1570), "missing mandatory value: \(message)", nil)   // NOTNULL
            default: return located(.violation(code: 1550), "constraint failed: \(message)", nil)
            }
        case SQLITE_ERROR, SQLITE_MISMATCH, SQLITE_RANGE, SQLITE_TOOBIG, SQLITE_AUTH:
            return located(.invalid, "SQL error: \(message)", nil)
        default:
            return nil
        }
    }

    static func bind(_ value: Value, to statement: OpaquePointer, at index: Int32) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        switch value {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let i): sqlite3_bind_int64(statement, index, i)
        case .real(let d): sqlite3_bind_double(statement, index, d)
        case .text(let s): sqlite3_bind_text(statement, index, s, -1, transient)
        case .blob(let b): _ = b.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
        }
    }

    /// The entities stored in `tables` (each entity of a hierarchy table; both sides of a join table).
    static func entities(writtenIn tables: Set<String>, layout: StoreLayout) -> [String] {
        let lowered = Set(tables.map { $0.lowercased() })
        var names: Set<String> = []
        for (name, storage) in layout.entities {
            if lowered.contains(storage.table.lowercased()) { names.insert(name); continue }
            if storage.relationships.values.contains(where: { $0.kind == .joinTable && lowered.contains($0.table.lowercased()) }) {
                names.insert(name)
            }
        }
        return names.sorted()
    }
}
