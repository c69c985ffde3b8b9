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

extension AuditResult {
    /// This (touched) result with `full`, an audit of `entities` in full, in place of its rules: each rule's
    /// result over the whole entity replaces its result over the touched rows (SPEC §11.4: what `sql:` steps
    /// wrote). Both engines' hook audits end here.
    package func including(_ full: AuditResult, entities: [String]) -> AuditResult {
        var merged = self
        func key(_ r: AuditRuleResult) -> [String] { [r.entity, r.property ?? "", r.rule, r.constraint] }
        var positions: [[String]: Int] = [:]
        for (i, rule) in merged.rules.enumerated() where positions[key(rule)] == nil { positions[key(rule)] = i }
        for rule in full.rules {
            if let i = positions[key(rule)] { merged.rules[i] = rule } else { merged.rules.append(rule) }
        }
        merged.entities = Array(Set(merged.entities).union(entities)).sorted()
        return merged
    }
}
