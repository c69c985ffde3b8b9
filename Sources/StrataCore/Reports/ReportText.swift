/// Helpers the renderers share.
enum ReportText {
    /// `&`, `<`, `>`, `"` and `'` escaped for XML and HTML text and attributes; control characters dropped.
    static func xml(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A sample as one line: `x-strata://…/Recipe/p3 = "A"`, with a duplicate group's other members.
    static func sample(_ s: AuditSample) -> String {
        var text = s.objectID + " = " + (s.value.map(Value.quoted) ?? "nil")
        if !s.related.isEmpty { text += " (also " + s.related.joined(separator: ", ") + ")" }
        return text
    }

    /// `26 rules checked, 25 violated (24 failing), 26 violations`
    static func summary(_ audit: AuditResult, _ report: Report) -> String {
        let violated = audit.violated.count
        let failing = audit.failures(failOn: report.failOn).count
        var text = "\(audit.rulesChecked) rule\(audit.rulesChecked == 1 ? "" : "s") checked, \(violated) violated"
        if failing != violated { text += " (\(failing) failing)" }
        text += ", \(audit.totalViolations) violation\(audit.totalViolations == 1 ? "" : "s")"
        return text
    }

    /// `scope full, store <uuid>, model version 4`
    static func context(_ audit: AuditResult) -> String {
        var scope = audit.scope
        if !audit.entities.isEmpty { scope += " (" + audit.entities.joined(separator: ", ") + ")" }
        return "scope \(scope), store \(audit.storeUUID), model version \(audit.modelVersion)"
    }

    /// Rules grouped by entity, entities in the audit's order.
    static func byEntity(_ rules: [AuditRuleResult]) -> [(entity: String, rules: [AuditRuleResult])] {
        var order: [String] = []
        var groups: [String: [AuditRuleResult]] = [:]
        for rule in rules {
            if groups[rule.entity] == nil { order.append(rule.entity) }
            groups[rule.entity, default: []].append(rule)
        }
        return order.map { ($0, groups[$0]!) }
    }

    /// `name maxLength 5` or `unique (name)` for entity-level rules.
    static func ruleName(_ rule: AuditRuleResult) -> String {
        if rule.rule == AuditRule.Kind.uniqueness.rawValue || rule.property == nil { return rule.constraint }
        return "\(rule.property!) \(rule.constraint)"
    }
}
