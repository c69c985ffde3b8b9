/// The order in which an engine runs the rules of one audit, shared by both engines so that their
/// results list the same rules in the same order: row rules together per table and mode (one scan
/// each; tables by name, all rows before touched rows), then uniqueness rules in rule order. Rules
/// whose mode is `.skip` (a touched audit of a table nothing touched) are left out.
///
/// ```swift
/// let schedule = AuditSchedule(rules: rules, modes: rules.map { _ in .all })
/// for group in schedule.rowGroups { /* one scan of group.table for group.rules */ }
/// ```
public struct AuditSchedule: Sendable, Hashable {
    /// The row rules of one table read in one mode: indices into the rules.
    public struct RowGroup: Sendable, Hashable {
        public var table: String
        public var mode: AuditRunMode
        public var rules: [Int]
    }

    public var rowGroups: [RowGroup] = []
    /// Indices of the uniqueness rules.
    public var uniqueness: [Int] = []

    public init(rules: [AuditRule], modes: [AuditRunMode]) {
        var groups: [String: [AuditRunMode: [Int]]] = [:]
        for (i, rule) in rules.enumerated() where modes[i] != .skip {
            switch rule.check {
            case .row: groups[rule.table, default: [:]][modes[i], default: []].append(i)
            case .uniqueness: uniqueness.append(i)
            }
        }
        for table in groups.keys.sorted() {
            for mode in [AuditRunMode.all, .touchedRows, .batchKeys] {
                if let indices = groups[table]?[mode] { rowGroups.append(RowGroup(table: table, mode: mode, rules: indices)) }
            }
        }
    }
}
