import Foundation
import GRDB

extension StepReport {
    /// Describes a step, counting on `db` (the store as it is before the step).
    static func make(_ step: VersionStep, db: Database) throws -> StepReport {
        var copied: [String: Int] = [:]
        for action in step.tableActions where action.kind == .rebuild {
            let source = action.sourceTable ?? action.table
            if try db.tableExists(source) {
                copied[source] = try Int.fetchOne(db, "SELECT count(*) FROM \(TableName(source))") ?? 0
            }
        }
        var destructive: [DestructiveChange] = []
        for change in step.destructiveChanges {
            if change.kind == .mapEntity, let mapped = step.mappedEntities.first(where: { $0.entity == change.entity }) {
                // The rows its `filter:` leaves out.
                var dropped = 0
                for part in mapped.parts {
                    dropped += try (Int.fetchOne(db, part.count(part.rows)) ?? 0) - (Int.fetchOne(db, part.count(part.carried)) ?? 0)
                }
                destructive.append(DestructiveChange(change: change.description, count: dropped, sampleValues: []))
                continue
            }
            destructive.append(try count(change, layout: step.sourceLayout, db: db))
        }
        return StepReport(fromVersion: step.fromVersion, toVersion: step.toVersion, metadataOnly: step.isMetadataOnly,
                          changes: step.changes.map(\.description), tables: step.tableActions, rowsCopied: copied,
                          destructive: destructive, sql: step.sqlText, duration: nil)
    }

    static func count(_ change: MappingChange, layout: StoreLayout, db: Database) throws -> DestructiveChange {
        guard let storage = layout.storage(of: change.entity) else {
            return DestructiveChange(change: change.description, count: 0, sampleValues: [])
        }
        let filter: SQLText = storage.isDiscriminated
            ? " AND \(ColumnName("_entity")) IN (" + storage.kinds.map { "\($0)" as SQLText }.joined(separator: ", ") + ")" : ""
        let table = TableName(storage.table)
        if let property = change.property, let column = storage.attributeColumns[property] {
            let where_ = "\(ColumnName(column)) IS NOT NULL" + filter
            let n = try Int.fetchOne(db, "SELECT count(*) FROM \(table) WHERE " + where_) ?? 0
            let samples = try Row.fetchAll(db, "SELECT DISTINCT \(ColumnName(column)) FROM \(table) WHERE " + where_ + " LIMIT 5")
                .map { String(describing: $0[0] as DatabaseValue) }
            return DestructiveChange(change: change.description, count: n, sampleValues: samples)
        }
        if let property = change.property, let relationship = storage.relationships[property] {
            let n: Int
            switch relationship.kind {
            case .foreignKey:
                n = try Int.fetchOne(db, "SELECT count(*) FROM \(table) WHERE \(ColumnName(relationship.column)) IS NOT NULL" + filter) ?? 0
            case .inverseForeignKey:
                n = try Int.fetchOne(db, "SELECT count(*) FROM \(TableName(relationship.table)) WHERE \(ColumnName(relationship.column)) IS NOT NULL") ?? 0
            case .joinTable:
                n = try Int.fetchOne(db, "SELECT count(*) FROM \(TableName(relationship.table))") ?? 0
            }
            return DestructiveChange(change: change.description, count: n, sampleValues: [])
        }
        let rows = try Int.fetchOne(db, "SELECT count(*) FROM \(table) WHERE 1" + filter) ?? 0
        return DestructiveChange(change: change.description, count: rows, sampleValues: [])
    }
}
