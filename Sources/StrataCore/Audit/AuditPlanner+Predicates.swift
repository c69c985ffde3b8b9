extension AuditPlanner {
    /// Entity validation predicates (1550): a row violates a rule when its predicate is not true.
    func predicateRules(of entity: Entity, _ context: RuleContext) throws(AuditError) -> [AuditRule] {
        guard !entity.validation.isEmpty else { return [] }
        let compiler = PredicateCompiler(model: model, layout: layout)
        let predicateContext = PredicateContext(variables: variables, now: now)
        var rules: [AuditRule] = []
        for validation in entity.validation {
            let origin = validation.location ?? SourceLocation(file: "predicate", line: 1, column: 1)
            let condition: SQLText
            do {
                // Compiled on the declaring entity: the rule's text names its properties.
                condition = try compiler.compile(validation.predicate, entity: entity.name, context: predicateContext, origin: origin)
            } catch {
                throw .predicate(error.diagnostic)
            }
            let check = AuditRule.Check.row(condition: "COALESCE(" + condition.parenthesized + ", " + .keyword(.false) + ") = "
                                                + .keyword(.false), value: "NULL")
            rules.append(context.rule(nil, .predicate, .predicate, validation.message ?? validation.predicate, check))
        }
        return rules
    }
}
