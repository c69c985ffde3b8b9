import StrataCore

/// Objects moving between tables in place (SPEC §4 "an entity leaving its hierarchy", §11.3 splits): where
/// several destination tables take the rows of one source table, one of them keeps the table (the one of the
/// same name, else the first by name) and is altered in place as usual; each other one is created and filled
/// from the source rows it takes with `INSERT … SELECT … OVERRIDING SYSTEM VALUE`, keeping their `_pk`s (their
/// object IDs, as SQLite's rebuild keeps them), before the kept table loses those rows. Links follow the
/// rows: a foreign key whose target becomes another table is dropped before the step and added after it (the
/// keys are unchanged); a link whose target row is not in the table it now names is cleared, as SQLite's step
/// leaves it (SPEC §11.3 "Uncarried rows").
extension PostgresStepPlanner {
    /// Source table → the destination tables taking its rows, where there are several.
    static func splits(_ plans: TablePlans) -> [String: [String]] {
        var consumers: [String: [String]] = [:]
        for plan in plans.tables { if let s = plan.sourceTable { consumers[s, default: []].append(plan.table.name) } }
        return consumers.filter { $0.value.count > 1 }.mapValues { $0.sorted() }
    }

    /// The destination table that keeps the source table of a split.
    static func keeper(of source: String, among tables: [String]) -> String {
        tables.contains(source) ? source : tables[0]
    }

    /// A destination table of a split that does not keep the source table: created (under a temporary name while
    /// a table the step drops or renames still holds its name, `newTable`), filled with the source rows it takes
    /// (its `filter:` and entities), its identity moved past the highest key copied.
    mutating func copy(_ plan: TablePlan, from sourceName: String) {
        let (table, created, types) = newTable(plan)
        moves.append(PostgresSchemaSQL.createTable(created, types: types))
        let old = TableName(ColumnSource.oldAlias)
        var conditions: [SQLText] = []
        if let filter = plan.rowFilter { conditions.append("(" + filter + ") IS TRUE") }
        if let kinds = plan.keptKinds {
            conditions.append(ColumnSource.old("_entity") + " IN (" + kinds.map { "\($0)" as SQLText }.joined(separator: ", ") + ")")
        }
        let values = plan.columns.map { column -> SQLText in
            PostgresColumnSource.expression(column.source, attribute: dstTypes[table.name]?[column.spec.name], type: types[column.spec.name]!)
        }
        let name = TableName(created.name), pk = ColumnName("_pk")
        moves.append("INSERT INTO \(name) (\(plan.columns.map { ColumnName($0.spec.name) })) OVERRIDING SYSTEM VALUE SELECT "
                     + values.joined(separator: ", ") + " FROM \(TableName(sourceName)) AS \(old) WHERE "
                     + (conditions.isEmpty ? .keyword(.true) : conditions.joined(separator: " AND ")) + " ORDER BY \(ColumnName("_pk", qualifier: old.name))")
        let highest: SQLText = "(SELECT max(\(pk)) FROM \(name))"
        moves.append("SELECT setval(pg_get_serial_sequence(\(SQLDialect.postgresql.quote(created.name)), '_pk'), coalesce(" + highest
                     + ", 1), " + highest + " IS NOT NULL)")
        constraints += table.columns.compactMap { PostgresSchemaSQL.addForeignKey($0, table: table.name) }
        indexes += table.indexes.map { PostgresSchemaSQL.createIndex($0, on: table.name) }
        cleanups.append(contentsOf: danglingLinks(to: table.name))
    }

    /// The destination table a source column's values point at after the step (nil: not a link, or dropped).
    func newTarget(of column: String, in sourceTable: String) -> String? {
        for plan in step.tablePlans.tables where plan.sourceTable == sourceTable {
            if let carried = plan.carried[column], let spec = dst.table(plan.table.name)?.column(carried) { return spec.references }
        }
        if step.tablePlans.unchanged.contains(sourceTable) { return dst.table(sourceTable)?.column(column)?.references }
        return nil
    }

    /// Clears the links (destination names, after the renames) whose target row is not in `target`: a to-one
    /// column becomes NULL, a join-table row is deleted.
    func danglingLinks(to target: String) -> [SQLText] {
        var statements: [SQLText] = []
        for table in dst.tables {
            for column in table.columns where column.references == target {
                let t = TableName(table.name), c = ColumnName(column.name)
                let missing: SQLText = "\(c) IS NOT NULL AND \(c) NOT IN (SELECT \(ColumnName("_pk")) FROM \(TableName(target)))"
                statements.append(table.kind == .entity ? "UPDATE \(t) SET \(c) = NULL WHERE " + missing : "DELETE FROM \(t) WHERE " + missing)
            }
        }
        return statements
    }
}
