/// Comparisons: ANY/ALL/NONE over to-many paths, nil tests, typed comparisons with coerced literals.
extension PredicateTranslator {
    mutating func comparison(_ c: Comparison, in scope: Position) throws(PredicateSyntaxError) -> Condition {
        let lhs = try operand(c.lhs, in: scope)
        if c.modifier != nil || { if case .collection = lhs { return true } else { return false } }() {
            guard case .collection(let collection) = lhs else {
                throw PredicateSyntaxError("\(c.modifier!.rawValue) needs a to-many key path", offset: c.modifierOffset ?? c.lhs.offset,
                                           hint: "as in ANY ingredients.name == \"salt\"")
            }
            guard !collection.rest.components.isEmpty else {
                throw PredicateSyntaxError("compare an attribute of '\(collection.label)', not the relationship itself",
                                           offset: collection.offset, hint: "as in ANY \(collection.label).name == \"x\", or \(collection.label).@count")
            }
            let inner = try resolve(collection.rest, in: collection.inner)
            if case .collection(let nested) = inner {
                throw PredicateSyntaxError("a key path can cross only one to-many relationship", offset: nested.offset,
                                           hint: "use SUBQUERY for nested collections")
            }
            let rhs = try operand(c.rhs, in: scope)
            let condition = try scalarComparison(inner, c.op, c.options, rhs, opOffset: c.opOffset)
            return quantify(c.modifier ?? .any, collection, condition)
        }
        let rhs = try operand(c.rhs, in: scope)
        if case .collection(let collection) = rhs {
            guard c.op == .in, !collection.rest.components.isEmpty else {
                throw PredicateSyntaxError("'\(collection.label)' is a to-many relationship", offset: collection.offset,
                                           hint: "use ANY/ALL/NONE on the left, or \(collection.label).@count")
            }
            let inner = try resolve(collection.rest, in: collection.inner)
            let condition = try scalarComparison(lhs, .equal, c.options, inner, opOffset: c.opOffset)
            return quantify(.any, collection, condition)
        }
        return try scalarComparison(lhs, c.op, c.options, rhs, opOffset: c.opOffset)
    }

    /// ANY → EXISTS, NONE → NOT EXISTS, ALL → NOT EXISTS a row that does not match.
    func quantify(_ modifier: Comparison.Modifier, _ c: Collection, _ condition: Condition) -> Condition {
        let head = "EXISTS (SELECT 1 FROM " + c.from + " WHERE " + c.correlation + " AND "
        switch modifier {
        case .any:
            return Condition(fragment: head + condition.fragment + ")", nullable: false)
        case .none:
            return Condition(fragment: "NOT " + head + condition.fragment + ")", nullable: false)
        case .all:
            return Condition(fragment: "NOT " + head + negation(condition) + ")", nullable: false)
        }
    }

