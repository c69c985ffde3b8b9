/// Parses predicate tokens into a `PredicateNode` (recursive descent, NSPredicate precedence:
/// NOT binds tighter than AND, AND tighter than OR; `*` `/` tighter than `+` `-`).
struct PredicateParser {
    private let tokens: [PredicateToken]
    private var index = 0
    /// Arguments consumed by `%@` and `%K`, in order.
    private let arguments: [PredicateArgument]
    private(set) var argumentsUsed = 0
    /// The first argument index this parse may consume (update values share the request's list).
    private let firstArgument: Int

    static let reserved: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "MATCHES",
        "ANY", "ALL", "NONE", "SOME", "SUBQUERY", "TRUEPREDICATE", "FALSEPREDICATE", "NIL", "NULL",
        "YES", "NO", "TRUE", "FALSE",
    ]

    static let durationUnits: [String: Double] = [
        "second": 1, "seconds": 1, "minute": 60, "minutes": 60, "hour": 3600, "hours": 3600,
        "day": 86_400, "days": 86_400, "week": 604_800, "weeks": 604_800,
    ]

    init(_ text: String, arguments: [PredicateArgument], firstArgument: Int = 0) throws(PredicateSyntaxError) {
        tokens = try PredicateLexer.tokenize(text)
        self.arguments = arguments
        self.firstArgument = firstArgument
    }

    /// A whole predicate; fails unless every token is used.
    mutating func parsePredicate() throws(PredicateSyntaxError) -> PredicateNode {
        if current.isEnd { throw PredicateSyntaxError("empty predicate", offset: 0, hint: "write a condition such as rating >= 3, or TRUEPREDICATE") }
        let node = try parseOr()
        try expectEnd()
        return node
    }

    /// A whole expression (an update value); fails unless every token is used.
    mutating func parseWholeExpression() throws(PredicateSyntaxError) -> PredicateExpression {
        if current.isEnd { throw PredicateSyntaxError("empty expression", offset: 0, hint: "write a value such as 3, \"text\" or rating + 1") }
        let expression = try parseExpression()
        try expectEnd()
        return expression
    }

    // MARK: Tokens

    private var current: PredicateToken { tokens[index] }
    private func peek(_ ahead: Int) -> PredicateToken { tokens[min(index + ahead, tokens.count - 1)] }
    private mutating func advance() -> PredicateToken { let t = tokens[index]; if !t.isEnd { index += 1 }; return t }

    private func isKeyword(_ word: String, _ token: PredicateToken? = nil) -> Bool { (token ?? current).keyword == word }

    private mutating func expect(_ symbol: String, hint: String? = nil) throws(PredicateSyntaxError) -> PredicateToken {
        guard current.isSymbol(symbol) else {
            throw PredicateSyntaxError("expected '\(symbol)' but found \(describe(current))", offset: current.offset,
                                       length: max(1, current.length), hint: hint)
        }
        return advance()
    }

    private func expectEnd() throws(PredicateSyntaxError) {
        guard current.isEnd else {
            let hint = current.keyword.map { ["AND", "OR"].contains($0) } == true ? nil : "join conditions with AND or OR"
            throw PredicateSyntaxError("unexpected \(describe(current))", offset: current.offset, length: max(1, current.length), hint: hint)
        }
    }

    private func describe(_ token: PredicateToken) -> String {
        token.isEnd ? "end of predicate" : "'\(token.display)'"
    }

    // MARK: Predicates

    private mutating func parseOr() throws(PredicateSyntaxError) -> PredicateNode {
        var node = try parseAnd()
        while isKeyword("OR") || current.isSymbol("||") {
            _ = advance()
            node = .or(node, try parseAnd())
        }
        return node
    }

    private mutating func parseAnd() throws(PredicateSyntaxError) -> PredicateNode {
        var node = try parseNot()
        while isKeyword("AND") || current.isSymbol("&&") {
            _ = advance()
            node = .and(node, try parseNot())
        }
        return node
    }

    private mutating func parseNot() throws(PredicateSyntaxError) -> PredicateNode {
        if isKeyword("NOT") || current.isSymbol("!") {
            let offset = advance().offset
            return .not(try parseNot(), offset: offset)
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws(PredicateSyntaxError) -> PredicateNode {
        if isKeyword("TRUEPREDICATE") { _ = advance(); return .constant(true) }
        if isKeyword("FALSEPREDICATE") { _ = advance(); return .constant(false) }
        if current.isSymbol("(") {
            // A parenthesized predicate, or a comparison starting with a parenthesized expression.
            let saved = (index, argumentsUsed)
            do throws(PredicateSyntaxError) {
                _ = advance()
                let node = try parseOr()
                _ = try expect(")", hint: "every '(' needs a matching ')'")
                return node
            } catch let predicateError {
                (index, argumentsUsed) = saved
                do throws(PredicateSyntaxError) {
                    return try parseComparison()
                } catch let comparisonError {
                    throw comparisonError.offset > predicateError.offset ? comparisonError : predicateError
                }
            }
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(PredicateSyntaxError) -> PredicateNode {
        var modifier: Comparison.Modifier?
        var modifierOffset: Int?
        if let word = current.keyword, ["ANY", "SOME", "ALL", "NONE"].contains(word) {
            modifier = word == "ALL" ? Comparison.Modifier.all : word == "NONE" ? Comparison.Modifier.none : Comparison.Modifier.any
            modifierOffset = advance().offset
        }
        let lhs = try parseExpression()
        var negated = false
        if isKeyword("NOT"), let next = peek(1).keyword, ["IN", "BETWEEN", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "MATCHES"].contains(next) {
            negated = true
            _ = advance()
        }
        let opToken = current
        guard let op = Self.comparisonOperator(opToken) else {
            let hint: String
            if case .identifier(let name, _) = opToken.kind, let close = NameSuggestion.closest(
                to: name, in: ["BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "MATCHES", "BETWEEN", "IN", "AND", "OR"]) {
                hint = "did you mean '\(close)'?"
            } else {
                hint = "comparisons are ==, !=, <, <=, >, >=, BETWEEN, IN, BEGINSWITH, CONTAINS, ENDSWITH, LIKE, MATCHES"
            }
            let found = opToken.isEnd ? "end of predicate" : "'\(opToken.display)'"
            throw PredicateSyntaxError("expected a comparison operator but found \(found)", offset: opToken.offset,
                                       length: max(1, opToken.length), hint: hint)
        }
        _ = advance()
        var options = Comparison.Options()
        if current.isSymbol("[") {
            let open = advance()
            guard case .identifier(let letters, false) = current.kind,
                  !letters.isEmpty, letters.lowercased().allSatisfy({ $0 == "c" || $0 == "d" }) else {
                throw PredicateSyntaxError("unknown comparison option \(describe(current))", offset: current.offset,
                                           length: max(1, current.length), hint: "options are [c], [d] or [cd]")
            }
            _ = advance()
            options.caseInsensitive = letters.lowercased().contains("c")
            options.diacriticInsensitive = letters.lowercased().contains("d")
            _ = try expect("]", hint: "close the options, as in [cd]")
            let allowed: Set<Comparison.Operator> = [.equal, .notEqual, .in, .beginsWith, .contains, .endsWith, .like, .matches]
            guard allowed.contains(op) else {
                throw PredicateSyntaxError("options [\(letters)] do not apply to \(op.rawValue)", offset: open.offset,
                                           hint: "[c] and [d] apply to ==, !=, IN and the string operators")
            }
        }
        let rhs = try parseExpression()
        let comparison = Comparison(modifier: modifier, modifierOffset: modifierOffset, lhs: lhs, op: op,
                                    opOffset: opToken.offset, options: options, rhs: rhs)
        return negated ? .not(.comparison(comparison), offset: opToken.offset) : .comparison(comparison)
    }

    private static func comparisonOperator(_ token: PredicateToken) -> Comparison.Operator? {
        switch token.kind {
        case .symbol("=="), .symbol("="): return .equal
        case .symbol("!="), .symbol("<>"): return .notEqual
        case .symbol("<"): return .less
        case .symbol("<="), .symbol("=<"): return .lessOrEqual
        case .symbol(">"): return .greater
        case .symbol(">="), .symbol("=>"): return .greaterOrEqual
        default: break
        }
        switch token.keyword {
        case "BETWEEN": return .between
        case "IN": return .in
        case "BEGINSWITH": return .beginsWith
        case "CONTAINS": return .contains
        case "ENDSWITH": return .endsWith
        case "LIKE": return .like
        case "MATCHES": return .matches
        default: return nil
        }
    }

    // MARK: Expressions

    private mutating func parseExpression() throws(PredicateSyntaxError) -> PredicateExpression {
        var lhs = try parseTerm()
        while current.isSymbol("+") || current.isSymbol("-") {
            let op = advance()
            lhs = .binary(op.isSymbol("+") ? .add : .subtract, lhs, try parseTerm(), offset: op.offset)
        }
        return lhs
    }

    private mutating func parseTerm() throws(PredicateSyntaxError) -> PredicateExpression {
        var lhs = try parseUnary()
        while current.isSymbol("*") || current.isSymbol("/") {
            let op = advance()
            lhs = .binary(op.isSymbol("*") ? .multiply : .divide, lhs, try parseUnary(), offset: op.offset)
        }
        return lhs
    }

    private mutating func parseUnary() throws(PredicateSyntaxError) -> PredicateExpression {
        if current.isSymbol("-") {
            let minus = advance()
            switch current.kind {
            case .integer(let i, _) where peek(1).keyword.flatMap({ Self.durationUnits[$0.lowercased()] }) == nil:
                _ = advance(); return .integer(-i, offset: minus.offset)
            case .real(let d, _) where peek(1).keyword.flatMap({ Self.durationUnits[$0.lowercased()] }) == nil:
                _ = advance(); return .real(-d, offset: minus.offset)
            default:
                return .negate(try parseUnary(), offset: minus.offset)
            }
        }
        if current.isSymbol("+") { _ = advance() }
        return try parseAtom()
    }

    private mutating func parseAtom() throws(PredicateSyntaxError) -> PredicateExpression {
        let token = current
        switch token.kind {
        case .integer(let i, _):
            _ = advance()
            if let unit = durationUnit() { return .duration(Double(i) * unit, offset: token.offset) }
            return .integer(i, offset: token.offset)
        case .real(let d, _):
            _ = advance()
            if let unit = durationUnit() { return .duration(d * unit, offset: token.offset) }
            return .real(d, offset: token.offset)
        case .string(let s):
            _ = advance()
            return .string(s, offset: token.offset)
        case .variable(let name):
            _ = advance()
            if current.isSymbol(".") {
                var path = KeyPath(variable: name, components: [], offset: token.offset)
                try parsePathTail(into: &path)
                return .keyPath(path)
            }
            return .variable(name, offset: token.offset)
        case .valueArgument:
            _ = advance()
            let index = try consumeArgument(at: token)
            if case .key = arguments[index] {
                throw PredicateSyntaxError("argument \(index + 1) is a key path, but %@ takes a value", offset: token.offset,
                                           length: 2, hint: "use %K to substitute a key path")
            }
            return .argument(index: index, offset: token.offset)
        case .keyArgument:
            _ = advance()
            let index = try consumeArgument(at: token)
            let key: String
            switch arguments[index] {
            case .key(let k), .text(let k): key = k
            default:
                throw PredicateSyntaxError("argument \(index + 1) is not a key path, but %K takes one", offset: token.offset,
                                           length: 2, hint: "pass the key as text, e.g. \"lastUsed\"")
            }
            let components = key.split(separator: ".", omittingEmptySubsequences: false).map {
                KeyPath.Component(name: String($0), offset: token.offset)
            }
            var path = KeyPath(variable: nil, components: components, offset: token.offset)
            if current.isSymbol(".") { try parsePathTail(into: &path) }
            return .keyPath(path)
        case .symbol("("):
            _ = advance()
            let inner = try parseExpression()
            _ = try expect(")", hint: "every '(' needs a matching ')'")
            return inner
        case .symbol("{"):
            _ = advance()
            var items: [PredicateExpression] = []
            if !current.isSymbol("}") {
                items.append(try parseExpression())
                while current.isSymbol(",") { _ = advance(); items.append(try parseExpression()) }
            }
            _ = try expect("}", hint: "lists look like {1, 2, 3}")
            return .list(items, offset: token.offset)
        case .aggregate(let name):
            throw PredicateSyntaxError("@\(name) must follow a to-many key path", offset: token.offset, length: token.length,
                                       hint: "write ingredients.@\(name)")
        case .identifier(let name, let escaped):
            if !escaped, let word = token.keyword {
                switch word {
                case "YES", "TRUE": _ = advance(); return .bool(true, offset: token.offset)
                case "NO", "FALSE": _ = advance(); return .bool(false, offset: token.offset)
                case "NIL", "NULL": _ = advance(); return .null(offset: token.offset)
                case "SUBQUERY": return try parseSubquery()
                default:
                    if Self.reserved.contains(word) {
                        throw PredicateSyntaxError("expected a value but found '\(name)'", offset: token.offset, length: token.length,
                                                   hint: "'\(name)' is a reserved word; write #\(name) for a key of that name")
                    }
                }
            }
            _ = advance()
            if !escaped, current.isSymbol("(") {
                _ = advance()
                var args: [PredicateExpression] = []
                if !current.isSymbol(")") {
                    args.append(try parseExpression())
                    while current.isSymbol(",") { _ = advance(); args.append(try parseExpression()) }
                }
                _ = try expect(")", hint: "close the function call")
                return .function(name, args, offset: token.offset)
            }
            var path = KeyPath(variable: nil, components: [.init(name: name, offset: token.offset)], offset: token.offset)
            if current.isSymbol(".") { try parsePathTail(into: &path) }
            return .keyPath(path)
        case .end:
            throw PredicateSyntaxError("expected a value but found end of predicate", offset: token.offset,
                                       hint: "complete the comparison, e.g. rating >= 3")
        default:
            throw PredicateSyntaxError("expected a value but found '\(token.display)'", offset: token.offset, length: max(1, token.length))
        }
    }

    private mutating func durationUnit() -> Double? {
        guard case .identifier(let name, false) = current.kind, let unit = Self.durationUnits[name.lowercased()] else { return nil }
        _ = advance()
        return unit
    }

    private mutating func consumeArgument(at token: PredicateToken) throws(PredicateSyntaxError) -> Int {
        let index = firstArgument + argumentsUsed
        guard index < arguments.count else {
            throw PredicateSyntaxError("missing argument for \(token.display): \(arguments.count) given", offset: token.offset, length: 2,
                                       hint: "pass one argument per %@ and %K, in order")
        }
        argumentsUsed += 1
        return index
    }

    /// `.name`, `.name`, …, optionally `.@count` or `.@sum.name`.
    private mutating func parsePathTail(into path: inout KeyPath) throws(PredicateSyntaxError) {
        while current.isSymbol(".") {
            _ = advance()
            let token = advance()
            switch token.kind {
            case .identifier(let name, _) where path.aggregate == nil:
                path.components.append(.init(name: name, offset: token.offset))
            case .identifier(let name, _):
                path.aggregateComponents.append(.init(name: name, offset: token.offset))
            case .aggregate(let name) where path.aggregate == nil:
                guard ["count", "sum", "avg", "min", "max"].contains(name) else {
                    throw PredicateSyntaxError("unknown aggregate '@\(name)'", offset: token.offset, length: token.length,
                                               hint: NameSuggestion.hint(for: name, in: ["count", "sum", "avg", "min", "max"]).map { "\($0) (aggregates are @count, @sum, @avg, @min, @max)" }
                                                ?? "aggregates are @count, @sum, @avg, @min, @max")
                }
                path.aggregate = name
                path.aggregateOffset = token.offset
            default:
                throw PredicateSyntaxError("expected a key after '.' but found \(describe(token))", offset: token.offset,
                                           length: max(1, token.length))
            }
        }
    }

    /// `SUBQUERY(collection, $x, predicate)` and an optional `.@count`.
    private mutating func parseSubquery() throws(PredicateSyntaxError) -> PredicateExpression {
        let start = advance()
        _ = try expect("(", hint: "SUBQUERY(ingredients, $i, $i.name == \"salt\").@count")
        guard case .expression(let collection) = try parseCollection() else { preconditionFailure() }
        _ = try expect(",", hint: "SUBQUERY(ingredients, $i, $i.name == \"salt\").@count")
        guard case .variable(let variable) = current.kind else {
            throw PredicateSyntaxError("expected a variable such as $x but found \(describe(current))", offset: current.offset,
                                       length: max(1, current.length), hint: "SUBQUERY(ingredients, $i, $i.name == \"salt\").@count")
        }
        _ = advance()
        _ = try expect(",", hint: "SUBQUERY(ingredients, $i, $i.name == \"salt\").@count")
        let predicate = try parseOr()
        _ = try expect(")", hint: "close the SUBQUERY")
        var count = false
        if current.isSymbol(".") {
            _ = advance()
            let token = advance()
            guard token.kind == .aggregate("count") else {
                throw PredicateSyntaxError("expected @count after SUBQUERY(…)", offset: token.offset, length: max(1, token.length),
                                           hint: "SUBQUERY(…).@count > 0")
            }
            count = true
        }
        return .subquery(collection: collection, variable: variable, predicate: predicate, count: count, offset: start.offset)
    }

    private enum Collection { case expression(KeyPath) }

    private mutating func parseCollection() throws(PredicateSyntaxError) -> Collection {
        let token = current
        guard case .keyPath(let path) = try parseAtom() else {
            throw PredicateSyntaxError("SUBQUERY needs a to-many key path", offset: token.offset, length: max(1, token.length),
                                       hint: "SUBQUERY(ingredients, $i, $i.name == \"salt\").@count")
        }
        return .expression(path)
    }
}
