import Foundation

/// Objects that break a condition a version step needs (exit 3); the step was rolled back.
public struct MigrationViolation: Hashable, Sendable, Codable {
    public var check: MigrationCheck.Kind
    public var entity: String
    public var properties: [String]
    public var code: Int
    /// What failed, in words.
    public var summary: String
    /// The offending objects; for duplicates, in groups of equal values (`groups`).
    public var objects: [ObjectID]
    /// For duplicates: each group's values and members.
    public var groups: [DuplicateGroup]

    public struct DuplicateGroup: Hashable, Sendable, Codable {
        public var values: [Value]
        public var objects: [ObjectID]
    }
}

extension MigrationViolation {
    /// One row a check's statement returned: the object, and for a duplicates check the values it shares.
    public typealias Row = (primaryKey: Int64, entity: String, values: [Value])

    /// The violation of `check` by the rows its statement returned (none: no violation). A duplicates
    /// check's statement orders its rows by value, so equal values are consecutive and form one group.
    /// Both engines build their exit-3 report here, so it reads the same on SQLite and PostgreSQL.
    public init?(_ check: MigrationCheck, rows: [Row], storeUUID: String) {
        guard !rows.isEmpty else { return nil }
        var objects: [ObjectID] = []
        var groups: [DuplicateGroup] = []
        for row in rows {
            let id = ObjectID(storeUUID: storeUUID, entity: row.entity, primaryKey: row.primaryKey)
            objects.append(id)
            guard check.kind == .duplicates else { continue }
            if groups.last?.values == row.values { groups[groups.count - 1].objects.append(id) }
            else { groups.append(DuplicateGroup(values: row.values, objects: [id])) }
        }
        self.init(check: check.kind, entity: check.entity, properties: check.properties, code: check.code,
                  summary: check.summary, objects: objects, groups: groups)
    }
}
