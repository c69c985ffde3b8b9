extension AuditPlanner {
    /// optional, min/max (numbers, dates, integer ranges), minLength/maxLength and pattern rules of one attribute.
    /// NULL passes every rule but `optional`, as in Core Data.
    func attributeRules(_ a: Attribute, column: String, _ context: RuleContext) -> [AuditRule] {
        let col = ColumnName(column, qualifier: "t")
        // The column in SQLite's storage form (a date as seconds, a bool as 0/1), as bounds and reports
        // compare and show it; the column itself on SQLite.
        let value: SQLText = .storage("\(col)", a.type)
        // What samples show: a text whole (SQLite hands a text over only up to its first NUL).
        let shown: SQLText = a.type.isTextual ? .function(.wholeText, [value]) : value
        var rules: [AuditRule] = []
        func add(_ kind: AuditRule.Kind, _ code: AuditCode, _ constraint: String, _ condition: SQLText, lengthLimit: Int? = nil) {
            var rule = context.rule(a.name, kind, code, constraint, .row(condition: condition, value: shown), valueType: a.type)
            rule.lengthLimit = lengthLimit
            rules.append(rule)
        }

        if !a.isOptional {
            add(.optional, .missingMandatory, "not optional", "\(col) IS NULL")
        }

        // Bounds: numbers (integer ranges included) and dates.
        // Decimals are canonical TEXT, compared numerically by strata_decimal_compare.
        let isDate = a.type == .date
        func compare(_ op: String, _ bound: Value) -> SQLText {
            a.type == .decimal ? .strata(.decimalCompare, [value, "\(bound)"]) + " \(keyword: op) 0" : value + " \(keyword: op) \(bound)"
        }
        if let (bound, label) = upperBound(a) {
            add(.max, isDate ? .dateTooLate : .tooLarge, label, compare(">", bound))
        }
        if let (bound, label) = lowerBound(a) {
            add(.min, isDate ? .dateTooSoon : .tooSmall, label, compare("<", bound))
        }

        // Lengths in Characters (grapheme clusters, strata_length), with the code-point `length` in front:
        // Characters ≤ code points, equal for ASCII without CR, and zero only when empty. On PostgreSQL
        // the Characters of other text are NULL in SQL, leaving those rows undecided: the auditor counts
        // them in Swift (`lengthLimit`, SPEC §14.2).
        if a.type.isTextual {
            let characters = SQLText.function(.auditCharacters, ["\(value)"])
            if let max = a.maxLength {
                let bound = Value.integer(Int64(max))
                add(.maxLength, .tooLong, "maxLength \(max)",
                    .function(.mayExceedCharacters, [value, "\(bound)"]) + " AND " + characters + " > \(bound)", lengthLimit: max)
            }
            if let min = a.minLength, min > 0 {
                let bound = Value.integer(Int64(min))
                let mayDiffer = SQLText.function(.mayDifferInCharacters, ["\(value)"])
                let fewer = SQLText.function(.surelyFewerCharacters, [value, "\(bound)"])
                let condition: SQLText = min == 1
                    ? fewer
                    : "(" + fewer + " OR (" + mayDiffer + " AND " + characters + " < \(bound)))"
                add(.minLength, .tooShort, "minLength \(min)", condition, lengthLimit: min == 1 ? nil : min)
            }
        }

        // Whole-value regular expression, through strata_matches.
        if let pattern = a.pattern, a.type.isTextual {
            add(.pattern, .pattern, "matches \(Value.text(pattern))",
                "\(value) IS NOT NULL AND COALESCE(" + .strata(.matches, [shown, "\(pattern)"]) + ", " + .keyword(.false)
                    + ") = " + .keyword(.false))
        }
        return rules
    }

    /// The value above which the attribute is too large (or too late), bound in the column's comparison form. An
    /// integer type's range is a bound of its own, int64's too: on SQLite a statement (a hook's `sql:`, an app)
    /// can leave a REAL past it in the column, `9223372036854775807 + 1` for one, which SQLite compares exactly.
    private func upperBound(_ a: Attribute) -> (Value, String)? {
        let declared = a.maxValue.flatMap { comparable($0, a.type) }
        if let range = a.type.integerRange {
            if let declared, let d = declared.doubleValue, d <= Double(range.upperBound) {
                return (declared, "max \(display(declared, a.type))")
            }
            return (.integer(range.upperBound), "\(a.type.rawValue) max \(range.upperBound)")
        }
        return declared.map { ($0, "max \(display($0, a.type))") }
    }

    private func lowerBound(_ a: Attribute) -> (Value, String)? {
        let declared = a.minValue.flatMap { comparable($0, a.type) }
        if let range = a.type.integerRange {
            if let declared, let d = declared.doubleValue, d >= Double(range.lowerBound) {
                return (declared, "min \(display(declared, a.type))")
            }
            return (.integer(range.lowerBound), "\(a.type.rawValue) min \(range.lowerBound)")
        }
        return declared.map { ($0, "min \(display($0, a.type))") }
    }

    /// A bound as the SQL comparison needs it (decimals as canonical text).
    private func comparable(_ bound: Value, _ type: AttributeType) -> Value? {
        guard type.isOrdered else { return nil }
        if type == .decimal, case .text(let text) = bound { return DecimalText.canonical(text).map(Value.text) }
        if type == .decimal, let d = bound.doubleValue { return DecimalText.canonical(String(d)).map(Value.text) }
        return bound
    }

    private func display(_ value: Value, _ type: AttributeType) -> String {
        AuditSample.display(value, as: type) ?? "nil"
    }
}
