import StrataCore

/// A version step's report on a PostgreSQL store (SPEC §14.2), the same ``StepReport`` SQLite's runs give:
/// the step's changes and table actions as planned for every engine, the rows each table SQLite would rebuild
/// holds and what the destructive changes drop, counted on the store before the step's statements run
/// (inside its transaction) with the queries of `StepReport.make`; its SQL is PostgreSQL's.
enum PostgresStepReport {
    static func make(_ plan: PostgresStepPlan, session: PostgresSession) async throws -> StepReport {
        let step = plan.step
        var copied: [String: Int] = [:]
        for action in step.tableActions where action.kind == .rebuild {
            let source = action.sourceTable ?? action.table
            if step.sourceLayout.tables.contains(where: { $0.name == source }) {
                copied[source] = try await count("SELECT count(*) FROM \(TableName(source))", session)
            }
        }
        var destructive: [StepReport.DestructiveChange] = []
        for change in step.destructiveChanges {
            if change.kind == .mapEntity, let mapped = step.mappedEntities.first(where: { $0.entity == change.entity }) {
                var dropped = 0
                for part in mapped.parts {
                    dropped += try await count(part.count(PostgresMappingReport.boolean(part.rows)), session)
                        - count(part.count(PostgresMappingReport.boolean(part.carried)), session)
                }
                destructive.append(.init(change: change.description, count: dropped, sampleValues: []))
                continue
            }
            destructive.append(try await self.destructive(change, layout: step.sourceLayout, session: session))
        }
        return StepReport(fromVersion: step.fromVersion, toVersion: step.toVersion, metadataOnly: step.isMetadataOnly,
                          changes: step.changes.map(\.description), tables: step.tableActions, rowsCopied: copied,
                          destructive: destructive, sql: plan.sqlText, duration: nil)
    }

    /// What one destructive change drops: non-NULL values of an attribute (with up to five of them, in the
    /// order the rows hold them), links of a relationship, rows of an entity.
    static func destructive(_ change: MappingChange, layout: StoreLayout,
                            session: PostgresSession) async throws -> StepReport.DestructiveChange {
        guard let storage = layout.storage(of: change.entity) else {
            return .init(change: change.description, count: 0, sampleValues: [])
        }
        let filter: SQLText = storage.isDiscriminated
            ? " AND \(ColumnName("_entity")) IN (" + storage.kinds.map { "\($0)" as SQLText }.joined(separator: ", ") + ")" : ""
        let table = TableName(storage.table)
        if let property = change.property, let column = storage.attributeColumns[property] {
            let condition = "\(ColumnName(column)) IS NOT NULL" + filter
            let n = try await count("SELECT count(*) FROM \(table) WHERE " + condition, session)
            let query = "SELECT \(ColumnName(column)) FROM \(table) WHERE " + condition
                + " GROUP BY 1 ORDER BY min(\(ColumnName("_pk"))) LIMIT 5"
            var samples: [String] = []
            for row in try await session.rows(query) { samples.append(display(try PostgresCellValue.value(row[0], statement: query))) }
            return .init(change: change.description, count: n, sampleValues: samples)
        }
        if let property = change.property, let relationship = storage.relationships[property] {
            let n: Int
            switch relationship.kind {
            case .foreignKey:
                n = try await count("SELECT count(*) FROM \(table) WHERE \(ColumnName(relationship.column)) IS NOT NULL" + filter, session)
            case .inverseForeignKey:
                n = try await count("SELECT count(*) FROM \(TableName(relationship.table)) WHERE \(ColumnName(relationship.column)) IS NOT NULL", session)
            case .joinTable:
                n = try await count("SELECT count(*) FROM \(TableName(relationship.table))", session)
            }
            return .init(change: change.description, count: n, sampleValues: [])
        }
        let rows = try await count("SELECT count(*) FROM \(table) WHERE " + .keyword(.true) + filter, session)
        return .init(change: change.description, count: rows, sampleValues: [])
    }

    /// A dropped value as SQLite's report shows it (GRDB's `DatabaseValue` description): text quoted and escaped.
    static func display(_ value: Value) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let i): String(i)
        case .real(let d): String(d)
        case .text(let s): String(reflecting: s)
        case .blob(let bytes): "\(bytes.count) bytes"
        }
    }

    static func count(_ statement: SQLText, _ session: PostgresSession) async throws(PostgresStoreError) -> Int {
        guard let row = try await session.rows(statement).first else { return 0 }
        return Int(try PostgresSession.decode(row[0], as: Int64.self, statement: statement))
    }
}
