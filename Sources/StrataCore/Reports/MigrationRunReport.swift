/// What a `migrate` run did (or, for a dry run, would do): the version path, each step's kind,
/// SQL and row counts, each hook's counts and audit, the change set.
public struct MigrationRunReport: Sendable, Hashable, Codable {
    public var store: String
    public var storeUUID: String?
    public var dryRun: Bool
    public var created = false
    public var nothingToDo = false
    public var waitedForLock = false
    public var fromVersion: Int?
    public var toVersion: Int?
    public var targetVersion: Int
    /// `$NOW`, as ISO 8601.
    public var now: String
    public var backup: String?
    public var steps: [StepReport] = []
    public var hooks: [HookRunResult] = []
    /// Hooks recorded as not needed at creation.
    public var notNeededHooks: [String] = []
    public var changes = ChangeSet()
    public var warnings: [String] = []

    public init(store: String, dryRun: Bool, targetVersion: Int, now: Double) {
        self.store = store
        self.dryRun = dryRun
        self.targetVersion = targetVersion
        self.now = DateText.format(now)
    }

    /// Violations found by hook audits that were committed anyway (`onViolation: warn`).
    public var warnedViolations: Int { hooks.filter(\.committed).reduce(0) { $0 + $1.violationCount } }
}
