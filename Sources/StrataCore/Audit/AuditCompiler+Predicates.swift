extension AuditCompiler {
    /// Entity validation predicates (1550). Compiled once the predicate compiler is available.
    func predicateRules(of entity: Entity, _ context: RuleContext) throws(AuditError) -> [AuditRule] {
        []
    }
}
