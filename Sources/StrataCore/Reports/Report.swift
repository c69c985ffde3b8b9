/// What a report shows, rendered by every `ReportFormat` into one string.
///
/// A report is made of sections, each optional, rendered in a fixed order by each renderer: the
/// migration (`strata migrate`: the plan's steps, the hooks' results, the change set), then the
/// audit. Each renderer has one function per section (`Renderer+Migration.swift` for the migration).
///
/// ```swift
/// let report = Report(title: "Strata audit", audit: result, failOn: [.missingMandatory])
/// let html = report.render(as: .html)
/// ```
public struct Report: Sendable, Hashable {
    public var title: String
    /// The migration section (`strata migrate`): version path, steps, hooks. Rendered before the audit.
    public var migration: MigrationRunReport?
    /// The validation audit section.
    public var audit: AuditResult?
    /// The codes that count as failures (`--fail-on`); nil means every code. Other violations are
    /// reported as warnings.
    public var failOn: Set<AuditCode>?

    public init(title: String, migration: MigrationRunReport? = nil, audit: AuditResult? = nil, failOn: Set<AuditCode>? = nil) {
        self.title = title
        self.migration = migration
        self.audit = audit
        self.failOn = failOn
    }

    /// Whether any section has a failure (`strata` exits 3): a failing audit violation, or a hook
    /// of the migration rolled back for its violations.
    public var hasFailures: Bool {
        !(audit?.failures(failOn: failOn).isEmpty ?? true) || (migration?.hooks.contains(where: \.rolledBackForViolations) ?? false)
    }

    /// The report rendered in `format`.
    public func render(as format: ReportFormat) -> String { format.renderer.render(self) }

    /// Whether a violated rule of the audit counts as a failure.
    public func isFailure(_ rule: AuditRuleResult) -> Bool { rule.isFailure(failOn: failOn) }
}

/// The formats a report renders to (`--report-format`).
public enum ReportFormat: String, CaseIterable, Sendable, Codable {
    case text, json, junit, markdown, html

    public var renderer: any ReportRenderer {
        switch self {
        case .text: return TextReport()
        case .json: return JSONReport()
        case .junit: return JUnitReport()
        case .markdown: return MarkdownReport()
        case .html: return HTMLReport()
        }
    }

    /// The usual file extension of a report file.
    public var fileExtension: String {
        switch self {
        case .text: return "txt"
        case .json: return "json"
        case .junit: return "xml"
        case .markdown: return "md"
        case .html: return "html"
        }
    }
}

/// Renders a whole report in one format.
public protocol ReportRenderer: Sendable {
    func render(_ report: Report) -> String
}

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
        var text = s.objectID + " = " + (s.value.map { "\"\($0)\"" } ?? "nil")
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
