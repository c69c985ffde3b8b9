import StrataCore

/// Tables filled from several sources (SPEC §11.3 "IDs": a merge such as `source: [A, B]`, two mappings of one
/// source, hierarchies joined), as SQLite fills them: the table is created (under a temporary name while a source
/// table holds its name) and each part copied by its own `INSERT … SELECT … OVERRIDING SYSTEM VALUE`, in part order
/// then old `_pk` order, before anything changes the source rows. When the rows get new IDs, the translation
/// table `pg_temp."strata_remap"` (`ON COMMIT DROP`) numbers them first, above the highest `_pk` the tables
/// involved ever used (their rows and their key sequences, as SQLite reads `sqlite_sequence`); every link to
/// them reads it (`TablePlanner.relinked`). The table's key sequence then goes past the highest key used.
extension PostgresStepPlanner {
    static let remap = TableName("strata_remap", schema: "temp")

    /// The translation table and its rows, for every table whose rows get new IDs: run before any copy or fill.
    mutating func planRemap(_ plans: [TablePlan]) {
        let renumbered = plans.filter { $0.newIDs && !$0.parts.isEmpty }
        guard !renumbered.isEmpty else { return }
        let columns = ["source", "old", "entity", "kind"].map { ColumnName($0) }
        remaps.append("DROP TABLE IF EXISTS \(Self.remap)")
        remaps.append("""
            CREATE TEMP TABLE \(TableName(Self.remap.name)) ("source" text NOT NULL, "old" bigint NOT NULL, "entity" text NOT NULL, \
            "kind" text NOT NULL, "new" bigint NOT NULL, PRIMARY KEY ("source", "old", "kind")) ON COMMIT DROP
            """)
        let old = TableName(ColumnSource.oldAlias)
        for plan in renumbered {
            let selects: [SQLText] = plan.parts.enumerated().map { i, part in
                "SELECT CAST(\(i) AS bigint) AS \(ColumnName("part")), CAST(\(part.sourceTable) AS text) AS \(ColumnName("source")), "
                    + ColumnSource.old("_pk") + " AS \(ColumnName("old")), CAST(\(part.source) AS text) AS \(ColumnName("entity")), "
                    + "CAST(\(part.kind) AS text) AS \(ColumnName("kind")) FROM \(TableName(part.sourceTable)) AS \(old)" + condition(of: part)
            }
            remaps.append("INSERT INTO \(Self.remap) (\(columns), \(ColumnName("new"))) SELECT \(columns), " + highestUsedID(plan)
                          + " + row_number() OVER (ORDER BY \(ColumnName("part")), \(ColumnName("old"))) FROM ("
                          + selects.joined(separator: " UNION ALL ") + ") AS \(TableName("strata_parts"))")
        }
        let kind = ColumnName("kind"), new = ColumnName("new")
        remapped = .remapped(list: "SELECT \(ColumnName("entity")), \(ColumnName("old")), \(kind), \(new) FROM \(Self.remap) ORDER BY \(kind), \(new)",
                             counts: "SELECT \(kind), count(*) FROM \(Self.remap) GROUP BY \(kind) ORDER BY \(kind)")
        dropTables.append("DROP TABLE \(Self.remap)")
    }

    /// A table filled from several sources: created, each part copied, its key sequence moved past the highest
    /// key used; its foreign keys and indexes at the end.
    mutating func merge(_ plan: TablePlan) {
        let (table, initial, types) = newTable(plan)
        var created = initial
        moves.append(PostgresSchemaSQL.createTable(deferringNotNull(&created, finalName: table.name), types: types))
        let name = TableName(created.name), old = TableName(ColumnSource.oldAlias)
        for part in plan.parts {
            let values = part.columns.map { column -> SQLText in
                PostgresColumnSource.expression(column.source, attribute: dstTypes[table.name]?[column.spec.name], type: types[column.spec.name]!)
            }
            moves.append("INSERT INTO \(name) (\(part.columns.map { ColumnName($0.spec.name) })) OVERRIDING SYSTEM VALUE SELECT "
                         + values.joined(separator: ", ") + " FROM \(TableName(part.sourceTable)) AS \(old)" + condition(of: part)
                         + " ORDER BY \(ColumnName("_pk", qualifier: old.name))")
        }
        let h = ColumnName("h", qualifier: "strata_h")
        moves.append("SELECT setval(pg_get_serial_sequence(\(SQLDialect.postgresql.quote(created.name)), '_pk'), greatest(\(h), 1), \(h) > 0)"
                     + " FROM (SELECT greatest(" + highestUsedID(plan) + ", coalesce(max(\(ColumnName("_pk"))), 0)) AS \(ColumnName("h"))"
                     + " FROM \(name)) AS \(TableName("strata_h"))")
        constraints += table.columns.compactMap { PostgresSchemaSQL.addForeignKey($0, table: table.name) }
        indexes += table.indexes.map { PostgresSchemaSQL.createIndex($0, on: table.name) }
    }

