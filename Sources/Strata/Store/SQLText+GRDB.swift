import Foundation
import GRDB

/// The bridge from Strata's SQL values to GRDB: statements are rendered for SQLite here, and only here.
extension SQLText {
    /// SQLite text (`?` placeholders) and its bindings: the one place Strata's values become SQLite bindings.
    var sqlite: (sql: String, arguments: StatementArguments) {
        let (sql, values) = rendered(for: .sqlite)
        return (sql, StatementArguments(values.map(\.databaseValue)))
    }
}

extension Value {
    /// The value as GRDB binds it.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let i): return i.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        case .blob(let b): return Data(b).databaseValue
        }
    }

    /// The storage value of a database value.
    init(databaseValue: DatabaseValue) {
        switch databaseValue.storage {
        case .null: self = .null
        case .int64(let i): self = .integer(i)
        case .double(let d): self = .real(d)
        case .string(let s): self = .text(s)
        case .blob(let d): self = .blob(Array(d))
        }
    }
}

extension Database {
    /// Executes a Strata statement.
    func execute(_ statement: SQLText) throws {
        let (sql, arguments) = statement.sqlite
        try execute(sql: sql, arguments: arguments)
    }
}

extension Row {
    static func fetchAll(_ db: Database, _ statement: SQLText) throws -> [Row] {
        let (sql, arguments) = statement.sqlite
        return try fetchAll(db, sql: sql, arguments: arguments)
    }

    static func fetchOne(_ db: Database, _ statement: SQLText) throws -> Row? {
        let (sql, arguments) = statement.sqlite
        return try fetchOne(db, sql: sql, arguments: arguments)
    }

    static func fetchCursor(_ db: Database, _ statement: SQLText) throws -> RowCursor {
        let (sql, arguments) = statement.sqlite
        return try fetchCursor(db, sql: sql, arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    static func fetchOne(_ db: Database, _ statement: SQLText) throws -> Self? {
        let (sql, arguments) = statement.sqlite
        return try fetchOne(db, sql: sql, arguments: arguments)
    }

    static func fetchAll(_ db: Database, _ statement: SQLText) throws -> [Self] {
        let (sql, arguments) = statement.sqlite
        return try fetchAll(db, sql: sql, arguments: arguments)
    }
}
