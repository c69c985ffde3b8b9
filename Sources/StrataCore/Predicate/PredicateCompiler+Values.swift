/// Update values (`propertiesToUpdate`): expressions over the row's own attributes, type-checked
/// against the attribute they are assigned to.
extension PredicateCompiler {
    /// Compiles an expression assigned to `attribute` of `entity`, over alias `t`.
    ///
    /// Literals are coerced and range-checked now; expressions whose type is wider than an int16 or
    /// int32 attribute are wrapped in `strata_check_range(…)`, which fails the UPDATE with a clear
    /// message when a row's value is out of range.
    ///
    /// - Returns: the SQL expression and how many `%@` arguments (from `firstArgument`) it used.
    /// - Throws: `PredicateCompileError` located in the expression (unknown keys, relationships, type errors).
    public func compileValue(_ expression: String, for attribute: String, of entity: String, context: PredicateContext,
                             firstArgument: Int = 0,
                             origin: SourceLocation = SourceLocation(file: "value", line: 1, column: 1))
        throws(PredicateCompileError) -> (SQLText, argumentsUsed: Int) {
        do throws(PredicateSyntaxError) {
            let target = try targetAttribute(attribute, of: entity)
            var parser = try PredicateParser(expression, arguments: context.arguments, firstArgument: firstArgument)
            let parsed = try parser.parseWholeExpression()
            var translator = PredicateTranslator(model: model, layout: layout, context: context)
            let operand = try translator.operand(parsed, in: translator.root(entity))
            let fragment = try translator.assignment(operand, to: target.attribute, label: "\(entity).\(attribute)")
            try SQLComplexity.check(fragment)
            return (fragment, parser.argumentsUsed)
        } catch {
            throw PredicateCompileError(error, in: expression, origin: origin)
        }
    }

    /// A literal (a `--set` value or a YAML scalar), coerced to the attribute's type and range-checked.
    public func literalValue(_ text: String, for attribute: String, of entity: String) throws(PredicateCompileError) -> Value {
        do throws(PredicateSyntaxError) {
            let target = try targetAttribute(attribute, of: entity)
            do throws(CoercionError) {
                return try target.attribute.type.value(fromText: text)
            } catch {
                throw PredicateSyntaxError("\(entity).\(attribute) is \(target.attribute.type.rawValue), but \(error.message)", offset: 0)
            }
        } catch {
            throw PredicateCompileError(error, in: text, origin: SourceLocation(file: "value", line: 1, column: 1))
        }
    }

    /// The attribute a value is assigned to; relationships and unknown names are rejected.
    func targetAttribute(_ name: String, of entity: String) throws(PredicateSyntaxError) -> (column: String, attribute: Attribute) {
        guard let storage = layout.storage(of: entity), model.entity(entity) != nil else {
            throw PredicateSyntaxError("unknown entity '\(entity)'", offset: 0, hint: NameSuggestion.hint(for: entity, in: model.entityNames))
        }
        if storage.relationships[name] != nil {
            throw PredicateSyntaxError("'\(name)' is a relationship of \(entity); batch updates change attributes only", offset: 0,
                                       hint: "relationships cannot be updated in a batch")
        }
        guard let column = storage.attributeColumns[name], let attribute = model.attribute(name, of: entity)?.attribute else {
            let suggestion = NameSuggestion.closest(to: name, in: storage.attributeColumns.keys).map { " (did you mean '\($0)'?)" } ?? ""
            throw PredicateSyntaxError("\(entity) has no attribute '\(name)'\(suggestion)", offset: 0,
                                       hint: "\(entity)'s attributes: \(storage.attributeColumns.keys.sorted().joined(separator: ", "))")
        }
        return (column, attribute)
    }
}

extension PredicateTranslator {
    /// The SQL assigning `operand` to an attribute of type `attribute.type`.
    func assignment(_ operand: Operand, to attribute: Attribute, label: String) throws(PredicateSyntaxError) -> SQLText {
        let type = attribute.type
        switch try scalar(operand, purpose: "as a value") {
        case .literal(let literal, let offset):
            return .bind(try coerce(literal, to: type, offset: offset, target: label))
        case .typed(let value):
            if let constant = value.constant, value.type != .date || type == .date || type.isNumeric {
                // A folded constant ($NOW - 1 day, 2 * 3): coerce it like a literal.
                let literal: Literal
                switch constant {
                case .integer(let i): literal = .number(.integer(i))
                case .real(let d): literal = .number(.real(d))
                default: literal = .string(constant.description)
                }
                if type == .date, value.type == .date, case .real = constant { return .bind(constant) }
                return .bind(try coerce(literal, to: type, offset: value.offset, target: label))
            }
            guard Self.assignable(value.type, to: type) else {
                throw PredicateSyntaxError("\(label) is \(type.rawValue), but \(value.label) is \(value.type.rawValue)", offset: value.offset,
                                           hint: type.isInteger && (value.type == .double || value.type == .float) ? "integers cannot take fractional values" : nil)
            }
            if let range = type.integerRange, type != .int64, !value.type.widens(to: type) {
                return .call("strata_check_range", [value.fragment, .bind(.integer(range.lowerBound)), .bind(.integer(range.upperBound)),
                                                     .bind(.text(label))])
            }
            if type == .int64, value.mayOverflow {
                // SQLite turns an overflowing integer result into a REAL: refuse it instead of storing it.
                return .call("strata_check_int64", [value.fragment, .bind(.text(label))])
            }
            if type == .decimal, value.type != .decimal { return .call("strata_decimal", [value.fragment]) }
            if (type == .double || type == .float), value.type == .decimal { return "CAST(" + value.fragment + " AS REAL)" }
            return value.fragment
        default:
            preconditionFailure("scalar() returns typed or literal operands")
        }
    }

    static func assignable(_ source: AttributeType, to target: AttributeType) -> Bool {
        if source == target { return true }
        if target.isInteger { return source.isInteger || source == .bool }
        if target == .double || target == .float || target == .decimal { return source.isNumeric }
        if target == .date { return source == .date }
        if target.isTextual { return source.isTextual }
        if target == .bool { return source == .bool }
        return false
    }
}
