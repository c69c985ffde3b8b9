/// Parses predicate tokens into a `PredicateNode` (recursive descent, NSPredicate precedence:
/// NOT binds tighter than AND, AND tighter than OR; `*` `/` tighter than `+` `-`).
struct PredicateParser {
    private let tokens: [PredicateToken]
    private var index = 0
    /// Open nesting levels (see `enter`).
    private var depth = 0
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

    // MARK: Nesting

    /// Opens one level of nesting (a parenthesis, NOT or `!`, unary minus, a list, a function call, a
    /// SUBQUERY); fails past `PredicateCompiler.maxNestingDepth`, so no input can exhaust the stack.
    private mutating func enter(_ token: PredicateToken) throws(PredicateSyntaxError) {
        depth += 1
        guard depth <= PredicateCompiler.maxNestingDepth else {
            throw PredicateSyntaxError("nested too deeply: more than \(PredicateCompiler.maxNestingDepth) levels", offset: token.offset,
                                       length: max(1, token.length),
                                       hint: "parentheses, NOT, unary minus, lists, function calls and SUBQUERY count as levels; flatten the predicate")
        }
    }

    private mutating func leave(_ levels: Int = 1) { depth -= levels }

    // MARK: Predicates

    private var isOr: Bool { isKeyword("OR") || current.isSymbol("||") }
    private var isAnd: Bool { isKeyword("AND") || current.isSymbol("&&") }
    private var isNot: Bool { isKeyword("NOT") || current.isSymbol("!") }

    /// `a OR b OR …` as one flat node.
    private mutating func parseOr(first: PredicateNode? = nil) throws(PredicateSyntaxError) -> PredicateNode {
        let head = try parseAnd(first: first)
        guard isOr else { return head }
        var terms = [head]
        while isOr {
            _ = advance()
            terms.append(try parseAnd())
        }
        return .or(terms)
    }

    /// `a AND b AND …` as one flat node.
    private mutating func parseAnd(first: PredicateNode? = nil) throws(PredicateSyntaxError) -> PredicateNode {
        let head: PredicateNode
        if let first { head = first } else { head = try parseNot() }
        guard isAnd else { return head }
        var terms = [head]
        while isAnd {
            _ = advance()
            terms.append(try parseNot())
        }
        return .and(terms)
    }

    /// A run of NOTs read in a loop; logic is two-valued (SPEC §10), so NOT NOT p is p.
    private mutating func parseNot() throws(PredicateSyntaxError) -> PredicateNode {
        var count = 0
        var firstOffset = 0
        while isNot {
            let token = advance()
            try enter(token)
            if count == 0 { firstOffset = token.offset }
            count += 1
        }
        let node = try parsePrimary()
        leave(count)
        return count % 2 == 1 ? .not(node, offset: firstOffset) : node
    }

    private mutating func parsePrimary() throws(PredicateSyntaxError) -> PredicateNode {
        if isKeyword("TRUEPREDICATE") { _ = advance(); return .constant(true) }
        if isKeyword("FALSEPREDICATE") { _ = advance(); return .constant(false) }
        switch try parseComparisonOrExpression() {
        case .predicate(let node): return node
        case .expression(let lhs): return try parseComparisonRest(modifier: nil, modifierOffset: nil, lhs: lhs)
        }
    }

    /// What a parenthesis holds: a predicate, or an expression that a comparison continues
    /// (`(rating + 1) * 2 > 3`). Decided in one pass, without backtracking.
    private enum Group {
        case predicate(PredicateNode)
        case expression(PredicateExpression)
    }

    /// A comparison, a parenthesized predicate, or an expression not followed by a comparison operator.
    private mutating func parseComparisonOrExpression() throws(PredicateSyntaxError) -> Group {
        if let word = current.keyword, ["ANY", "SOME", "ALL", "NONE"].contains(word) {
            let modifier: Comparison.Modifier = word == "ALL" ? .all : word == "NONE" ? .none : .any
            let offset = advance().offset
            let lhs = try parseExpression()
            return .predicate(try parseComparisonRest(modifier: modifier, modifierOffset: offset, lhs: lhs))
        }
        let lhs: PredicateExpression
        if current.isSymbol("(") {
            let open = advance()
            try enter(open)
            let inner = try parseGroupContents()
            _ = try expect(")", hint: "every '(' needs a matching ')'")
            leave()
            switch inner {
            case .predicate(let node): return .predicate(node)
            case .expression(let e): lhs = try parseExpression(startingWith: e)
            }
        } else {
            lhs = try parseExpression()
        }
        if Self.comparisonOperator(current) != nil || isNegatedOperator {
            return .predicate(try parseComparisonRest(modifier: nil, modifierOffset: nil, lhs: lhs))
        }
        return .expression(lhs)
    }

