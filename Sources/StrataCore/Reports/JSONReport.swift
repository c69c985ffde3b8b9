import Foundation

/// The machine report: one JSON document, keys sorted.
///
/// ```json
/// { "schemaVersion": 1, "title": "Strata audit", "passed": false,
///   "audit": { "storeUUID": "…", "modelVersion": 4, "scope": "full", "entities": [], "maxSamples": 20,
///              "rulesChecked": 26, "violatedRules": 25, "failingRules": 25, "totalViolations": 26,
///              "rules": [ { "entity": "Recipe", "property": "name", "rule": "minLength", "code": 1670,
///                           "constraint": "minLength 2", "count": 1, "failing": true,
///                           "samples": [ { "objectID": "x-strata://…/Recipe/p3", "value": "A", "related": [] } ] } ] } }
/// ```
/// `rules` lists every rule checked, clean ones with `count` 0; `property` is null for entity-level
/// rules; `value` is null for NULL; `related` lists a duplicate group's other objects.
/// A fleet (`--stores`) adds `"fleet"`, one object per store (see `fleetSection`).
/// A `strata migrate` report adds `"migration"` next to `"audit"` (see `migrationSection`); its hooks'
/// audits have the shape of `"audit"`.
public struct JSONReport: ReportRenderer {
    public init() {}

    public func render(_ report: Report) -> String {
        var document: [String: Any] = ["schemaVersion": 1, "title": report.title, "passed": !report.hasFailures]
        if let fleet = report.fleet { document["fleet"] = fleetSection(fleet) }
        if let migration = report.migration { document["migration"] = migrationSection(migration, report) }
        if let audit = report.audit { document["audit"] = auditSection(audit, report) }
        if let failure = report.failure {
            document["error"] = ["exitCode": Int(failure.exitCode.rawValue), "diagnostics": failure.diagnostics.map { JSONDiagnostic($0).object }]
        }
        let data = try! JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    func auditSection(_ audit: AuditResult, _ report: Report) -> [String: Any] {
        [
            "storeUUID": audit.storeUUID,
            "modelVersion": audit.modelVersion,
            "scope": audit.scope,
            "entities": audit.entities,
            "maxSamples": audit.maxSamples,
            "rulesChecked": audit.rulesChecked,
            "violatedRules": audit.violated.count,
            "failingRules": audit.failures(failOn: report.failOn).count,
            "totalViolations": audit.totalViolations,
            "rules": audit.rules.map { rule($0, report) },
        ]
    }

    func rule(_ rule: AuditRuleResult, _ report: Report) -> [String: Any] {
        [
            "entity": rule.entity,
            "property": rule.property ?? NSNull(),
            "rule": rule.rule,
            "code": rule.code.rawValue,
            "constraint": rule.constraint,
            "count": rule.count,
            "failing": report.isFailure(rule),
            "samples": rule.samples.map { sample -> [String: Any] in
                ["objectID": sample.objectID, "value": sample.value ?? NSNull(), "related": sample.related]
            },
        ]
    }
}