    /// ` WHERE …` of a part: its source entity's rows (in a hierarchy table) that its filter carries; empty for every row.
    func condition(of part: TablePlan.Part) -> SQLText {
        var conditions: [SQLText] = []
        if src.table(part.sourceTable)?.column("_entity") != nil { conditions.append(ColumnSource.old("_entity") + " = \(part.source)") }
        if let filter = part.rowFilter { conditions.append("(" + filter + ") IS TRUE") }
        return conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }

    /// The highest `_pk` the tables involved ever used: their rows and their key sequences (`pg_sequence_last_value`
    /// is NULL for a sequence never used), as SQLite's rule reads the rows and `sqlite_sequence`.
    func highestUsedID(_ plan: TablePlan) -> SQLText {
        let pk = ColumnName("_pk"), m = ColumnName("m")
        var maxima: [SQLText] = []
        for table in plan.usedIDTables {
            maxima.append("SELECT max(\(pk)) AS \(m) FROM \(TableName(table))")
            maxima.append("SELECT pg_sequence_last_value(CAST(pg_get_serial_sequence(\(SQLDialect.postgresql.quote(table)), '_pk') AS regclass))")
        }
        return "(SELECT coalesce(max(\(m)), 0) FROM (" + maxima.joined(separator: " UNION ALL ") + ") AS \(TableName("strata_used")))"
    }

    /// A join table copied from the source's with its links re-linked (a `rowFilter` leaving out the links whose
    /// object no mapping carries): its keys change, so it is not kept in place.
    static func isCopiedJoin(_ plan: TablePlan) -> Bool {
        plan.table.kind != .entity && plan.sourceTable != nil && plan.rowFilter != nil
    }

    /// A join table created (under a temporary name while a source table holds its name) and filled from the
    /// source's join table with its links re-linked, before the source tables go.
    mutating func copyJoin(_ plan: TablePlan, from sourceName: String) {
        let table = dst.table(plan.table.name)!
        let types = PostgresTypes.columnTypes(of: table, attributeTypes: dstTypes)
        var created = table
        if heldNames.contains(table.name) {
            created.name = Self.temporaryName(table.name)
            laterRenames.append("ALTER TABLE \(TableName(created.name)) RENAME TO \(TableName(table.name))")
        }
        linkFills.append(PostgresSchemaSQL.createTable(deferringNotNull(&created, finalName: table.name), types: types))
        let values = plan.columns.map { column -> SQLText in
            PostgresColumnSource.expression(column.source, attribute: dstTypes[table.name]?[column.spec.name], type: types[column.spec.name]!)
        }
        var insert: SQLText = "INSERT INTO \(TableName(created.name)) (\(plan.columns.map { ColumnName($0.spec.name) })) SELECT "
            + values.joined(separator: ", ") + " FROM \(TableName(sourceName)) AS \(TableName(ColumnSource.oldAlias))"
        if let filter = plan.rowFilter { insert += " WHERE (" + filter + ") IS TRUE" }
        linkFills.append(insert)
        constraints += table.columns.compactMap { PostgresSchemaSQL.addForeignKey($0, table: table.name) }
        indexes += table.indexes.map { PostgresSchemaSQL.createIndex($0, on: table.name) }
    }

    /// The table without its `NOT NULL`s (key columns aside), which are set once the step's checks passed: a
    /// copied value that came out nil (a failed cast) is the step's check (1570, exit 3), as on SQLite, not an
    /// error of the copy.
    mutating func deferringNotNull(_ table: inout TableSpec, finalName: String) -> TableSpec {
        for i in table.columns.indices where table.columns[i].isNotNull && !table.columns[i].isPrimaryKey
            && !table.primaryKey.contains(table.columns[i].name) {
            table.columns[i].isNotNull = false
            notNull.append("ALTER TABLE \(TableName(finalName)) ALTER COLUMN \(ColumnName(table.columns[i].name)) SET NOT NULL")
        }
        return table
    }
}
