/// Arithmetic and negation.
extension PredicateTranslator {
    /// `x op y` for constants known at compile time: exact (checked) for two integers, except `/`,
    /// which is real division.
    func fold(_ op: ArithmeticOperator, _ x: Number, _ y: Number, offset: Int) throws(PredicateSyntaxError) -> Number {
        if case .integer(let a) = x, case .integer(let b) = y, op != .divide {
            let (value, overflow): (Int64, Bool)
            switch op {
            case .add: (value, overflow) = a.addingReportingOverflow(b)
            case .subtract: (value, overflow) = a.subtractingReportingOverflow(b)
            default: (value, overflow) = a.multipliedReportingOverflow(by: b)
            }
            guard !overflow else {
                throw PredicateSyntaxError("integer overflow: \(a) \(op.rawValue) \(b) is outside the 64-bit range", offset: offset,
                                           hint: "int64 values run from -9223372036854775808 to 9223372036854775807")
            }
            return .integer(value)
        }
        let a = x.double, b = y.double
        let result: Double
        switch op {
        case .add: result = a + b
        case .subtract: result = a - b
        case .multiply: result = a * b
        case .divide:
            guard b != 0 else { throw PredicateSyntaxError("division by zero", offset: offset) }
            result = a / b
        }
        guard result.isFinite else { throw PredicateSyntaxError("the result of \(op.rawValue) is out of range", offset: offset) }
        return .real(result)
    }

    mutating func arithmetic(_ op: ArithmeticOperator, _ a: Operand, _ b: Operand, offset: Int) throws(PredicateSyntaxError) -> Operand {
        let lhs = try scalar(a, purpose: "in arithmetic"), rhs = try scalar(b, purpose: "in arithmetic")
        // Two number literals fold to a literal.
        if case .literal(.number(let x), _) = lhs, case .literal(.number(let y), _) = rhs {
            return .literal(.number(try fold(op, x, y, offset: offset)), offset: lhs.offset)
        }
        let l = try arithmeticOperand(lhs, other: rhs), r = try arithmeticOperand(rhs, other: lhs)
        let type: AttributeType
        switch (l.type, r.type) {
        case (.date, .date):
            guard op == .subtract else {
                throw PredicateSyntaxError("dates can only be subtracted from each other", offset: offset)
            }
            type = .double
        case (.date, _):
            guard op == .add || op == .subtract else {
                throw PredicateSyntaxError("a date can only be shifted with + or -", offset: offset, hint: "as in $NOW - 30 days")
            }
            type = .date
        case (_, .date):
            guard op == .add else { throw PredicateSyntaxError("a number cannot be \(op == .subtract ? "minus" : "combined with") a date", offset: offset) }
            type = .date
        case let (x, y) where x.isInteger && y.isInteger:
            type = op == .divide ? .double : .int64
        default:
            type = .double
        }
        let constant: Value?
        if let x = l.constant?.number, let y = r.constant?.number {
            let folded = try fold(op, x, y, offset: offset)
            switch folded {
            case .integer(let i): constant = type == .int64 ? .integer(i) : .real(Double(i))
            case .real(let d): constant = .real(d)
            }
        } else {
            constant = nil
        }
        // int16/int32 values and small literals cannot leave int64 in one + - * (|x|, |y| ≤ 2^31):
        // no overflow check then, so `rating + 1` stays plain SQL.
        let mayOverflow = constant == nil && type == .int64 && !(Self.isSmallInteger(lhs) && Self.isSmallInteger(rhs))
        // A double result may leave the finite doubles (`x * 1e10` with x = 1e300), and any `/` may divide by
        // a stored 0: nil then, as an integer overflow is (§11.4), on both engines (SQLFunction.realArithmetic).
        // The quotient of two integers is never infinite. A date moved by a duration stays plain.
        let isReal = constant == nil && type == .double
        let mayBeInfinite = isReal && !(op == .divide && l.type.isInteger && r.type.isInteger)
        let fragment: SQLText
        if let constant {
            fragment = .bind(constant)
        } else if isReal {
            fragment = .function(.realArithmetic(SQLFunction.Arithmetic(rawValue: op.rawValue)!), [l.fragment, r.fragment])
        } else if type == .int64 {
            let wide = { (x: SQLText) in SQLText.function(.integerOperand(mayOverflow: mayOverflow), [x]) }
            fragment = "(" + wide(l.fragment) + " \(keyword: op.rawValue) " + wide(r.fragment) + ")"
        } else {
            fragment = "(" + l.fragment + " \(keyword: op.rawValue) " + r.fragment + ")"
        }
        return .typed(Typed(fragment: fragment, type: type, nullable: l.nullable || r.nullable || isReal, constant: constant,
                            offset: lhs.offset, label: SQLComplexity.label("\(l.label) \(op.rawValue) \(r.label)"),
                            mayOverflow: mayOverflow, mayBeInfinite: mayBeInfinite))
    }

