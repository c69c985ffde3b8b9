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

    static func joined(_ parts: [SQLFragment], _ separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (i, part) in parts.enumerated() { result = i == 0 ? part : result + separator + part }
        return result
    }

    var statement: SQLStatement { SQLStatement(sql, arguments) }
}
