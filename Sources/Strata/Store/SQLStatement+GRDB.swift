import Foundation
import GRDB

extension SQLStatement {
    /// The statement's arguments, for GRDB: the one place Strata's values become SQLite bindings.
    var statementArguments: StatementArguments {
        StatementArguments(arguments.map(\.databaseValue))
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
    /// Executes a Strata statement (text and bound arguments).
    func execute(_ statement: SQLStatement) throws {
        try execute(sql: statement.sql, arguments: statement.statementArguments)
    }
}
