/// Expression functions and typing (SPEC §11.1 Functions, §11.4 Expression typing): casts, coalesce,
/// string `+`, substring, trim, replace, round, abs, min, max, uuid, TERNARY, exact decimals, nil
/// propagation. Each becomes SQL over the row (built-in functions or the deterministic `strata_*`
/// functions the store registers), never a loop in Swift.
extension PredicateTranslator {
    static let expressionFunctionNames = ["lowercase", "uppercase", "length", "abs", "now", "coalesce", "substring", "trim",
                                          "replace", "round", "min", "max", "uuid", "TERNARY"]
        + ExpressionTyping.casts.keys.sorted()

    // MARK: Dispatch

    mutating func callFunction(_ name: String, _ arguments: [PredicateExpression], offset: Int,
                               in scope: Position) throws(PredicateSyntaxError) -> Operand {
        let lowered = name.lowercased()
        let length = name.unicodeScalars.count
        guard Self.expressionFunctionNames.contains(lowered) else {
            throw PredicateSyntaxError("unknown function '\(name)'", offset: offset, length: length,
                                       hint: NameSuggestion.hint(for: name, in: Self.expressionFunctionNames)
                                        ?? "functions are \(Self.expressionFunctionNames.joined(separator: ", "))")
        }
        func arity(_ range: ClosedRange<Int>) throws(PredicateSyntaxError) {
            guard !range.contains(arguments.count) else { return }
            let expected = range.count == 1 ? "\(range.lowerBound)" : range.upperBound == Int.max ? "at least \(range.lowerBound)"
                : "\(range.lowerBound) or \(range.upperBound)"
            throw PredicateSyntaxError("\(lowered)() takes \(expected) argument\(range.upperBound == 1 ? "" : "s"), got \(arguments.count)",
                                       offset: offset, length: length)
        }
        if let target = ExpressionTyping.casts[lowered] {
            try arity(1...1)
            return try cast(arguments[0], to: target, offset: offset, in: scope)
        }
        switch lowered {
        case "coalesce":
            try arity(1...Int.max)
            var values: [Operand] = []
            for argument in arguments { values.append(try scalar(try operand(argument, in: scope), purpose: "in coalesce()")) }
            guard let (type, parts) = try unified(values, function: "coalesce", offset: offset) else { return .literal(.null, offset: offset) }
            return .typed(Typed(fragment: parts.count == 1 ? parts[0] : SQLText.call("COALESCE", parts), type: type,
                                nullable: true, constant: nil, offset: offset, label: "coalesce(…)"))
        case "min", "max":
            try arity(2...Int.max)
            return try extreme(lowered, arguments, offset: offset, in: scope)
        case "round":
            try arity(1...2)
            return try round(arguments, offset: offset, in: scope)
        case "abs":
            try arity(1...1)
            return try absolute(try scalar(try operand(arguments[0], in: scope), purpose: "as a function argument"), offset: offset)
        case "substring":
            try arity(2...3)
            return try textFunction("substring", arguments, integers: Array(1..<arguments.count), sql: .strata(.substring),
                                    offset: offset, in: scope)
        case "trim":
            try arity(1...1)
            return try textFunction("trim", arguments, integers: [], sql: .strata(.trim), offset: offset, in: scope)
        case "replace":
            try arity(3...3)
            return try textFunction("replace", arguments, integers: [], sql: nil, offset: offset, in: scope)
        case "uuid":
            try arity(0...0)
            return .typed(Typed(fragment: SQLText.strata(.uuid, []), type: .uuid, nullable: false, constant: nil,
                                offset: offset, label: "uuid()"))
        case "now":
            try arity(0...0)
            return try variable("NOW", offset: offset)
        default: // lowercase, uppercase, length
            try arity(1...1)
            return try textMeasure(lowered, try scalar(try operand(arguments[0], in: scope), purpose: "as a function argument"),
                                   offset: offset)
        }
    }

