extension AuditResult {
    /// The result of an audit of `scope`: `rules` are the results of the rules it ran (a touched audit
    /// leaves out the rules of tables nothing touched). Both engines' auditors end here.
    public init(storeUUID: String, modelVersion: Int, scope: AuditScope, maxSamples: Int, rules: [AuditRuleResult]) {
        var entities: [String] = []
        if case .entities(let names) = scope { entities = names }
        self.init(storeUUID: storeUUID, modelVersion: modelVersion, scope: scope.name, entities: entities,
                  maxSamples: maxSamples, rules: rules)
    }
}

extension AuditRuleResult {
    /// What `rule` found: `count` violations, the first `samples`, in `duration` seconds.
    public init(_ rule: AuditRule, count: Int, samples: [AuditSample], duration: Double) {
        self.init(entity: rule.entity, property: rule.property, rule: rule.kind.rawValue, code: rule.code,
                  constraint: rule.constraint, count: count, samples: samples)
        self.duration = duration
    }
}