    mutating func scalarComparison(_ lhs: Operand, _ op: Comparison.Operator, _ options: Comparison.Options, _ rhs: Operand,
                                   opOffset: Int) throws(PredicateSyntaxError) -> Condition {
        // nil tests.
        let lhsIsNull: Bool = { if case .literal(.null, _) = lhs { return true } else { return false } }()
        let rhsIsNull: Bool = { if case .literal(.null, _) = rhs { return true } else { return false } }()
        if lhsIsNull || rhsIsNull {
            guard op == .equal || op == .notEqual else {
                throw PredicateSyntaxError("nil can only be compared with == or !=", offset: opOffset,
                                           hint: "write key == nil or key != nil")
            }
            if lhsIsNull && rhsIsNull { return op == .equal ? .true : .false }
            let other = lhsIsNull ? rhs : lhs
            let subject: SQLText
            switch other {
            case .relationship(let pk, _, _): subject = pk
            case .typed(let t): subject = t.mayBeInfinite ? Self.settled(t).fragment : t.fragment
            case .literal: return op == .equal ? .false : .true
            default: _ = try scalar(other, purpose: "with nil"); preconditionFailure()
            }
            return Condition(fragment: subject + (op == .equal ? " IS NULL" : " IS NOT NULL"), nullable: false)
        }
        if case .relationship(_, let label, let offset) = lhs {
            throw PredicateSyntaxError("'\(label)' is a relationship; it can only be compared with nil", offset: offset,
                                       hint: "compare one of its attributes, as in \(label).name")
        }
        if case .relationship(_, let label, let offset) = rhs {
            throw PredicateSyntaxError("'\(label)' is a relationship; it can only be compared with nil", offset: offset,
                                       hint: "compare one of its attributes, as in \(label).name")
        }
        let left = try scalar(lhs, purpose: "in a comparison")
        switch op {
        case .between:
            let bounds: [Operand]
            if case .list(let items, let offset) = rhs {
                guard items.count == 2 else {
                    throw PredicateSyntaxError("BETWEEN needs exactly two values, got \(items.count)", offset: offset,
                                               hint: "as in rating BETWEEN {1, 5}")
                }
                bounds = items
            } else {
                throw PredicateSyntaxError("BETWEEN needs a list of two values", offset: rhs.offset, hint: "as in rating BETWEEN {1, 5}")
            }
            let type = try commonType(left, bounds[0], op: op, opOffset: opOffset)
            _ = try commonType(left, bounds[1], op: op, opOffset: opOffset)
            var l = try sqlValue(left, as: type), low = try sqlValue(bounds[0], as: type), high = try sqlValue(bounds[1], as: type)
            if type == .date { (l, low, high) = (Self.nativeDate(l), Self.nativeDate(low), Self.nativeDate(high)) }
            let nullable = isNullable(left) || isNullable(bounds[0]) || isNullable(bounds[1])
            if type == .decimal {
                return Condition(fragment: "(" + .strata(.decimalCompare, [l, low]) + " >= 0 AND " + .strata(.decimalCompare, [l, high]) + " <= 0)",
                                 nullable: nullable, kind: .grouped)
            }
            return Condition(fragment: l + " BETWEEN " + low + " AND " + high, nullable: nullable)
        case .in:
            guard case .list(let items, _) = rhs else {
                throw PredicateSyntaxError("IN needs a list or a to-many key path", offset: rhs.offset,
                                           hint: "as in rating IN {1, 2, 3}, or IN %@ with a list argument")
            }
            guard !items.isEmpty else { return .false }
            var type: AttributeType?
            for item in items { type = try commonType(left, try scalar(item, purpose: "in an IN list"), op: op, opOffset: opOffset) }
            var l = try sqlValue(left, as: type!)
            var values: [SQLText] = []
            for item in items { values.append(try sqlValue(item, as: type!)) }
            if type == .decimal {
                l = .strata(.decimal, [l])
                values = values.map { $0.boundValue != nil ? .native($0, .decimal) : .strata(.decimal, [$0]) }
            }
            if !options.isEmpty {
                try requireText(type!, left, "IN")
                l = fold(l, options)
                values = values.map { fold($0, options) }
            }
            let nullable = isNullable(left) || items.contains(where: isNullable)
            if values.count > Self.inlineListLimit, let json = Self.jsonArray(values) {
                // One bound JSON array instead of one variable per value: linear, and no limit on the count.
                return Condition(fragment: l + " IN (SELECT value FROM " + .function(.jsonEach(type!), [.bind(.text(json))]) + ")", nullable: nullable)
            }
            return Condition(fragment: l + " IN (" + values.joined(separator: ", ") + ")", nullable: nullable)
        default:
            break
        }
        let right = try scalar(rhs, purpose: "in a comparison")
        let type = try commonType(left, right, op: op, opOffset: opOffset)
        let bothTyped: Bool = { if case .typed = left, case .typed = right { return true } else { return false } }()
        let nullable = isNullable(left) || isNullable(right)
        if op.isStringOperator {
            try requireText(type, left.isTyped ? left : right, op.rawValue)
            let l = try sqlValue(left, as: type, raw: true), r = try sqlValue(right, as: type, raw: true)
            if op == .matches {
                let subject = options.diacriticInsensitive ? SQLText.strata(.unaccent, [l]) : l
                let pattern = options.diacriticInsensitive ? foldDiacritics(r) : r
                if case .text(let text)? = pattern.boundValue {
                    // Compiled now, with the engine the SQL function uses: a bad pattern fails before any write.
                    do {
                        try MatchesRegex.check(text, caseInsensitive: options.caseInsensitive)
                    } catch {
                        throw PredicateSyntaxError("invalid regular expression \"\(text)\"", offset: right.offset,
                                                   hint: "MATCHES takes an ICU regular expression; check brackets, parentheses and escapes")
                    }
                }
                let args = options.caseInsensitive ? [subject, pattern, .bind(.text("i"))] : [subject, pattern]
                return Condition(fragment: .strata(.matches, args), nullable: nullable)
            }
            let function: [String: StrataFunction] = ["BEGINSWITH": .beginswith, "CONTAINS": .contains, "ENDSWITH": .endswith,
                                                      "LIKE": .like]
            return Condition(fragment: .strata(function[op.rawValue]!, [fold(l, options), fold(r, options)]), nullable: nullable)
        }
        var l = try sqlValue(left, as: type), r = try sqlValue(right, as: type)
        if type == .binary, op.isOrdering {
            throw PredicateSyntaxError("binary values can only be compared with == or !=", offset: opOffset)
        }
        if type == .date { (l, r) = (Self.nativeDate(l), Self.nativeDate(r)) }
        if type == .decimal {
            let compare = SQLText.strata(.decimalCompare, [l, r])
            switch op {
            case .equal where bothTyped:
                return Condition(fragment: "(" + l + .keyword(.is) + r + " OR " + compare + " = 0)", nullable: nullable, kind: .grouped)
            case .equal: return Condition(fragment: compare + " = 0", nullable: nullable)
            case .notEqual where bothTyped:
                return Condition(fragment: "(" + l + .keyword(.isNot) + r + " AND " + compare + .keyword(.isNot) + "0)", nullable: false, kind: .grouped)
            case .notEqual: return Condition(fragment: compare + .keyword(.isNot) + "0", nullable: false)
            default: return Condition(fragment: compare + " " + sqlOperator(op) + " 0", nullable: nullable)
            }
        }
        if !options.isEmpty {
            try requireText(type, left.isTyped ? left : right, op.rawValue)
            l = fold(l, options)
            r = fold(r, options)
        }
        switch op {
        case .equal where bothTyped: return Condition(fragment: l + .keyword(.is) + r, nullable: false)
        case .equal: return Condition(fragment: l + " = " + r, nullable: nullable)
        case .notEqual: return Condition(fragment: l + .keyword(.isNot) + r, nullable: false)
        default: return Condition(fragment: l + " " + sqlOperator(op) + " " + r, nullable: nullable)
        }
    }