    /// `lowercase(s)`, `uppercase(s)` (full Unicode mappings) and `length(s)` (grapheme clusters);
    /// string literals fold now.
    func textMeasure(_ name: String, _ argument: Operand, offset: Int) throws(PredicateSyntaxError) -> Operand {
        switch argument {
        case .literal(.string(let s), let o):
            switch name {
            case "lowercase": return .literal(.string(s.lowercased()), offset: o)
            case "uppercase": return .literal(.string(s.uppercased()), offset: o)
            default: return .literal(.number(.integer(Int64(s.count))), offset: o)
            }
        case .literal(.null, _):
            return .literal(.null, offset: offset)
        case .typed(let t) where t.type.isTextual:
            let isLength = name == "length"
            return .typed(Typed(fragment: SQLText.strata(StrataFunction(rawValue: name)!, [t.fragment]), type: isLength ? .int64 : .string,
                                nullable: t.nullable, constant: nil, offset: offset, label: "\(name)(\(t.label))"))
        default:
            throw PredicateSyntaxError("\(name)() needs a string", offset: argument.offset)
        }
    }

    // MARK: Casts

    /// `int16(x)` … `date(x)`: the value converted; nil where it does not convert.
    mutating func cast(_ argument: PredicateExpression, to target: AttributeType, offset: Int,
                       in scope: Position) throws(PredicateSyntaxError) -> Operand {
        let value: Operand
        if let quotient = try integerQuotient(argument, for: target, in: scope) {
            value = quotient
        } else {
            value = try scalar(try operand(argument, in: scope), purpose: "as a function argument")
        }
        guard let t = try typedArgument(value) else { return .literal(.null, offset: offset) }
        let label = "\(target.rawValue)(\(t.label))"
        guard t.type != .binary else {
            throw PredicateSyntaxError("\(target.rawValue)() cannot convert binary data (\(t.label))", offset: t.offset)
        }
        if t.type == target { return .typed(Typed(fragment: t.fragment, type: target, nullable: t.nullable, constant: nil, offset: offset, label: label)) }
        var sql = SQLText.strata(.cast, [t.fragment, .bind(.text(t.type.rawValue)), .bind(.text(target.rawValue))])
        if target == .string, [.int16, .int32, .int64].contains(t.type) {
            // An integer's text is SQLite's own CAST (the same digits): a mapped int → string conversion of
            // 1,000,000 rows ran 1.39x the hand-written rebuild through the function alone.
            sql = .function(.integerText, [t.fragment, sql])
        }
        return .typed(Typed(fragment: sql, type: target, nullable: true, constant: nil, offset: offset, label: label))
    }

    /// `int64(x / y)` (or int16, int32) of two integers: the quotient truncated toward zero, exact (the documented way
    /// to truncate; `x / y` alone is a double, which rounded it past 2^53: 9007199254740993 / 1 was …992, and
    /// int64's maximum / 1 nil). nil when `argument` is not one such division.
    mutating func integerQuotient(_ argument: PredicateExpression, for target: AttributeType,
                                  in scope: Position) throws(PredicateSyntaxError) -> Operand? {
        guard target.isInteger, case .arithmetic(let first, let steps) = argument, let last = steps.last, last.op == .divide else { return nil }
        // `a * b / c` is one left-associative chain: the dividend is everything before the last `/`.
        let dividend: PredicateExpression = steps.count == 1 ? first : .arithmetic(first, Array(steps.dropLast()))
        let lhs = try scalar(try operand(dividend, in: scope), purpose: "in arithmetic")
        let rhs = try scalar(try operand(last.operand, in: scope), purpose: "in arithmetic")
        if case .literal(.number, _) = lhs, case .literal(.number, _) = rhs { return nil }   // folded as before
        let l = try arithmeticOperand(lhs, other: rhs), r = try arithmeticOperand(rhs, other: lhs)
        guard l.type.isInteger, r.type.isInteger, l.constant == nil || r.constant == nil else { return nil }
        let settledL = Self.settled(l), settledR = Self.settled(r)
        return .typed(Self.settled(Typed(fragment: .function(.integerQuotient, [settledL.fragment, settledR.fragment]), type: .int64,
                                         nullable: true, constant: nil, offset: l.offset,
                                         label: SQLComplexity.label("\(l.label) / \(r.label)"), mayOverflow: true, mayBeInfinite: false)))
    }

