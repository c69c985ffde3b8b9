/// The operators under §11.4's typing: string `+`, exact decimals, nil operands, `x / 0`, date ±
/// duration; plain numbers and dates go on to `arithmetic(_:_:_:offset:)`.
extension PredicateTranslator {
    /// `a + b - c …`: a flat chain, left to right.
    mutating func arithmeticChain(_ first: PredicateExpression, _ steps: [ArithmeticStep],
                                  in scope: Position) throws(PredicateSyntaxError) -> Operand {
        var result = try operand(first, in: scope)
        var resultIsDuration = Self.isDuration(first)
        var evaluated = 0
        for step in steps {
            let rhs = try operand(step.operand, in: scope)
            let rhsIsDuration = Self.isDuration(step.operand)
            result = try combine(step.op, result, rhs, durations: (resultIsDuration, rhsIsDuration), offset: step.offset)
            resultIsDuration = resultIsDuration && rhsIsDuration
            // Each operation SQLite evaluates deepens its expression tree: stop long chains early.
            if case .typed(let t) = result, t.constant == nil { evaluated += 1 }
            if evaluated > SQLComplexity.maxChain {
                throw PredicateSyntaxError("arithmetic chain too long: more than \(SQLComplexity.maxChain) operations on stored values",
                                           offset: step.offset, hint: "SQLite evaluates at most about 1,000 nested operations")
            }
        }
        return result
    }

    static func isDuration(_ expression: PredicateExpression) -> Bool {
        switch expression {
        case .duration, .variableDuration: return true
        case .arithmetic(let first, let steps): return isDuration(first) && steps.allSatisfy { isDuration($0.operand) }
        default: return false
        }
    }

    /// One operation.
    mutating func combine(_ op: ArithmeticOperator, _ a: Operand, _ b: Operand, durations: (Bool, Bool),
                          offset: Int) throws(PredicateSyntaxError) -> Operand {
        let lhs = try scalar(a, purpose: "in arithmetic"), rhs = try scalar(b, purpose: "in arithmetic")
        let symbol = op.rawValue
        // nil in, nil out.
        let lhsNil = Self.isNil(lhs), rhsNil = Self.isNil(rhs)
        if lhsNil || rhsNil {
            guard !(lhsNil && rhsNil), case .typed(let other) = lhsNil ? rhs : lhs else { return .literal(.null, offset: lhs.offset) }
            return .typed(Typed(fragment: "NULL", type: other.type, nullable: true, constant: nil, offset: lhs.offset,
                                label: "\(Self.label(lhs)) \(symbol) \(Self.label(rhs))"))
        }
        // Strings: + joins two strings, nothing else.
        let lhsString = Self.isString(lhs), rhsString = Self.isString(rhs)
        if op == .add, Self.isTypedString(lhs) || Self.isTypedString(rhs) || ((lhsString || rhsString) && !Self.isDate(lhs) && !Self.isDate(rhs)) {
            guard lhsString && rhsString else {
                let number = lhsString ? rhs : lhs
                let hint: String
                if case .literal(let literal, _) = number { hint = "quote it to join it as text: \"\(literal.display)\"" }
                else { hint = ExpressionTyping.castHint(to: .string, Self.label(number)) }
                throw PredicateSyntaxError("+ joins strings only, but \(Self.label(number)) is \(Self.typeName(number))",
                                           offset: number.offset, hint: hint)
            }
            let x = try typedArgument(lhs)!, y = try typedArgument(rhs)!
            return .typed(Typed(fragment: "(" + x.fragment + " || " + y.fragment + ")", type: .string,
                                nullable: x.nullable || y.nullable, constant: nil, offset: lhs.offset,
                                label: SQLComplexity.label("\(x.label) + \(y.label)")))
        }
        // Decimals: exact, through the strata_decimal_* functions.
        if Self.isDecimal(lhs) || Self.isDecimal(rhs) { return try decimalArithmetic(op, lhs, rhs, offset: offset) }
        // Dates move by durations only.
        let lhsDate = Self.isDate(lhs), rhsDate = Self.isDate(rhs)
        if lhsDate != rhsDate, !Self.isStringLiteral(lhsDate ? rhs : lhs) {
            let (other, isDuration) = lhsDate ? (rhs, durations.1) : (lhs, durations.0)
            if !isDuration {
                throw PredicateSyntaxError("a date moves by a duration, but \(Self.label(other)) is \(Self.typeName(other))", offset: other.offset,
                                           hint: "write a duration, as in lastUsed + 30 days; or date(…) to build a date from seconds")
            }
        }
        // x / 0 is nil.
        if op == .divide, Self.isZero(rhs) {
            return .typed(Typed(fragment: "NULL", type: .double, nullable: true, constant: nil, offset: lhs.offset,
                                label: "\(Self.label(lhs)) / 0"))
        }
        // An integer result that may have overflowed must not widen silently: settle it first.
        var l = lhs, r = rhs
        if case .typed(let t) = l, t.mayOverflow, op == .divide || Self.isReal(r) { l = .typed(Self.settled(t)) }
        if case .typed(let t) = r, t.mayOverflow, op == .divide || Self.isReal(l) { r = .typed(Self.settled(t)) }
        // A divisor that may be infinite too: `1 / (x * 1e10)` is nil, not 0.
        if case .typed(let t) = r, t.mayBeInfinite, op == .divide { r = .typed(Self.settled(t)) }
        return try arithmetic(op, l, r, offset: offset)
    }