    /// A date operand of a comparison in the column's own form: a date column as stored (so that PostgreSQL
    /// compares `timestamptz`s and can use an index on it), anything else (seconds since 1970) converted to it,
    /// past `timestamptz`'s range as an infinity (``SQLFunction/comparedDate``).
    /// The same SQL on SQLite, where dates are stored as seconds.
    static func nativeDate(_ f: SQLText) -> SQLText {
        if f.pieces.count == 1, case .function(.storage(.date), let arguments) = f.pieces[0] { return arguments[0] }
        return .function(.comparedDate, [f])
    }

    /// IN lists longer than this bind one JSON array (`json_each`) instead of one variable per value.
    static let inlineListLimit = 32

    /// The constant values as a JSON array, or nil when one is not a bound integer, real, text or null.
    static func jsonArray(_ values: [SQLText]) -> String? {
        var json = "["
        for (i, value) in values.enumerated() {
            guard let value = value.boundValue else { return nil }
            if i > 0 { json += "," }
            switch value {
            case .null: json += "null"
            case .integer(let n): json += String(n)
            case .real(let d):
                guard d.isFinite else { return nil }
                json += "\(d)"
            case .text(let s): json += CanonicalJSON.escaped(s)
            case .blob: return nil
            }
        }
        return json + "]"
    }

    func sqlOperator(_ op: Comparison.Operator) -> SQLText {
        switch op {
        case .less: return "<"
        case .lessOrEqual: return "<="
        case .greater: return ">"
        case .greaterOrEqual: return ">="
        case .equal: return "="
        default: return "<>"
        }
    }

    func isNullable(_ operand: Operand) -> Bool {
        if case .typed(let t) = operand { return t.nullable }
        return false
    }

    /// `[c]`/`[d]` folding: literals are folded now, column values by a SQL function.
    func fold(_ f: SQLText, _ options: Comparison.Options) -> SQLText {
        guard !options.isEmpty else { return f }
        if case .text(let s)? = f.boundValue {
            return .bind(.text(TextFolding.fold(s, caseInsensitive: options.caseInsensitive,
                                               diacriticInsensitive: options.diacriticInsensitive)))
        }
        var result = f
        if options.diacriticInsensitive { result = .strata(.unaccent, [result]) }
        if options.caseInsensitive { result = .strata(.casefold, [result]) }
        return result
    }

    func foldDiacritics(_ f: SQLText) -> SQLText {
        if case .text(let s)? = f.boundValue {
            return .bind(.text(TextFolding.removeDiacritics(s)))
        }
        return .strata(.unaccent, [f])
    }

    func requireText(_ type: AttributeType, _ subject: Operand, _ op: String) throws(PredicateSyntaxError) {
        guard type.isTextual else {
            let label = (subject.typedValue?.label).map { "\($0) is \(type.rawValue)" } ?? "the values are not strings"
            throw PredicateSyntaxError("\(op) compares strings, but \(label)", offset: subject.offset,
                                       hint: type.isOrdered ? "use ==, <, > or BETWEEN" : nil)
        }
    }

