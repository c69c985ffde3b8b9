/// Expressions: arithmetic chains, unary signs, literals, key paths, lists, function calls, SUBQUERY.
extension PredicateParser {
    // MARK: Expressions

    /// `a + b - c`: a flat chain. `atom` is a first operand already parsed (a parenthesized expression).
    mutating func parseExpression(startingWith atom: PredicateExpression? = nil) throws(PredicateSyntaxError) -> PredicateExpression {
        let first = try parseTerm(startingWith: atom)
        var steps: [ArithmeticStep] = []
        while current.isSymbol("+") || current.isSymbol("-") {
            let op = advance()
            steps.append(ArithmeticStep(op: op.isSymbol("+") ? .add : .subtract, operand: try parseTerm(), offset: op.offset))
        }
        return steps.isEmpty ? first : .arithmetic(first, steps)
    }

    mutating func parseTerm(startingWith atom: PredicateExpression? = nil) throws(PredicateSyntaxError) -> PredicateExpression {
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
    mutating func parseUnary() throws(PredicateSyntaxError) -> PredicateExpression {
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
        } else if let minus = minuses.last, !isDuration, case .real(let d, let text) = current.kind {
            _ = advance()
            expression = .real(-d, offset: minus.offset)
            realLiteralTexts[minus.offset] = "-" + text
            minuses.removeLast()
            leave()
        } else {
            expression = try parseAtom()
        }
        for minus in minuses.reversed() { expression = .negate(expression, offset: minus.offset) }
        return expression
    }

    mutating func parseAtom() throws(PredicateSyntaxError) -> PredicateExpression {
        let token = current
        switch token.kind {
        case .integer(let magnitude, let text):
            _ = advance()
            // A duration's count is an int64 too (its sign, if any, applies to the duration).
            guard let i = Int64(exactly: magnitude) else {
                throw PredicateSyntaxError("integer \(text) is out of the 64-bit range", offset: token.offset, length: token.length,
                                           hint: "the largest int64 is 9223372036854775807; -9223372036854775808 is the smallest")
            }
            if let unit = durationUnit() { return .duration(Double(magnitude) * unit, offset: token.offset) }
            return .integer(i, offset: token.offset)
        case .real(let d, let text):
            _ = advance()
            if let unit = durationUnit() { return .duration(d * unit, offset: token.offset) }
            realLiteralTexts[token.offset] = text
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
            if !escaped, token.keyword == "TERNARY", peek(1).isSymbol("(") { return try parseTernary() }
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

    mutating func durationUnit() -> Double? {
        guard case .identifier(let name, false) = current.kind, let unit = Self.durationUnits[name.lowercased()] else { return nil }
        _ = advance()
        return unit
    }

    mutating func consumeArgument(at token: PredicateToken) throws(PredicateSyntaxError) -> Int {
        let index = firstArgument + argumentsUsed
        guard index < arguments.count else {
            throw PredicateSyntaxError("missing argument for \(token.display): \(arguments.count) given", offset: token.offset, length: 2,
                                       hint: "pass one argument per %@ and %K, in order")
        }
        argumentsUsed += 1
        return index
    }

    /// `.name`, `.name`, …, optionally `.@count` or `.@sum.name`.
    mutating func parsePathTail(into path: inout KeyPath) throws(PredicateSyntaxError) {
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
    mutating func parseSubquery() throws(PredicateSyntaxError) -> PredicateExpression {
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

    enum Collection { case expression(KeyPath) }

    mutating func parseCollection() throws(PredicateSyntaxError) -> Collection {
        let token = current
        guard case .keyPath(let path) = try parseAtom() else {
            throw PredicateSyntaxError("SUBQUERY needs a to-many key path", offset: token.offset, length: max(1, token.length),
                                       hint: "SUBQUERY(ingredients, $i, $i.name == \"salt\").@count")
        }
        return .expression(path)
    }
}
