/// Parses predicate tokens into a `PredicateNode` (recursive descent, NSPredicate precedence:
/// NOT binds tighter than AND, AND tighter than OR; `*` `/` tighter than `+` `-`).
struct PredicateParser {
    let tokens: [PredicateToken]
    var index = 0
    /// Open nesting levels (see `enter`).
    var depth = 0
    /// Arguments consumed by `%@` and `%K`, in order.
    let arguments: [PredicateArgument]
    var argumentsUsed = 0
    /// The first argument index this parse may consume (update values share the request's list).
    let firstArgument: Int
    /// The source text of each real literal, by offset, so decimals read it exactly (`1.000000000000000000001`
    /// has no Double).
    var realLiteralTexts: [Int: String] = [:]

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

    var current: PredicateToken { tokens[index] }
    func peek(_ ahead: Int) -> PredicateToken { tokens[min(index + ahead, tokens.count - 1)] }
    mutating func advance() -> PredicateToken { let t = tokens[index]; if !t.isEnd { index += 1 }; return t }

    func isKeyword(_ word: String, _ token: PredicateToken? = nil) -> Bool { (token ?? current).keyword == word }

    mutating func expect(_ symbol: String, hint: String? = nil) throws(PredicateSyntaxError) -> PredicateToken {
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

    func describe(_ token: PredicateToken) -> String {
        token.isEnd ? "end of predicate" : "'\(token.display)'"
    }

    // MARK: Nesting

    /// Opens one level of nesting (a parenthesis, NOT or `!`, unary minus, a list, a function call, a
    /// SUBQUERY); fails past `PredicateCompiler.maxNestingDepth`, so no input can exhaust the stack.
    mutating func enter(_ token: PredicateToken) throws(PredicateSyntaxError) {
        depth += 1
        guard depth <= PredicateCompiler.maxNestingDepth else {
            throw PredicateSyntaxError("nested too deeply: more than \(PredicateCompiler.maxNestingDepth) levels", offset: token.offset,
                                       length: max(1, token.length),
                                       hint: "parentheses, NOT, unary minus, lists, function calls and SUBQUERY count as levels; flatten the predicate")
        }
    }

    mutating func leave(_ levels: Int = 1) { depth -= levels }

    // MARK: Predicates

    private var isOr: Bool { isKeyword("OR") || current.isSymbol("||") }
    private var isAnd: Bool { isKeyword("AND") || current.isSymbol("&&") }
    private var isNot: Bool { isKeyword("NOT") || current.isSymbol("!") }

    /// `a OR b OR …` as one flat node.
    mutating func parseOr(first: PredicateNode? = nil) throws(PredicateSyntaxError) -> PredicateNode {
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

    static func comparisonOperator(_ token: PredicateToken) -> Comparison.Operator? {
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
}
