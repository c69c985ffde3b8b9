import Foundation
import GRDB

extension StepReport {
    /// Describes a step, counting on `db` (the store as it is before the step).
    static func make(_ step: VersionStep, db: Database) throws -> StepReport {
        var copied: [String: Int] = [:]
        for action in step.tableActions where action.kind == .rebuild {
            let source = action.sourceTable ?? action.table
            if try db.tableExists(source) {
                copied[source] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(SQLIdentifier.quote(source))") ?? 0
            }
        }
        var destructive: [DestructiveChange] = []
        for change in step.destructiveChanges {
            if change.kind == .mapEntity, let mapped = step.mappedEntities.first(where: { $0.entity == change.entity }) {
                // The rows its `filter:` leaves out.
                func rows(_ condition: SQLText) throws -> Int {
                    let (sql, arguments) = mapped.count(condition).rendered()
                    return try Int.fetchOne(db, sql: sql, arguments: SQLStatement(sql, arguments).statementArguments) ?? 0
                }
                destructive.append(DestructiveChange(change: change.description, count: try rows(mapped.rows) - rows(mapped.carried), sampleValues: []))
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
        var filter = ""
        var arguments: StatementArguments = []
        if storage.isDiscriminated {
            filter = " AND \"_entity\" IN (\(storage.kinds.map { _ in "?" }.joined(separator: ", ")))"
            arguments = StatementArguments(storage.kinds)
        }
        let table = SQLIdentifier.quote(storage.table)
        if let property = change.property, let column = storage.attributeColumns[property] {
            let where_ = "\(SQLIdentifier.quote(column)) IS NOT NULL" + filter
            let n = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(where_)", arguments: arguments) ?? 0
            let samples = try DatabaseValue.fetchAll(db, sql: "SELECT DISTINCT \(SQLIdentifier.quote(column)) FROM \(table) WHERE \(where_) LIMIT 5",
                                                     arguments: arguments).map { String(describing: $0) }
            return DestructiveChange(change: change.description, count: n, sampleValues: samples)
        }
        if let property = change.property, let relationship = storage.relationships[property] {
            let n: Int
            switch relationship.kind {
            case .foreignKey:
                n = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(SQLIdentifier.quote(relationship.column)) IS NOT NULL" + filter,
                                     arguments: arguments) ?? 0
            case .inverseForeignKey:
                n = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(SQLIdentifier.quote(relationship.table)) WHERE \(SQLIdentifier.quote(relationship.column)) IS NOT NULL") ?? 0
            case .joinTable:
                n = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(SQLIdentifier.quote(relationship.table))") ?? 0
            }
            return DestructiveChange(change: change.description, count: n, sampleValues: [])
        }
        let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE 1" + filter, arguments: arguments) ?? 0
        return DestructiveChange(change: change.description, count: rows, sampleValues: [])
    }
}
