/// Update values (`propertiesToUpdate`): expressions over the row's own attributes, type-checked
/// against the attribute they are assigned to.
extension PredicateCompiler {
    /// Compiles an expression assigned to `attribute` of `entity`, over alias `t`.
    ///
    /// Literals are coerced and range-checked now; an expression must have the attribute's type after
    /// widening (SPEC §11.4, `assignment`). An integer result goes into an int16/int32 attribute as is:
    /// the audit judges its range (1610/1620).
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
            translator.realLiteralTexts = parser.realLiteralTexts
            let operand = try translator.operand(parsed, in: translator.root(entity))
            let fragment = SQLText.native(try translator.assignment(operand, to: target.attribute, label: "\(entity).\(attribute)"),
                                          target.attribute.type)
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
