/// One self-contained HTML page (well-formed XHTML; inline CSS, no scripts, no external assets):
/// the migration plan when there is one (see `migrationSection`), then the audit's summary, a bar chart
/// of violations per rule drawn as inline SVG, and a table of samples per rule.
public struct HTMLReport: ReportRenderer {
    public init() {}

    public func render(_ report: Report) -> String {
        var body: [String] = ["<h1>\(esc(report.title))</h1>"]
        if let fleet = report.fleet { body += fleetSection(fleet) }
        if let migration = report.migration { body += migrationSection(migration, report) }
        if let audit = report.audit { body += auditSection(audit, report) }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            <title>\(esc(report.title))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            \(body.joined(separator: "\n"))
            </body>
            </html>

            """
    }

    static let style = """
        body{font:14px/1.4 -apple-system,system-ui,sans-serif;margin:2em;color:#222}\
        table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}\
        th{background:#f4f4f4}code{font:12px ui-monospace,monospace}.failure{color:#b00020}.warning{color:#9a6700}\
        .ok{color:#1a7f37}svg text{font:12px sans-serif}td.num{text-align:right}details{margin:.3em 0}\
        summary{cursor:pointer}pre{background:#f6f8fa;padding:.5em;overflow-x:auto}
        """

    func auditSection(_ audit: AuditResult, _ report: Report) -> [String] {
        let failing = !audit.failures(failOn: report.failOn).isEmpty
        var lines = [
            "<h2>Validation audit</h2>",
            "<p class=\"\(failing ? "failure" : "ok")\"><strong>\(esc(ReportText.summary(audit, report)))</strong></p>",
            "<p>\(esc(ReportText.context(audit)))</p>",
        ]
        let violated = audit.violated
        guard !violated.isEmpty else {
            lines.append("<p class=\"ok\">No violations.</p>")
            return lines
        }
        lines.append(chart(violated, report))
        for rule in violated { lines += ruleTable(rule, report) }
        return lines
    }

    /// Horizontal bars, one per violated rule, lengths proportional to the counts.
    func chart(_ rules: [AuditRuleResult], _ report: Report) -> String {
        let labelWidth = 320, barWidth = 400, row = 24
        let height = rules.count * row + 10
        let maxCount = max(1, rules.map(\.count).max() ?? 1)
        var parts = ["<svg width=\"\(labelWidth + barWidth + 80)\" height=\"\(height)\" role=\"img\" aria-label=\"Violations per rule\">"]
        for (i, rule) in rules.enumerated() {
            let y = i * row + 5
            let width = max(2, rule.count * barWidth / maxCount)
            let color = report.isFailure(rule) ? "#d1242f" : "#bf8700"
            parts.append("<text x=\"\(labelWidth - 6)\" y=\"\(y + 15)\" text-anchor=\"end\">\(esc("\(rule.entity).\(ReportText.ruleName(rule))"))</text>")
            parts.append("<rect x=\"\(labelWidth)\" y=\"\(y + 2)\" width=\"\(width)\" height=\"\(row - 6)\" fill=\"\(color)\"><title>\(esc("\(rule.count) × \(rule.code.rawValue)"))</title></rect>")
            parts.append("<text x=\"\(labelWidth + width + 6)\" y=\"\(y + 15)\">\(rule.count)</text>")
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    func ruleTable(_ rule: AuditRuleResult, _ report: Report) -> [String] {
        let status = report.isFailure(rule) ? "failure" : "warning"
        // Once per table, not per row: per row it made the page quadratic in --max-samples (80,000 samples: 22 s).
        let hasAlso = rule.samples.contains { !$0.related.isEmpty }
        var lines = [
            "<h3>\(esc(rule.entity)) · \(esc(ReportText.ruleName(rule))) <span class=\"\(status)\">\(rule.code.rawValue) \(esc(rule.code.summary)) · \(rule.count) (\(status))</span></h3>",
            "<table>",
            "<tr><th>Object</th><th>Value</th>\(hasAlso ? "<th>Also</th>" : "")</tr>",
        ]
        for sample in rule.samples {
            var row = "<tr><td><code>\(esc(sample.objectID))</code></td><td>\(sample.value.map(esc) ?? "<em>nil</em>")</td>"
            if hasAlso {
                row += "<td>" + sample.related.map { "<code>\(esc($0))</code>" }.joined(separator: "<br/>") + "</td>"
            }
            lines.append(row + "</tr>")
        }
        lines.append("</table>")
        if rule.count > rule.samples.count { lines.append("<p>… and \(rule.count - rule.samples.count) more</p>") }
        return lines
    }

    func esc(_ s: String) -> String { ReportText.xml(s) }
}
