/// Mapping values and filters (SPEC §11.3): expressions over a row of the source model (P), the value
/// typed against an attribute of the destination model (N). The source row is in scope under `alias`
/// (the rebuild's `INSERT … SELECT … FROM "table" AS alias`). `context` gives `$NOW` (the run's, or `--now`) and the
/// `$VARIABLES` (`--var` over the file's `variables:`); its values are bound, never pasted.
extension PredicateCompiler {
    /// - Throws: `PredicateCompileError` located in the file (unknown names, type errors: "wrap in TYPE()").
    func mappingValue(_ expression: String, over entity: String, assignTo attribute: Attribute, label: String,
                      alias: String, context: PredicateContext, origin: SourceLocation) throws(PredicateCompileError) -> SQLText {
        do throws(PredicateSyntaxError) {
            guard layout.storage(of: entity) != nil, model.entity(entity) != nil else {
                throw PredicateSyntaxError("unknown source entity '\(entity)'", offset: 0, hint: NameSuggestion.hint(for: entity, in: model.entityNames))
            }
            var parser = try PredicateParser(expression, arguments: [], firstArgument: 0)
            let parsed = try parser.parseWholeExpression()
            var translator = PredicateTranslator(model: model, layout: layout, context: context)
            let operand = try translator.operand(parsed, in: Self.position(entity, alias: alias))
            let fragment = try translator.assignment(operand, to: attribute, label: label)
            try SQLComplexity.check(fragment)
            return fragment
        } catch {
            throw PredicateCompileError(error, in: expression, origin: origin)
        }
    }

    /// A `filter:` over the source row; nil when it is always true.
    func mappingFilter(_ predicate: String, over entity: String, alias: String, context: PredicateContext,
                       origin: SourceLocation) throws(PredicateCompileError) -> SQLText? {
        do throws(PredicateSyntaxError) {
            guard layout.storage(of: entity) != nil, model.entity(entity) != nil else {
                throw PredicateSyntaxError("unknown source entity '\(entity)'", offset: 0, hint: NameSuggestion.hint(for: entity, in: model.entityNames))
            }
            var parser = try PredicateParser(predicate, arguments: [], firstArgument: 0)
            let node = try parser.parsePredicate()
            var translator = PredicateTranslator(model: model, layout: layout, context: context)
            let condition = try translator.predicate(node, in: Self.position(entity, alias: alias))
            if condition.constant == true { return nil }
            try SQLComplexity.check(condition.fragment)
            return condition.fragment.parenthesized
        } catch {
            throw PredicateCompileError(error, in: predicate, origin: origin)
        }
    }

    private static func position(_ entity: String, alias: String) -> PredicateTranslator.Position {
        PredicateTranslator.Position(entity: entity, alias: alias, pk: "\(ColumnName("_pk", qualifier: alias))", label: entity)
    }
}