    /// One side of an arithmetic expression as a typed value; a number literal becomes an integer or a real.
    func arithmeticOperand(_ operand: Operand, other: Operand) throws(PredicateSyntaxError) -> Typed {
        switch operand {
        case .typed(let t):
            guard t.type.isNumeric || t.type == .date else {
                throw PredicateSyntaxError("arithmetic needs numbers or dates, but \(t.label) is \(t.type.rawValue)", offset: t.offset)
            }
            if t.type == .decimal {
                var copy = t
                copy.fragment = .function(.castReal, [t.fragment])
                copy.type = .double
                return copy
            }
            return t
        case .literal(.number(let n), let offset):
            return Typed(fragment: .bind(n.value), type: n.isInteger ? .int64 : .double, nullable: false, constant: n.value,
                         offset: offset, label: n.display)
        case .literal(.string(let s), let offset):
            if case .typed(let t) = other, t.type == .date, let seconds = DateText.parse(s) {
                return Typed(fragment: .bind(.real(seconds)), type: .date, nullable: false, constant: .real(seconds),
                             offset: offset, label: "\"\(s)\"")
            }
            throw PredicateSyntaxError("arithmetic needs numbers or dates, but \"\(s)\" is a string", offset: offset)
        case .literal(let literal, let offset):
            throw PredicateSyntaxError("arithmetic needs numbers or dates, but \(literal.display) is not one", offset: offset)
        default:
            _ = try scalar(operand, purpose: "in arithmetic")
            preconditionFailure()
        }
    }

    mutating func negate(_ operand: Operand, offset: Int) throws(PredicateSyntaxError) -> Operand {
        switch try scalar(operand, purpose: "in arithmetic") {
        case .literal(.number(let n), _):
            return .literal(.number(try negated(n, offset: offset)), offset: offset)
        case .typed(let t) where t.type == .decimal:
            // Exact, like every decimal operation (SPEC §11.4).
            var copy = t
            copy.fragment = SQLText.strata(.decimalSub, [.bind(.integer(0)), t.fragment])
            copy.constant = nil
            copy.offset = offset
            copy.label = "-" + t.label
            return .typed(copy)
        case .typed(let t) where t.type.isNumeric:
            var copy = t
            if let c = t.constant, let n = c.number {
                copy.constant = try negated(n, offset: offset).value
                copy.fragment = .bind(copy.constant!)
            } else {
                copy.mayOverflow = t.type.isInteger
                copy.fragment = t.type.isInteger
                    ? "(-" + .function(.integerOperand(mayOverflow: t.type == .int64 || t.mayOverflow), [t.fragment]) + ")"
                    : "(-" + t.fragment + ")"
            }
            copy.offset = offset
            copy.label = "-" + t.label
            return .typed(copy)
        default:
            throw PredicateSyntaxError("only numbers can be negated", offset: offset)
        }
    }

    /// `-n`, checked: the smallest int64 has no positive counterpart.
    func negated(_ n: Number, offset: Int) throws(PredicateSyntaxError) -> Number {
        switch n {
        case .integer(let i):
            guard i != .min else {
                throw PredicateSyntaxError("integer overflow: -(\(i)) is outside the 64-bit range", offset: offset)
            }
            return .integer(-i)
        case .real(let d): return .real(-d)
        }
    }
}

extension Value {
    /// An integer or real value as an exact number; nil for other storage classes.
    var number: PredicateTranslator.Number? {
        switch self {
        case .integer(let i): return .integer(i)
        case .real(let d): return .real(d)
        default: return nil
        }
    }
}
