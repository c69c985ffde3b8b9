import Foundation
import GRDB

/// The foreign-key checks of batch steps. A version step runs with SQLite's foreign keys off (SPEC §11.4), so
/// what SQLite would have refused row by row is checked once, set-based, and only where a batch step can break a
/// reference:
/// - an insert: the new rows' foreign keys given as primary keys or key paths (`$source` cannot dangle);
/// - a delete: the model's delete rules are applied by Strata itself, so only tables outside the model (the
///   user's own) that reference the model's tables are checked;
/// - an update sets attributes only, and a link sets keys read from the other table in the same statement:
///   neither can leave a dangling reference.
/// With foreign keys on (a batch outside a step), SQLite has checked already and these checks are skipped.
extension BatchExecutor {
    /// Whether the connection runs with foreign keys off (inside a version step).
    static func foreignKeysAreOff(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "PRAGMA foreign_keys") == 0
    }

    /// Throws the 1700 violation SQLite would have raised when `query` (rows of `_pk`, column, value) finds
    /// references to objects that do not exist.
    static func checkReferences(_ query: SQLText, entity: String, _ db: Database) throws {
        guard try foreignKeysAreOff(db) else { return }
        let (sql, arguments) = query.rendered()
        let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
        guard !rows.isEmpty else { return }
        let listed = rows.map { row -> String in
            let pk: Int64 = row[0], column: String = row[1]
            return "\(entity) \(pk) \(column) = \(Value(databaseValue: row[2] as DatabaseValue))"
        }
        throw BatchError.violation(code: 1700, message: "the batch would leave a dangling reference (no object has that primary key): "
                                   + listed.joined(separator: ", ") + (rows.count == 20 ? ", …" : ""))
    }

    /// After a delete: the tables outside `layout` whose foreign keys point at its tables, checked with
    /// `pragma_foreign_key_check` (their `ON DELETE` actions do not fire with foreign keys off).
    static func checkUserReferences(after layout: StoreLayout, _ db: Database) throws {
        guard try foreignKeysAreOff(db) else { return }
        let managed = Set(layout.tables.map { $0.name.lowercased() })
        let keys = try Row.fetchAll(db, sql: """
            SELECT DISTINCT m."name", f."table" FROM "sqlite_master" m, pragma_foreign_key_list(m."name") f
            WHERE m."type" = 'table'
            """)
        let children = Set(keys.compactMap { row -> String? in
            let child: String = row[0], parent: String = row[1]
            let name = child.lowercased()
            guard !managed.contains(name), !name.hasPrefix("sqlite_"), !name.hasPrefix("strata_"),
                  managed.contains(parent.lowercased()) else { return nil }
            return child
        }).sorted()
        var found: [String] = []
        for child in children {
            let check: SQLText = #"SELECT "table", "rowid", "parent" FROM pragma_foreign_key_check(\#(child)) LIMIT 20"#
            let (sql, arguments) = check.rendered()
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue))) {
                let table: String = row[0], parent: String = row[2]
                let rowid: Int64? = row[1]
                found.append("\(table) row \(rowid.map(String.init) ?? "?") → \(parent)")
            }
        }
        guard !found.isEmpty else { return }
        throw BatchError.violation(code: 1700, message: "the delete would leave rows of your own tables pointing at deleted objects "
                                   + "(their ON DELETE actions do not run inside a version step): " + found.prefix(20).joined(separator: ", "))
    }
}