    /// The type both sides are compared as; literals take the other side's type.
    func commonType(_ lhs: Operand, _ rhs: Operand, op: Comparison.Operator, opOffset: Int) throws(PredicateSyntaxError) -> AttributeType {
        switch (lhs, rhs) {
        case (.typed(let a), .typed(let b)):
            guard Self.comparable(a.type, b.type) else {
                throw PredicateSyntaxError("cannot compare \(a.label) (\(a.type.rawValue)) with \(b.label) (\(b.type.rawValue))",
                                           offset: b.offset)
            }
            if a.type == .decimal || b.type == .decimal { return .decimal }
            return a.type
        case (.typed(let a), .literal(let literal, let offset)), (.literal(let literal, let offset), .typed(let a)):
            if case .string = literal, op.isStringOperator { return a.type }
            _ = try coerce(literal, to: a.type, offset: offset, target: a.label)
            return a.type
        case (.literal(let a, _), .literal(let b, let offset)):
            switch (a, b) {
            case (.string, .string): return .string
            case (.number(.integer), .number(.integer)): return .int64
            case (.number, .number): return .double
            case (.bool, .bool): return .bool
            default:
                throw PredicateSyntaxError("cannot compare \(a.display) with \(b.display)", offset: offset)
            }
        default:
            preconditionFailure("scalar operands only")
        }
    }

    /// Whether values of two types compare: numbers with numbers, dates with dates (a number with a date only
    /// as a literal, read as seconds since 1970: `rating == $NOW` is a type error).
    static func comparable(_ a: AttributeType, _ b: AttributeType) -> Bool {
        if a == b { return true }
        if a.isNumeric && b.isNumeric { return true }
        if a.isTextual && b.isTextual { return true }
        if (a == .bool && b.isInteger) || (b == .bool && a.isInteger) { return true }
        return false
    }

    /// The operand as SQL, literals coerced to `type` and bound. `raw` keeps string literals as typed
    /// (string-operator patterns are not values of the attribute).
    func sqlValue(_ operand: Operand, as type: AttributeType, raw: Bool = false) throws(PredicateSyntaxError) -> SQLText {
        switch operand {
        // A double that may have become infinite is compared as nil (an integer overflow as its REAL).
        case .typed(let t): return t.mayBeInfinite ? Self.settled(t).fragment : t.fragment
        case .literal(let literal, let offset):
            if raw, case .string(let s) = literal { return .bind(.text(s)) }
            return .bind(try coerce(literal, to: type, offset: offset, target: nil))
        default:
            _ = try scalar(operand, purpose: "here")
            preconditionFailure()
        }
    }

    /// A literal in the storage form of `type`; `target` names the attribute in messages.
    func coerce(_ literal: Literal, to type: AttributeType, offset: Int, target: String?) throws(PredicateSyntaxError) -> Value {
        let subject = target.map { "\($0) is \(type.rawValue)" } ?? "expected \(type.rawValue)"
        do throws(CoercionError) {
            switch literal {
            case .null: return .null
            case .string(let s):
                return try type.value(fromText: s)
            case .number(let n):
                if type == .bool {
                    if n.double == 0 || n.double == 1 { return .integer(n.double == 1 ? 1 : 0) }
                    throw CoercionError("\(n.display) is not a boolean (use YES or NO)")
                }
                if type.isTextual || type == .binary {
                    throw CoercionError("\(n.display) is a number, not a \(type.rawValue)")
                }
                switch n {
                case .integer(let i): return try type.value(fromInteger: i)
                case .real(let d) where type == .decimal:
                    guard let text = exactDecimalText(d, offset: offset) else { throw CoercionError("\(d) is not a decimal") }
                    return .text(text)
                case .real(let d): return try type.value(fromNumber: d, isInteger: false)
                }
            case .bool(let b):
                guard type == .bool else { throw CoercionError("\(b ? "YES" : "NO") is a boolean, not a \(type.rawValue)") }
                return .integer(b ? 1 : 0)
            }
        } catch {
            var hint: String?
            if case .number = literal, type.isTextual { hint = "quote it to compare as text" }
            if case .string = literal, type == .date { hint = "write dates as \"2024-05-01\" or \"2024-05-01T00:00:00Z\"" }
            throw PredicateSyntaxError("\(subject), but \(error.message)", offset: offset, hint: hint)
        }
    }
}

extension PredicateTranslator.Operand {
    var isTyped: Bool { if case .typed = self { return true } else { return false } }
    var typedValue: PredicateTranslator.Typed? { if case .typed(let t) = self { return t } else { return nil } }
}
