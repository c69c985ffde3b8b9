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
    /// For a step with a mapping file: per destination entity it names, what it carries (SPEC §11.3).
    public var mapping: [MappingEntityReport]?
    /// The audit of the entities the mapping file names, against the new version (nil: none ran).
    public var mappingAudit: AuditResult?

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
