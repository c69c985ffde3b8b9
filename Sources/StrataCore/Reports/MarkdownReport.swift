/// GitHub-flavoured Markdown for a pull-request comment or a CI job summary: a heading, the migration
/// plan when there is one (see `migrationSection`), then the audit's summary line and one table row per
/// violated rule (first samples inline).
public struct MarkdownReport: ReportRenderer {
    public init() {}

    /// Samples shown per table row.
    static let samplesPerRow = 3

    public func render(_ report: Report) -> String {
        var lines = ["## \(report.title)", ""]
        if let fleet = report.fleet { lines += fleetSection(fleet) }
        if let migration = report.migration { lines += migrationSection(migration, report) }
        if let audit = report.audit {
            if report.migration != nil { lines.append("") }
            lines += auditSection(audit, report)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func auditSection(_ audit: AuditResult, _ report: Report) -> [String] {
        let failing = !audit.failures(failOn: report.failOn).isEmpty
        var lines = ["\(failing ? "❌" : "✅") **Audit:** \(ReportText.summary(audit, report)) (\(cell(ReportText.context(audit))))", ""]
        let violated = audit.violated
        guard !violated.isEmpty else {
            lines.append("No violations.")
            return lines
        }
        lines.append("| Entity | Rule | Code | Count | Status | Samples |")
        lines.append("|---|---|---:|---:|---|---|")
        for rule in violated { lines.append("| " + ruleCells(rule, report) + " |") }
        return lines
    }

    /// `Entity | Rule | Code | Count | Status | Samples` of one violated rule (without the outer pipes).
    func ruleCells(_ rule: AuditRuleResult, _ report: Report) -> String {
        var samples = rule.samples.prefix(Self.samplesPerRow).map { code($0.objectID) + ($0.value.map { " \(cell(quoted($0)))" } ?? " nil") }
        if rule.count > min(rule.samples.count, Self.samplesPerRow) {
            samples.append("… \(rule.count - min(rule.samples.count, Self.samplesPerRow)) more")
        }
        let status = report.isFailure(rule) ? "failure" : "warning"
        return "\(cell(rule.entity)) | \(cell(ReportText.ruleName(rule))) | \(rule.code.rawValue) | \(rule.count) | \(status) | \(samples.joined(separator: "<br>"))"
    }

    func quoted(_ s: String) -> String { "\"" + s + "\"" }

    /// Text safe in a table cell, shown as written: pipes, backslashes, ampersands and angle brackets escaped,
    /// backticks, line breaks and other control characters replaced. A backslash left as it was escaped the
    /// pipe's escape (`a\|b` ended the cell) and `&lt;` showed as `<`.
    func cell(_ s: String) -> String { Self.escaped(s, inCode: false) }

    /// Text inside a code span in a table cell (shown literally, so only the pipe is escaped): backticks and
    /// line breaks replaced.
    func code(_ s: String) -> String { "`" + Self.escaped(s, inCode: true) + "`" }

    /// Scalar by scalar, so that a combining mark after a pipe or a backslash (one `Character` with it) does
    /// not hide it; a CRLF is one space, as a lone CR or LF.
    private static func escaped(_ s: String, inCode: Bool) -> String {
        var out = String.UnicodeScalarView()
        var afterCR = false
        for scalar in s.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "|": out.append(contentsOf: "\\|".unicodeScalars)
            case "`": out.append("'")
            case "\n" where afterCR: continue
            case "\n", "\r": out.append(" ")
            case _ where inCode: out.append(scalar)
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\t": out.append(" ")
            case _ where scalar.value < 0x20: out.append("\u{FFFD}")   // a NUL, as CommonMark replaces it
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
