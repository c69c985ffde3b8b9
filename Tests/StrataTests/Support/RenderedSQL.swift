import GRDB
@testable import Strata

/// A statement as SQLite runs it (text with `?` and the bound values), to compare planned `SQLText`
/// by what it renders to.
struct RenderedSQL: Equatable, CustomStringConvertible {
    var sql: String
    var arguments: [Value]

    init(_ sql: String, _ arguments: [Value] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    init(_ text: SQLText) { (sql, arguments) = text.rendered(for: .sqlite) }

    var description: String { arguments.isEmpty ? sql : "\(sql) -- \(arguments)" }

    /// The values as GRDB binds them.
    var statementArguments: StatementArguments { StatementArguments(arguments.map(\.databaseValue)) }

    static func == (lhs: SQLText, rhs: RenderedSQL) -> Bool { RenderedSQL(lhs) == rhs }
    static func == (lhs: SQLText?, rhs: RenderedSQL) -> Bool { lhs.map(RenderedSQL.init) == rhs }
}

/// `"name"`, quoted as SQLite quotes identifiers, for the tests' own SQL.
func quoted(_ identifier: String) -> String { SQLDialect.sqlite.quote(identifier) }

extension AuditRule.Check {
    /// A row rule's condition and value, rendered; nil for uniqueness.
    var rendered: [RenderedSQL]? {
        guard case .row(let condition, let value) = self else { return nil }
        return [RenderedSQL(condition), RenderedSQL(value)]
    }
}