    // MARK: Shared types

    /// A function argument as a typed value: literals get their natural type (integer → int64,
    /// real → double, string, bool), bound as parameters; an integer result that may have overflowed
    /// is settled to nil. nil for the literal nil.
    /// Where an integer is expected (`integer`), a string literal (a `--var` value) is read as one.
    func typedArgument(_ operand: Operand, integer: Bool = false) throws(PredicateSyntaxError) -> Typed? {
        if integer, case .literal(.string(let s), let offset) = operand {
            let value = try coerce(.string(s), to: .int64, offset: offset, target: nil)
            return Typed(fragment: .bind(value), type: .int64, nullable: false, constant: nil, offset: offset, label: "\"\(s)\"")
        }
        switch operand {
        case .typed(let t):
            return Self.settled(t)
        case .literal(let literal, let offset):
            let (value, type): (Value, AttributeType)
            switch literal {
            case .null: return nil
            case .string(let s): (value, type) = (.text(s), .string)
            case .number(.integer(let i)): (value, type) = (.integer(i), .int64)
            case .number(.real(let d)): (value, type) = (.real(d), .double)
            case .bool(let b): (value, type) = (.integer(b ? 1 : 0), .bool)
            }
            return Typed(fragment: .bind(value), type: type, nullable: false, constant: nil, offset: offset, label: literal.display)
        default:
            _ = try scalar(operand, purpose: "as a function argument")
            preconditionFailure("scalar() returns typed or literal operands")
        }
    }

    /// Integer arithmetic SQLite evaluated may have overflowed into a REAL, double arithmetic into an
    /// infinity: nil instead (§11.4).
    static func settled(_ t: Typed) -> Typed {
        guard t.mayOverflow || t.mayBeInfinite else { return t }
        var copy = t
        copy.fragment = t.mayOverflow ? SQLText.strata(.int64, [t.fragment]) : .function(.finiteReal, [t.fragment])
        copy.mayOverflow = false
        copy.mayBeInfinite = false
        copy.nullable = true
        return copy
    }

    /// Values that must share one type (coalesce's arguments, TERNARY's branches, min/max), converted
    /// to it; nil when every value is the literal nil.
    func unified(_ values: [Operand], function: String, offset: Int) throws(PredicateSyntaxError) -> (AttributeType, [SQLText])? {
        var type: AttributeType?
        var first: Typed?
        // Typed values decide the type; literals then follow it (a string literal may be a date).
        for value in values {
            guard case .typed(let t) = value else { continue }
            try unify(&type, &first, with: t, function: function)
        }
        if type == nil {
            for value in values {
                guard case .literal(let literal, _) = value, let t = try typedArgument(value) else { continue }
                if case .null = literal { continue }
                try unify(&type, &first, with: t, function: function)
            }
        }
        guard var type else { return nil }
        // Literals widen like typed values: an integer literal is an int64 (`max(rating, 40000)` is no
        // int16 error), a real one a double (`coalesce(rating, 0.5)`).
        for case .literal(.number(let n), _) in values where type.isInteger || type == .float {
            type = n.isInteger && type.isInteger ? .int64 : .double
            if type == .double { break }
        }
        var parts: [SQLText] = []
        for value in values {
            switch value {
            case .literal(.null, _):
                parts.append("NULL")
            case .literal(let literal, let o):
                // A decimal literal is bound as its text: numeric on PostgreSQL, as the column it goes with.
                let bound = SQLText.bind(try coerce(literal, to: type, offset: o, target: nil))
                parts.append(type == .decimal ? .native(bound, .decimal) : bound)
            default:
                guard let t = try typedArgument(value) else { parts.append("NULL"); continue }
                parts.append(Self.converted(t, to: type))
            }
        }
        return (type, parts)
    }

