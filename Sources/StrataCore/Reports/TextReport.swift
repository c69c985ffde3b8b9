/// The human report: the migration plan (see `migrationSection`), then the audit's summary line and
/// each violated rule grouped by entity, with its count and samples.
///
/// ```
/// Audit: 26 rules checked, 25 violated, 26 violations (scope full, store …, model version 1)
///
/// Recipe
///   name minLength 2: 1 violation [1670 string too short]
///     x-strata://…/Recipe/p3 = "A"
/// ```
public struct TextReport: ReportRenderer {
    public init() {}

    public func render(_ report: Report) -> String {
        var lines: [String] = []
        if let fleet = report.fleet { lines += fleetSection(fleet) }
        if let migration = report.migration { lines += migrationSection(migration, report) }
        if let audit = report.audit {
            if !lines.isEmpty { lines.append("") }
            lines += auditSection(audit, report)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func auditSection(_ audit: AuditResult, _ report: Report) -> [String] {
        var lines = ["Audit: \(ReportText.summary(audit, report)) (\(ReportText.context(audit)))"]
        let violated = audit.violated
        if violated.isEmpty {
            lines.append("No violations.")
            return lines
        }
        for (entity, rules) in ReportText.byEntity(violated) {
            lines.append("")
            lines.append(entity)
            for rule in rules { lines += ruleLines(rule, report) }
        }
        return lines
    }

    func ruleLines(_ rule: AuditRuleResult, _ report: Report) -> [String] {
        let noun = rule.rule == AuditRule.Kind.uniqueness.rawValue ? "duplicate group" : "violation"
        let severity = report.isFailure(rule) ? "" : " (warning)"
        var lines = ["  \(ReportText.ruleName(rule)): \(rule.count) \(noun)\(rule.count == 1 ? "" : "s") [\(rule.code.rawValue) \(rule.code.summary)]\(severity)"]
        for sample in rule.samples { lines.append("    " + ReportText.sample(sample)) }
        if rule.count > rule.samples.count { lines.append("    … and \(rule.count - rule.samples.count) more") }
        return lines
    }
}