    static func isSmallInteger(_ o: Operand) -> Bool {
        switch o {
        case .typed(let t): return (t.type == .int16 || t.type == .int32) && !t.mayOverflow
        case .literal(.number(.integer(let i)), _): return i >= -Int64(Int32.max) && i <= Int64(Int32.max)
        default: return false
        }
    }

    /// Decimal with decimal or integer: exact; decimal with double or float is refused.
    func decimalArithmetic(_ op: ArithmeticOperator, _ lhs: Operand, _ rhs: Operand, offset: Int) throws(PredicateSyntaxError) -> Operand {
        var parts: [SQLText] = []
        var labels: [String] = []
        for side in [lhs, rhs] {
            switch side {
            case .literal(.number(let n), _):
                guard case .real(let d) = n else { parts.append(.bind(n.value)); labels.append(n.display); continue }
                guard let text = exactDecimalText(d, offset: side.offset) else { throw PredicateSyntaxError("\(d) is not a decimal", offset: side.offset) }
                parts.append(.bind(.text(text)))
                labels.append(n.display)
            case .literal(.string(let s), let o):
                parts.append(.bind(try coerce(.string(s), to: .decimal, offset: o, target: nil)))
                labels.append("\"\(s)\"")
            case .typed(let t) where t.type == .decimal || t.type.isInteger:
                let settled = Self.settled(t)
                parts.append(settled.fragment)
                labels.append(t.label)
            default:
                let other = Self.isDecimal(lhs) ? rhs : lhs
                let decimal = Self.isDecimal(lhs) ? lhs : rhs
                let hint = Self.typeName(other) == "double" || Self.typeName(other) == "float"
                    ? "convert one side: decimal(\(Self.label(other))) keeps decimal precision, double(\(Self.label(decimal))) gives a double"
                    : nil
                throw PredicateSyntaxError("decimal arithmetic takes decimals and integers, but \(Self.label(other)) is \(Self.typeName(other))",
                                           offset: other.offset, hint: hint)
            }
        }
        let function: StrataFunction
        switch op {
        case .add: function = .decimalAdd
        case .subtract: function = .decimalSub
        case .multiply: function = .decimalMul
        case .divide: function = .decimalDiv
        }
        return .typed(Typed(fragment: SQLText.strata(function, parts), type: .decimal, nullable: true, constant: nil,
                            offset: lhs.offset, label: SQLComplexity.label("\(labels[0]) \(op.rawValue) \(labels[1])")))
    }