    private func unify(_ type: inout AttributeType?, _ first: inout Typed?, with t: Typed, function: String) throws(PredicateSyntaxError) {
        guard let current = type, let head = first else { type = t.type; first = t; return }
        guard let common = ExpressionTyping.common(current, t.type) else {
            throw PredicateSyntaxError("\(function)'s values must share one type, but \(head.label) is \(current.rawValue) and \(t.label) is \(t.type.rawValue)",
                                       offset: t.offset, hint: ExpressionTyping.castHint(to: current, t.label))
        }
        type = common
    }

    /// `t` as a value of `type` (a widening `common` allowed).
    static func converted(_ t: Typed, to type: AttributeType) -> SQLText {
        if t.type == type { return t.fragment }
        if type == .decimal { return SQLText.strata(.cast, [t.fragment, .bind(.text(t.type.rawValue)), .bind(.text("decimal"))]) }
        if type == .double || type == .float { return .function(.castReal, [t.fragment]) }
        return t.fragment
    }

    // MARK: Functions

    /// `min(a, b, …)` / `max(a, b, …)`: nil if any argument is; numbers, dates and strings.
    mutating func extreme(_ name: String, _ arguments: [PredicateExpression], offset: Int,
                          in scope: Position) throws(PredicateSyntaxError) -> Operand {
        var values: [Operand] = []
        for argument in arguments { values.append(try scalar(try operand(argument, in: scope), purpose: "in \(name)()")) }
        if values.contains(where: { if case .literal(.null, _) = $0 { return true } else { return false } }) {
            return .literal(.null, offset: offset)
        }
        guard let (type, parts) = try unified(values, function: name, offset: offset) else { return .literal(.null, offset: offset) }
        guard type.isOrdered || type == .string else {
            throw PredicateSyntaxError("\(name)() compares numbers, dates or strings, but its values are \(type.rawValue)", offset: offset)
        }
        let sql: SQLText
        if type == .decimal {
            sql = parts.dropFirst().reduce(parts[0]) { SQLText.strata(name == "min" ? .decimalMin : .decimalMax, [$0, $1]) }
        } else {
            sql = .function(.extreme(isMinimum: name == "min"), parts)
        }
        return .typed(Typed(fragment: sql, type: type, nullable: true, constant: nil, offset: offset, label: "\(name)(…)"))
    }

    /// `abs(x)`: integers stay integers (the smallest int64 has no absolute value: nil once
    /// assigned), decimals stay exact.
    func absolute(_ value: Operand, offset: Int) throws(PredicateSyntaxError) -> Operand {
        if case .literal(.number(let n), let o) = value {
            if case .real(let d) = n { return .literal(.number(.real(Swift.abs(d))), offset: o) }
            return .literal(.number(n.double < 0 ? try negated(n, offset: o) : n), offset: o)
        }
        // An integer that may have overflowed stays unsettled: strata_abs keeps the REAL, and the
        // assignment settles it once (nesting stays flat).
        var argument: Typed? = nil
        if case .typed(let t) = value { argument = t } else { argument = try typedArgument(value) }
        guard let x = argument else { return .literal(.null, offset: offset) }
        let label = "abs(\(x.label))"
        switch x.type {
        case .decimal:
            return .typed(Typed(fragment: SQLText.strata(.decimalAbs, [x.fragment]), type: .decimal,
                                nullable: x.nullable, constant: nil, offset: offset, label: label))
        case let type where type.isInteger:
            // SQLite's abs() raises an error on the smallest int64; strata_abs yields a REAL there, which
            // comparisons handle and assignments settle to nil.
            let operand = SQLText.function(.integerOperand(mayOverflow: type == .int64 || x.mayOverflow), [x.fragment])
            return .typed(Typed(fragment: SQLText.strata(.abs, [operand]), type: type, nullable: x.nullable,
                                constant: nil, offset: offset, label: label, mayOverflow: true))
        case .double, .float:
            return .typed(Typed(fragment: SQLText.call("abs", [x.fragment]), type: x.type, nullable: x.nullable,
                                constant: nil, offset: offset, label: label, mayBeInfinite: x.mayBeInfinite))
        default:
            throw PredicateSyntaxError("abs() needs a number, but \(x.label) is \(x.type.rawValue)", offset: x.offset)
        }
    }

