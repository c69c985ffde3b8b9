import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// SQLite's authorizer for users' `sql:` statements (SPEC §11.4): refuses what a step must not do and records
/// which tables a statement writes, trigger programs included (SQLite authorizes a trigger's statements when
/// it compiles the statement that fires it).
///
/// Refused: transaction control and savepoints; ATTACH/DETACH; PRAGMA statements and pragma functions;
/// `load_extension`; writes to `strata_` tables and to `sqlite_sequence` (AUTOINCREMENT's counters: an object
/// ID is never reused, SPEC §10); CREATE/DROP/ALTER of the model's tables and of their
/// indexes and triggers. Temporary objects and new user tables are allowed.
///
/// GRDB registers its own authorizer once per connection and does not expose it; `install` replaces it for
/// the rest of the connection's life. While not `armed` this authorizer allows everything and clears GRDB's
/// schema cache on schema changes, the one thing GRDB's authorizer does that Strata relies on.
final class SQLAuthorizer {
    /// Why a statement was refused, in words for the error message.
    private(set) var refusal: String?
    /// Tables written (INSERT, UPDATE, DELETE) by the statements compiled while armed.
    private(set) var writtenTables: Set<String> = []
    /// How each written table (lowercased name) was written: which foreign keys a write can break.
    private(set) var writes: [String: TableWrite] = [:]

    struct TableWrite: Hashable {
        var inserted = false
        var deleted = false
        /// Updated columns, lowercased.
        var columns: Set<String> = []
    }
    /// Whether a statement compiled while armed changed the schema (a temp or user table).
    private(set) var changedSchema = false
    /// Whether the statement itself (not a trigger it fires) inserts, updates or deletes rows: then
    /// `sqlite3_changes` counts its rows (SQLite leaves it unchanged after other statements).
    private(set) var writesRows = false
    /// Checks and records only while true (users' statements); Strata's own statements pass untouched.
    var armed = false

    private var protectedTables: Set<String> = []
    private weak var db: Database?

    private init(db: Database) { self.db = db }

    /// The model's tables, which users' SQL may write but not create, drop or alter.
    func protect(_ layout: StoreLayout) {
        protectedTables = Set(layout.tables.map { $0.name.lowercased() })
    }

    /// The authorizer of `db`'s connection, registered on first use (registering again would make SQLite
    /// re-prepare every statement), protecting `layout`'s tables.
    static func install(on db: Database, layout: StoreLayout) -> SQLAuthorizer {
        if let existing = Registry.shared.authorizer(for: db) {
            existing.protect(layout)
            return existing
        }
        let authorizer = SQLAuthorizer(db: db)
        authorizer.protect(layout)
        let box = Unmanaged.passRetained(authorizer)   // kept for the connection's life
        sqlite3_set_authorizer(db.sqliteConnection, { pointer, action, a, b, c, d in
            guard let pointer else { return SQLITE_OK }
            return Unmanaged<SQLAuthorizer>.fromOpaque(pointer).takeUnretainedValue().authorize(action, a, b, c, d)
        }, box.toOpaque())
        Registry.shared.keep(box, for: db.sqliteConnection)
        return authorizer
    }

    /// Starts a statement: clears what the previous one recorded.
    func reset() {
        refusal = nil
        changedSchema = false
        writesRows = false
    }

    /// Forgets the tables written so far (a new step).
    func resetWrites() {
        writtenTables = []
        writes = [:]
    }

    private func isProtected(_ table: String?) -> Bool {
        guard let table else { return false }
        let name = table.lowercased()
        return protectedTables.contains(name) || name.hasPrefix("strata_")
    }

    private func refuse(_ reason: String) -> Int32 {
        if refusal == nil { refusal = reason }
        return SQLITE_DENY
    }