    /// A real literal as decimal text: its source text when that is what was parsed (so
    /// `1.000000000000000000001` stays exact), else the Double's shortest digits.
    func exactDecimalText(_ d: Double, offset: Int) -> String? {
        if let text = realLiteralTexts[offset], Double(text) == d, let canonical = DecimalText.canonical(text) { return canonical }
        return ExpressionRuntime.shortest(d).flatMap(DecimalText.canonical)
    }

    // MARK: Operand tests

    static func isNil(_ o: Operand) -> Bool { if case .literal(.null, _) = o { return true } else { return false } }
    static func isStringLiteral(_ o: Operand) -> Bool { if case .literal(.string, _) = o { return true } else { return false } }
    static func isTypedString(_ o: Operand) -> Bool { if case .typed(let t) = o { return t.type.isTextual } else { return false } }
    static func isString(_ o: Operand) -> Bool {
        if case .typed(let t) = o { return t.type == .string }
        return isStringLiteral(o)
    }
    static func isDecimal(_ o: Operand) -> Bool { if case .typed(let t) = o { return t.type == .decimal } else { return false } }
    static func isDate(_ o: Operand) -> Bool { if case .typed(let t) = o { return t.type == .date } else { return false } }
    static func isReal(_ o: Operand) -> Bool {
        switch o {
        case .typed(let t): return t.type == .double || t.type == .float
        case .literal(.number(.real), _): return true
        default: return false
        }
    }
    static func isZero(_ o: Operand) -> Bool {
        switch o {
        case .literal(.number(let n), _): return n.double == 0
        case .typed(let t): return t.constant?.number.map { $0.double == 0 } ?? false
        default: return false
        }
    }

    static func label(_ o: Operand) -> String {
        switch o {
        case .typed(let t): return t.label
        case .literal(let l, _): return l.display
        default: return "the value"
        }
    }

    static func typeName(_ o: Operand) -> String {
        switch o {
        case .typed(let t): return t.type.rawValue
        case .literal(.string, _): return "a string"
        case .literal(.number(.integer), _): return "an integer"
        case .literal(.number(.real), _): return "a number"
        case .literal(.bool, _): return "a boolean"
        default: return "nil"
        }
    }
}

extension PredicateTranslator {
    /// The SQL assigning `operand` to an attribute (SPEC §11.4): literals are coerced and range-checked
    /// now; an expression must have the attribute's type after widening, else the error names the
    /// cast that converts it; an integer result goes into any integer attribute as is (the audit judges
    /// the range, 1610/1620), and an overflowed int64 result is nil.
    func assignment(_ operand: Operand, to attribute: Attribute, label: String) throws(PredicateSyntaxError) -> SQLText {
        let type = attribute.type
        switch try scalar(operand, purpose: "as a value") {
        case .literal(let literal, let offset):
            return .bind(try coerce(literal, to: type, offset: offset, target: label))
        case .typed(let value):
            guard ExpressionTyping.assignable(value.type, to: type) else {
                throw PredicateSyntaxError("\(label) is \(type.rawValue), but \(value.label) is \(value.type.rawValue)", offset: value.offset,
                                           hint: ExpressionTyping.castHint(to: type, value.label))
            }
            if let constant = value.constant, let number = constant.number, value.type != .date {
                // A folded number (2 * 3): coerced like a literal, so one out of range is found now.
                return .bind(try coerce(.number(number), to: type, offset: value.offset, target: label))
            }
            if let constant = value.constant, value.type == .date { return .bind(constant) }
            let settled = Self.settled(value)
            return Self.converted(settled, to: type)
        default:
            preconditionFailure("scalar() returns typed or literal operands")
        }
    }
}
