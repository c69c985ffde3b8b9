
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

/// One version step in a report.
public struct StepReport: Sendable, Hashable, Codable {
    public var fromVersion: Int
    public var toVersion: Int
    public var metadataOnly: Bool
    public var changes: [String]
    public var tables: [TableAction]
    /// Rows each rebuilt table copies (source table → rows).
    public var rowsCopied: [String: Int]
    /// Changes that lose data, with how many stored values or rows they drop.
    public var destructive: [DestructiveChange]
    public var sql: [String]
    public var duration: Double?
    public var committed = false
    public var warnings: [String] = []

    public struct DestructiveChange: Sendable, Hashable, Codable {
        public var change: String
        /// Non-NULL values (attributes), rows (entities) or links (relationships) dropped.
        public var count: Int
        /// A few of the values dropped (attributes only).
        public var sampleValues: [String]

        public init(change: String, count: Int, sampleValues: [String]) {
            self.change = change
            self.count = count
            self.sampleValues = sampleValues
        }
    }

    public init(fromVersion: Int, toVersion: Int, metadataOnly: Bool, changes: [String], tables: [TableAction],
                rowsCopied: [String: Int], destructive: [DestructiveChange], sql: [String], duration: Double?) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.metadataOnly = metadataOnly
        self.changes = changes
        self.tables = tables
        self.rowsCopied = rowsCopied
        self.destructive = destructive
        self.sql = sql
        self.duration = duration
    }
}