    func authorize(_ action: Int32, _ a: UnsafePointer<CChar>?, _ b: UnsafePointer<CChar>?,
                   _ c: UnsafePointer<CChar>?, _ d: UnsafePointer<CChar>?) -> Int32 {
        let first = a.map { String(cString: $0) }, second = b.map { String(cString: $0) }
        let schemaActions: Set<Int32> = [
            SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
            SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
            SQLITE_CREATE_VTABLE, SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
            SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW, SQLITE_DROP_VTABLE,
            SQLITE_ALTER_TABLE,
        ]
        guard armed else {
            if schemaActions.contains(action) { db?.clearSchemaCache() }
            return SQLITE_OK
        }
        switch action {
        case SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
            return refuse("transaction control and savepoints are Strata's: the step already runs in one transaction")
        case SQLITE_ATTACH, SQLITE_DETACH:
            return refuse("ATTACH and DETACH are refused in sql: steps")
        case SQLITE_PRAGMA:
            return refuse("PRAGMA \(first ?? "") is refused in sql: steps")
        case SQLITE_FUNCTION where second?.lowercased() == "load_extension":
            return refuse("load_extension is refused in sql: steps")
        case SQLITE_READ where first?.lowercased().hasPrefix("pragma_") == true:
            return refuse("pragma functions (\(first!)) are refused in sql: steps")
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
            guard let table = first else { return SQLITE_OK }
            let name = table.lowercased()
            if name == "sqlite_master" || name == "sqlite_temp_master" || name == "sqlite_schema" { return SQLITE_OK }
            if name.hasPrefix("strata_") { return refuse("writes to Strata's table '\(table)' are refused") }
            // AUTOINCREMENT's counters: an object ID must never be reused after a delete (SPEC §10). SQLite's own
            // updates of them, when a statement inserts, are not authorized and pass.
            if name == "sqlite_sequence" {
                return refuse("writes to sqlite_sequence are refused: object IDs are never reused after a delete")
            }
            writtenTables.insert(table)
            switch action {
            case SQLITE_INSERT: writes[name, default: TableWrite()].inserted = true
            case SQLITE_DELETE: writes[name, default: TableWrite()].deleted = true
            default: writes[name, default: TableWrite()].columns.insert(second?.lowercased() ?? "")
            }
            if d == nil { writesRows = true }   // the fourth argument names the trigger whose program this is
            return SQLITE_OK
        case SQLITE_CREATE_INDEX, SQLITE_CREATE_TEMP_INDEX, SQLITE_DROP_INDEX, SQLITE_DROP_TEMP_INDEX,
             SQLITE_CREATE_TRIGGER, SQLITE_CREATE_TEMP_TRIGGER, SQLITE_DROP_TRIGGER, SQLITE_DROP_TEMP_TRIGGER:
            // (index or trigger name, table name)
            if isProtected(second) { return refuse("indexes and triggers of the model's table '\(second!)' are Strata's") }
            changedSchema = true
            return SQLITE_OK
        case SQLITE_CREATE_TABLE, SQLITE_DROP_TABLE, SQLITE_CREATE_TEMP_TABLE, SQLITE_DROP_TEMP_TABLE:
            if isProtected(first) { return refuse("creating or dropping the model's table '\(first!)' is refused") }
            changedSchema = true
            return SQLITE_OK
        case SQLITE_ALTER_TABLE:
            // (database name, table name)
            if isProtected(second) { return refuse("altering the model's table '\(second!)' is refused") }
            changedSchema = true
            return SQLITE_OK
        case _ where schemaActions.contains(action):
            changedSchema = true
            return SQLITE_OK
        default:
            return SQLITE_OK
        }
    }

    /// Keeps each connection's authorizer alive as long as SQLite may call it.
    final class Registry: @unchecked Sendable {
        static let shared = Registry()
        private let lock = NSLock()
        private var boxes: [OpaquePointer: Unmanaged<SQLAuthorizer>] = [:]

        /// The authorizer registered on `db`'s connection by this same `Database` (a closed connection's
        /// address may be reused by a new one, whose authorizer is still GRDB's).
        func authorizer(for db: Database) -> SQLAuthorizer? {
            guard let connection = db.sqliteConnection else { return nil }
            lock.lock()
            defer { lock.unlock() }
            guard let authorizer = boxes[connection]?.takeUnretainedValue(), authorizer.db === db else { return nil }
            return authorizer
        }

        func keep(_ box: Unmanaged<SQLAuthorizer>, for connection: OpaquePointer?) {
            guard let connection else { return }
            lock.lock()
            let previous = boxes.updateValue(box, forKey: connection)
            lock.unlock()
            previous?.release()
        }

        /// Forgets a connection's authorizer once the connection is closed (or its authorizer removed).
        func release(_ connection: OpaquePointer?) {
            guard let connection else { return }
            lock.lock()
            let previous = boxes.removeValue(forKey: connection)
            lock.unlock()
            previous?.release()
        }
    }
}
