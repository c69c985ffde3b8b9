/// JUnit XML for CI dashboards: one `<testsuite>` per entity, one `<testcase>` per rule checked.
/// A violated rule whose code counts as a failure has a `<failure>` with its count and samples;
/// one that does not (`--fail-on`) passes, its samples in `<system-out>`.
/// A migration report comes first, as the suite `migration` (see `migrationSuite`); a fleet's stores are
/// the suite `fleet`, one test case per store (see `fleetSuite`).
public struct JUnitReport: ReportRenderer {
    public init() {}

    public func render(_ report: Report) -> String {
        var suites: [Suite] = []
        if let fleet = report.fleet { suites.append(fleetSuite(fleet)) }
        if let migration = report.migration { suites.append(migrationSuite(migration, report)) }
        if let audit = report.audit { suites += auditSuites(audit, report) }
        let tests = suites.reduce(0) { $0 + $1.tests }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let time = suites.reduce(0) { $0 + $1.time }
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"\(ReportText.xml(report.title))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" time=\"\(Self.seconds(time))\">",
        ]
        for suite in suites { lines += suite.lines }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `time` attributes: seconds with millisecond precision.
    static func seconds(_ duration: Double) -> String { String(format: "%.3f", max(0, duration)) }

    /// One test suite: its name and test cases (already rendered, with their durations in seconds).
    struct Suite {
        var name: String
        var cases: [(lines: [String], failed: Bool, time: Double)]
        /// The suite's duration when its cases overlap (a hook runs inside its version step), else their sum.
        var elapsed: Double?
        /// Cases with a `<skipped/>` element (stores of a fleet that did not run).
        var skipped = 0
        var tests: Int { cases.count }
        var failures: Int { cases.filter(\.failed).count }
        var time: Double { elapsed ?? cases.reduce(0) { $0 + $1.time } }
        var lines: [String] {
            ["  <testsuite name=\"\(ReportText.xml(name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(JUnitReport.seconds(time))\">"]
                + cases.flatMap(\.lines) + ["  </testsuite>"]
        }
    }

    func auditSuites(_ audit: AuditResult, _ report: Report) -> [Suite] {
        ReportText.byEntity(audit.rules).map { entity, rules in
            Suite(name: "audit.\(entity)", cases: rules.map { testCase($0, report) })
        }
    }

    func testCase(_ rule: AuditRuleResult, _ report: Report) -> (lines: [String], failed: Bool, time: Double) {
        let time = Self.seconds(rule.duration)
        let open = "    <testcase classname=\"audit.\(ReportText.xml(rule.entity))\" name=\"\(ReportText.xml(ReportText.ruleName(rule)))\" time=\"\(time)\">"
        guard rule.count > 0 else { return (["    <testcase classname=\"audit.\(ReportText.xml(rule.entity))\" name=\"\(ReportText.xml(ReportText.ruleName(rule)))\" time=\"\(time)\"/>"], false, rule.duration) }
        var details = rule.samples.map(ReportText.sample)
        if rule.count > rule.samples.count { details.append("… and \(rule.count - rule.samples.count) more") }
        let body = ReportText.xml(details.joined(separator: "\n"))
        let message = "\(rule.count) × \(rule.code.rawValue) \(rule.code.summary) (\(rule.subject): \(rule.constraint))"
        if report.isFailure(rule) {
            return ([open, "      <failure message=\"\(ReportText.xml(message))\" type=\"\(rule.code.rawValue)\">\(body)</failure>", "    </testcase>"], true, rule.duration)
        }
        return ([open, "      <system-out>\(ReportText.xml("warning: " + message + "\n"))\(body)</system-out>", "    </testcase>"], false, rule.duration)
    }
}
