import Foundation
import GRDB

extension SQLStatement {
    /// The statement's arguments, for GRDB.
    var statementArguments: StatementArguments {
        StatementArguments(arguments.map(Self.databaseValue))
    }

    static func databaseValue(_ value: Value) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let i): return i.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        case .blob(let b): return Data(b).databaseValue
        }
    }
}

extension Database {
    /// Executes a Strata statement (text and bound arguments).
    func execute(_ statement: SQLStatement) throws {
        try execute(sql: statement.sql, arguments: statement.statementArguments)
    }
}