    /// Inside `( … )`: a predicate (an OR/AND chain) or a lone expression.
    private mutating func parseGroupContents() throws(PredicateSyntaxError) -> Group {
        if isNot || isKeyword("TRUEPREDICATE") || isKeyword("FALSEPREDICATE") { return .predicate(try parseOr()) }
        switch try parseComparisonOrExpression() {
        case .predicate(let node): return .predicate(try parseOr(first: node))
        case .expression(let e):
            if current.isSymbol(")") { return .expression(e) }
            return .predicate(try parseComparisonRest(modifier: nil, modifierOffset: nil, lhs: e))
        }
    }

    private var isNegatedOperator: Bool {
        guard isKeyword("NOT"), let next = peek(1).keyword else { return false }
        return ["IN", "BETWEEN", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "MATCHES"].contains(next)
    }

    /// The operator, options and right-hand side of a comparison whose left side is parsed.
    private mutating func parseComparisonRest(modifier: Comparison.Modifier?, modifierOffset: Int?,
                                              lhs: PredicateExpression) throws(PredicateSyntaxError) -> PredicateNode {
        var negated = false
        if isNegatedOperator {
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

    /// `a + b - c`: a flat chain. `atom` is a first operand already parsed (a parenthesized expression).
    private mutating func parseExpression(startingWith atom: PredicateExpression? = nil) throws(PredicateSyntaxError) -> PredicateExpression {
        let first = try parseTerm(startingWith: atom)
        var steps: [ArithmeticStep] = []
        while current.isSymbol("+") || current.isSymbol("-") {
            let op = advance()
            steps.append(ArithmeticStep(op: op.isSymbol("+") ? .add : .subtract, operand: try parseTerm(), offset: op.offset))
        }
        return steps.isEmpty ? first : .arithmetic(first, steps)
    }

    private mutating func parseTerm(startingWith atom: PredicateExpression? = nil) throws(PredicateSyntaxError) -> PredicateExpression {
        let first: PredicateExpression
        if let atom { first = atom } else { first = try parseUnary() }
        var steps: [ArithmeticStep] = []
        while current.isSymbol("*") || current.isSymbol("/") {
            let op = advance()
            steps.append(ArithmeticStep(op: op.isSymbol("*") ? .multiply : .divide, operand: try parseUnary(), offset: op.offset))
        }
        return steps.isEmpty ? first : .arithmetic(first, steps)
    }

    /// Unary signs, read in a loop; a minus directly before a number literal is part of the literal
    /// (so `-9223372036854775808` is the smallest int64).
    private mutating func parseUnary() throws(PredicateSyntaxError) -> PredicateExpression {
        var minuses: [PredicateToken] = []
        while current.isSymbol("-") || current.isSymbol("+") {
            let sign = advance()
            if sign.isSymbol("-") {
                try enter(sign)
                minuses.append(sign)
            }
        }
        defer { leave(minuses.count) }
        var expression: PredicateExpression
        let isDuration = peek(1).keyword.flatMap({ Self.durationUnits[$0.lowercased()] }) != nil
        if let minus = minuses.last, !isDuration, case .integer(let magnitude, _) = current.kind {
            _ = advance()
            expression = .integer(Int64(bitPattern: 0 &- magnitude), offset: minus.offset)
            minuses.removeLast()
            leave()
        } else if let minus = minuses.last, !isDuration, case .real(let d, _) = current.kind {
            _ = advance()
            expression = .real(-d, offset: minus.offset)
            minuses.removeLast()
            leave()
        } else {
            expression = try parseAtom()
        }
        for minus in minuses.reversed() { expression = .negate(expression, offset: minus.offset) }
        return expression
    }

    private mutating func parseAtom() throws(PredicateSyntaxError) -> PredicateExpression {
        let token = current
        switch token.kind {
        case .integer(let magnitude, let text):
            _ = advance()
            if let unit = durationUnit() { return .duration(Double(magnitude) * unit, offset: token.offset) }
            guard let i = Int64(exactly: magnitude) else {
                throw PredicateSyntaxError("integer \(text) is out of the 64-bit range", offset: token.offset, length: token.length,
                                           hint: "the largest int64 is 9223372036854775807; -9223372036854775808 is the smallest")
            }
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
            if let unit = durationUnit() { return .variableDuration(name, unit: unit, offset: token.offset) }
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
            try enter(advance())
            let inner = try parseExpression()
            _ = try expect(")", hint: "every '(' needs a matching ')'")
            leave()
            return inner
        case .symbol("{"):
            try enter(advance())
            var items: [PredicateExpression] = []
            if !current.isSymbol("}") {
                items.append(try parseExpression())
                while current.isSymbol(",") { _ = advance(); items.append(try parseExpression()) }
            }
            _ = try expect("}", hint: "lists look like {1, 2, 3}")
            leave()
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
                try enter(advance())
                var args: [PredicateExpression] = []
                if !current.isSymbol(")") {
                    args.append(try parseExpression())
                    while current.isSymbol(",") { _ = advance(); args.append(try parseExpression()) }
                }
                _ = try expect(")", hint: "close the function call")
                leave()
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
        try enter(start)
        defer { leave() }
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
