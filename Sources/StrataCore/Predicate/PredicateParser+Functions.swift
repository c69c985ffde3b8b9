/// Function-call syntax beyond `name(expression, …)`.
extension PredicateParser {
    /// `TERNARY(predicate, a, b)`: the first argument is a predicate over the same row.
    mutating func parseTernary() throws(PredicateSyntaxError) -> PredicateExpression {
        let start = advance()
        try enter(start)
        defer { leave() }
        let hint = "TERNARY(rating > 3, \"good\", \"poor\")"
        _ = try expect("(", hint: hint)
        let condition = try parseOr()
        _ = try expect(",", hint: hint)
        let whenTrue = try parseExpression()
        _ = try expect(",", hint: hint)
        let whenFalse = try parseExpression()
        _ = try expect(")", hint: "TERNARY takes a predicate and two values: \(hint)")
        return .ternary(condition, whenTrue, whenFalse, offset: start.offset)
    }
}
