/// What a report shows, rendered by every `ReportFormat` into one string.
///
/// A report is made of sections, each optional, rendered in a fixed order by each renderer: the
/// fleet (one row per store, `--stores`), the migration (`strata migrate`: the plan's steps, the hooks' results, the change set), then the
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
    /// The fleet section (`--stores`): one row per store. Rendered first.
    public var fleet: FleetReport?
    /// Why a run that got as far as a report then stopped (a `strata migrate` whose step or hook failed):
    /// its exit code and diagnostics. JSON shows them as the error document does (`error`), JUnit in the
    /// failed step's case; the other formats show the rolled-back step, the diagnostics going to stderr.
    public var failure: Failure?

    public struct Failure: Sendable, Hashable {
        public var exitCode: ExitStatus
        public var diagnostics: [Diagnostic]

        public init(exitCode: ExitStatus, diagnostics: [Diagnostic]) {
            self.exitCode = exitCode
            self.diagnostics = diagnostics
        }
    }

    public init(title: String, migration: MigrationRunReport? = nil, audit: AuditResult? = nil, failOn: Set<AuditCode>? = nil,
                fleet: FleetReport? = nil, failure: Failure? = nil) {
        self.title = title
        self.migration = migration
        self.audit = audit
        self.failOn = failOn
        self.fleet = fleet
        self.failure = failure
    }

    /// Whether any section has a failure (`strata` exits 3): a failing audit violation, or a hook
    /// of the migration rolled back for its violations; or a store of the fleet that failed; or the run
    /// stopped (`failure`).
    public var hasFailures: Bool {
        failure != nil || !(audit?.failures(failOn: failOn).isEmpty ?? true) || (migration?.hooks.contains(where: \.rolledBackForViolations) ?? false)
            || (fleet.map { $0.exitCode != .success } ?? false)
    }

    /// The report rendered in `format`.
    public func render(as format: ReportFormat) -> String { format.renderer.render(self) }

    /// Whether a violated rule of the audit counts as a failure.
    public func isFailure(_ rule: AuditRuleResult) -> Bool { rule.isFailure(failOn: failOn) }
}

/// Renders a whole report in one format.
public protocol ReportRenderer: Sendable {
    func render(_ report: Report) -> String
}
