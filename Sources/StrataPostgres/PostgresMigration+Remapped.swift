import StrataCore

extension PostgresMigration {
    /// The translation table's rows in the change set, as SQLite's step lists them: old → new object IDs per
    /// destination entity when `ids`, else the counts.
    static func collectRemapped(list: SQLText, counts: SQLText, session: PostgresSession, storeUUID: String, ids: Bool,
                                into changes: inout ChangeSet) async throws {
        if ids {
            for row in try await session.rows(list) {
                let old = ObjectID(storeUUID: storeUUID, entity: try PostgresSession.decode(row[0], as: String.self, statement: list),
                                   primaryKey: try PostgresSession.decode(row[1], as: Int64.self, statement: list))
                let new = ObjectID(storeUUID: storeUUID, entity: try PostgresSession.decode(row[2], as: String.self, statement: list),
                                   primaryKey: try PostgresSession.decode(row[3], as: Int64.self, statement: list))
                changes.remapped[new.entity, default: []].append(.init(old: old, new: new))
                changes.remappedCounts[new.entity, default: 0] += 1
            }
        } else {
            for row in try await session.rows(counts) {
                let kind = try PostgresSession.decode(row[0], as: String.self, statement: counts)
                changes.remappedCounts[kind, default: 0] += Int(try PostgresSession.decode(row[1], as: Int64.self, statement: counts))
            }
        }
    }
}
