extension AuditPlanner {
    /// optional, min/max (numbers, dates, integer ranges), minLength/maxLength and pattern rules of one attribute.
    /// NULL passes every rule but `optional`, as in Core Data.
    func attributeRules(_ a: Attribute, column: String, _ context: RuleContext) -> [AuditRule] {
        let col = ColumnName(column, qualifier: "t")
        let value: SQLText = "\(col)"
        var rules: [AuditRule] = []
        func add(_ kind: AuditRule.Kind, _ code: AuditCode, _ constraint: String, _ condition: SQLText) {
            rules.append(context.rule(a.name, kind, code, constraint, .row(condition: condition, value: value), valueType: a.type))
        }

        if !a.isOptional {
            add(.optional, .missingMandatory, "not optional", "\(col) IS NULL")
        }

        // Bounds: numbers (integer ranges included) and dates.
        // Decimals are canonical TEXT, compared numerically by strata_decimal_compare.
        let isDate = a.type == .date
        func compare(_ op: String, _ bound: Value) -> SQLText {
            a.type == .decimal ? "strata_decimal_compare(\(col), \(bound)) \(keyword: op) 0" : "\(col) \(keyword: op) \(bound)"
        }
        if let (bound, label) = upperBound(a) {
            add(.max, isDate ? .dateTooLate : .tooLarge, label, compare(">", bound))
        }
        if let (bound, label) = lowerBound(a) {
            add(.min, isDate ? .dateTooSoon : .tooSmall, label, compare("<", bound))
        }

        // Lengths in Characters (grapheme clusters, strata_length), with SQLite's code-point `length`
        // in front: Characters ≤ code points, equal for ASCII without CR, and zero only when empty.
        if a.type.isTextual {
            if let max = a.maxLength {
                let bound = Value.integer(Int64(max))
                add(.maxLength, .tooLong, "maxLength \(max)",
                    "length(\(col)) > \(bound) AND strata_length(\(col)) > \(bound)")
            }
            if let min = a.minLength, min > 0 {
                let bound = Value.integer(Int64(min))
                let condition: SQLText = min == 1
                    ? "length(\(col)) < \(bound)"
                    : "(length(\(col)) < \(bound) OR ((length(CAST(\(col) AS BLOB)) <> length(\(col)) OR instr(\(col), char(13)) > 0) AND strata_length(\(col)) < \(bound)))"
                add(.minLength, .tooShort, "minLength \(min)", condition)
            }
        }

        // Whole-value regular expression, through strata_matches.
        if let pattern = a.pattern, a.type.isTextual {
            add(.pattern, .pattern, "matches \(Value.text(pattern))",
                "\(col) IS NOT NULL AND COALESCE(strata_matches(\(col), \(pattern)), 0) = 0")
        }
        return rules
    }

    /// The value above which the attribute is too large (or too late), bound in the column's comparison form.
    private func upperBound(_ a: Attribute) -> (Value, String)? {
        let declared = a.maxValue.flatMap { comparable($0, a.type) }
        if let range = a.type.integerRange, a.type != .int64 {
            if let declared, let d = declared.doubleValue, d <= Double(range.upperBound) {
                return (declared, "max \(display(declared, a.type))")
            }
            return (.integer(range.upperBound), "\(a.type.rawValue) max \(range.upperBound)")
        }
        return declared.map { ($0, "max \(display($0, a.type))") }
    }

    private func lowerBound(_ a: Attribute) -> (Value, String)? {
        let declared = a.minValue.flatMap { comparable($0, a.type) }
        if let range = a.type.integerRange, a.type != .int64 {
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
