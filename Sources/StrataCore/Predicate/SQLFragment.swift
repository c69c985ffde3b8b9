/// A piece of SQL text with the values bound to its `?` placeholders, in text order.
/// Concatenating fragments keeps text and arguments in step.
struct SQLFragment: Hashable, Sendable {
    var sql: String
    var arguments: [Value]

    init(_ sql: String, _ arguments: [Value] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// `?` bound to `value`.
    static func bind(_ value: Value) -> SQLFragment { SQLFragment("?", [value]) }

    static func + (a: SQLFragment, b: SQLFragment) -> SQLFragment {
        SQLFragment(a.sql + b.sql, a.arguments + b.arguments)
    }

    static func + (a: SQLFragment, b: String) -> SQLFragment { SQLFragment(a.sql + b, a.arguments) }
    static func + (a: String, b: SQLFragment) -> SQLFragment { SQLFragment(a + b.sql, b.arguments) }

    /// `f(a, b, …)`
    static func call(_ function: String, _ args: [SQLFragment]) -> SQLFragment {
        function + "(" + joined(args, ", ") + ")"
    }

    /// Linear in the total size (appends in place), so chains and lists of any length stay cheap.
    static func joined(_ parts: [SQLFragment], _ separator: String) -> SQLFragment {
        guard parts.count > 1 else { return parts.first ?? SQLFragment("") }
        var sql = ""
        sql.reserveCapacity(parts.reduce(0) { $0 + $1.sql.utf8.count } + separator.utf8.count * (parts.count - 1))
        var arguments: [Value] = []
        arguments.reserveCapacity(parts.reduce(0) { $0 + $1.arguments.count })
        for (i, part) in parts.enumerated() {
            if i > 0 { sql += separator }
            sql += part.sql
            arguments += part.arguments
        }
        return SQLFragment(sql, arguments)
    }

    var statement: SQLStatement { SQLStatement(sql, arguments) }
}