    /// `round(x[, places])`, half away from zero: integers stay int64, doubles and floats give a
    /// double, decimals a decimal.
    mutating func round(_ arguments: [PredicateExpression], offset: Int, in scope: Position) throws(PredicateSyntaxError) -> Operand {
        let value = try scalar(try operand(arguments[0], in: scope), purpose: "as a function argument")
        guard let x = try typedArgument(value) else { return .literal(.null, offset: offset) }
        guard x.type.isNumeric else { throw PredicateSyntaxError("round() needs a number, but \(x.label) is \(x.type.rawValue)", offset: x.offset) }
        var places: SQLText = .bind(.integer(0))
        if arguments.count == 2 {
            let p = try scalar(try operand(arguments[1], in: scope), purpose: "as a function argument")
            guard let digits = try typedArgument(p, integer: true) else { return .literal(.null, offset: offset) }
            guard digits.type.isInteger else {
                throw PredicateSyntaxError("round()'s places must be an integer, but \(digits.label) is \(digits.type.rawValue)", offset: digits.offset)
            }
            places = digits.fragment
        }
        let type: AttributeType = x.type.isInteger ? .int64 : x.type == .decimal ? .decimal : .double
        let sql = SQLText.function(.round(type), [type == .double ? .function(.castReal, [x.fragment]) : x.fragment, places])
        return .typed(Typed(fragment: sql, type: type, nullable: true, constant: nil,
                            offset: offset, label: "round(\(x.label))"))
    }

    /// substring, trim, replace: string arguments (those at `integers` are integers); a string result.
    mutating func textFunction(_ name: String, _ arguments: [PredicateExpression], integers: [Int], sql function: SQLFunction?,
                               offset: Int, in scope: Position) throws(PredicateSyntaxError) -> Operand {
        var parts: [SQLText] = []
        var nullable = false
        var label = ""
        for (i, argument) in arguments.enumerated() {
            let value = try scalar(try operand(argument, in: scope), purpose: "as a function argument")
            guard let t = try typedArgument(value, integer: integers.contains(i)) else { return .literal(.null, offset: offset) }
            if integers.contains(i) {
                guard t.type.isInteger else {
                    throw PredicateSyntaxError("\(name)()'s argument \(i + 1) must be an integer, but \(t.label) is \(t.type.rawValue)", offset: t.offset)
                }
            } else if t.type != .string {
                throw PredicateSyntaxError("\(name)() needs strings, but \(t.label) is \(t.type.rawValue)", offset: t.offset,
                                           hint: ExpressionTyping.castHint(to: .string, t.label))
            }
            if i == 0 { label = t.label }
            nullable = nullable || t.nullable
            parts.append(t.fragment)
        }
        // substring gives nil for a negative length, whatever its arguments.
        return .typed(Typed(fragment: function.map { .function($0, parts) } ?? .call(name, parts), type: .string, nullable: nullable || name == "substring", constant: nil,
                            offset: offset, label: "\(name)(\(label))"))
    }

    /// `TERNARY(predicate, a, b)`: `a` where the predicate holds for the row, else `b` (two-valued:
    /// a comparison with nil is false, so `b`).
    mutating func ternary(_ condition: PredicateNode, _ whenTrue: PredicateExpression, _ whenFalse: PredicateExpression,
                          offset: Int, in scope: Position) throws(PredicateSyntaxError) -> Operand {
        let c = try predicate(condition, in: scope)
        let a = try scalar(try operand(whenTrue, in: scope), purpose: "in TERNARY"),
            b = try scalar(try operand(whenFalse, in: scope), purpose: "in TERNARY")
        guard let (type, parts) = try unified([a, b], function: "TERNARY", offset: offset) else { return .literal(.null, offset: offset) }
        let sql: SQLText = "CASE WHEN " + c.fragment + " THEN " + parts[0] + " ELSE " + parts[1] + " END"
        return .typed(Typed(fragment: sql, type: type, nullable: true, constant: nil, offset: offset, label: "TERNARY(…)"))
    }
}
