extension JUnitReport {
    /// One `<testsuite name="migration">`: a test case per version step (`v1 → v2`, failed when it was
    /// not committed) and per hook (`hook ID (after vN)`, failed when it was rolled back or its audit
    /// found failing violations), counts in `<system-out>`.
    func migrationSuite(_ migration: MigrationRunReport, _ report: Report) -> Suite {
        let cases = migration.steps.map { stepCase($0, report) } + migration.hooks.map { hookCase($0, report) }
        // A step's time includes the hooks that ran in it; late hooks run on their own.
        let elapsed = migration.steps.reduce(0) { $0 + ($1.duration ?? 0) }
            + zip(migration.hooks, cases.suffix(migration.hooks.count)).reduce(0) { $0 + ($1.0.late ? $1.1.time : 0) }
        return Suite(name: "migration", cases: cases, elapsed: elapsed)
    }

    /// A rolled-back step fails with what stopped the run as its details.
    func stepCase(_ step: StepReport, _ report: Report) -> (lines: [String], failed: Bool, time: Double) {
        var out = ["tables: " + MigrationText.tables(step)]
        out += step.destructive.map { "destructive: " + $0.summary }
        out += step.warnings.map { "warning: " + $0 }
        out.append(MigrationText.stats(step))
        let failure = step.committed ? nil : "\(MigrationText.versions(step)) was rolled back"
        let details = step.committed ? [] : (report.failure?.diagnostics.map(\.description) ?? [])
        return testCase(name: MigrationText.versions(step), failure: failure, details: details, out: out, time: step.duration ?? 0)
    }

    func hookCase(_ hook: HookRunResult, _ report: Report) -> (lines: [String], failed: Bool, time: Double) {
        var out = hook.steps.map(MigrationText.hookStep)
        out.append("rows affected: \(MigrationText.number(hook.rowsAffected))")
        out.append("audit: " + MigrationText.hookAudit(hook))
        out.append("outcome: \(hook.outcome.text) (onViolation: \(hook.onViolation.rawValue))")
        var details: [String] = []
        for rule in hook.audit?.violated ?? [] {
            details.append("\(rule.count) × \(rule.code.rawValue) \(rule.code.summary) (\(rule.subject): \(rule.constraint))")
            details += rule.samples.map { "  " + ReportText.sample($0) }
            if rule.count > rule.samples.count { details.append("  … and \(rule.count - rule.samples.count) more") }
        }
        let failing = hook.audit?.failures(failOn: report.failOn).count ?? 0
        var failure: String?
        if !hook.committed {
            failure = "rolled back with its version step: \(MigrationText.hookAudit(hook))"
        } else if failing > 0 {
            failure = "\(MigrationText.hookAudit(hook)), committed (onViolation: warn)"
        }
        // The hook's steps and its audit (which runs inside the version step, so it is within the step's time too).
        let time = hook.steps.reduce(0) { $0 + $1.duration } + (hook.audit?.rules.reduce(0) { $0 + $1.duration } ?? 0)
        return testCase(name: MigrationText.hookName(hook), failure: failure, details: details, out: out, time: time)
    }

    /// A test case of the `migration` class; the failure's body lists `details` (in `<system-out>`
    /// after `out` when the case passes).
    func testCase(name: String, failure: String?, details: [String], out: [String], time: Double) -> (lines: [String], failed: Bool, time: Double) {
        var lines = ["    <testcase classname=\"migration\" name=\"\(ReportText.xml(name))\" time=\"\(JUnitReport.seconds(time))\">"]
        if let failure {
            lines.append("      <failure message=\"\(ReportText.xml(failure))\" type=\"migration\">\(ReportText.xml(details.joined(separator: "\n")))</failure>")
        }
        let out = failure == nil ? out + details : out
        lines.append("      <system-out>\(ReportText.xml(out.joined(separator: "\n")))</system-out>")
        lines.append("    </testcase>")
        return (lines, failure != nil, time)
    }
}
