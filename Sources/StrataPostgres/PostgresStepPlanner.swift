import StrataCore

/// Renders a version step's table plans (`VersionStep.tablePlans`, planned once by StrataCore for every
/// engine) as PostgreSQL's in-place `ALTER TABLE` work (SPEC §14.2: no table rebuild). Pure.
///
/// Each changed table keeps its rows where they are: new tables are created, removed ones dropped,
/// renamed ones renamed; columns are added and filled from their `ColumnSource`, retyped with
/// `ALTER COLUMN … TYPE … USING`, renamed or dropped; foreign keys and indexes follow. Rows moving to
/// another table (splits, an entity leaving its hierarchy) are copied there with their keys
/// (`PostgresStepPlanner+Split`). A table filled from several sources (merges, new object IDs) is created
/// and filled part by part, every link to rows with new IDs re-linked (`PostgresStepPlanner+Merge`); a mapping
/// file's expressions and filters are done in place (`PostgresStepPlanner+Mapping`).
///
/// The statements run in phases, so that every fill reads the source rows as they were:
/// dependent-view check, pre-checks, dropped constraints and indexes, rows of removed entities deleted,
/// new tables, link copies, column work (retype, add, fill, drop), dropped tables, renames, defaults,
/// checks, `SET NOT NULL`, foreign keys, indexes.
struct PostgresStepPlanner {
    typealias Operation = PostgresStepPlan.Operation

    let step: VersionStep
    let src: StoreLayout
    /// The destination layout with PostgreSQL's index names.
    let dst: StoreLayout
    let srcTypes: [String: [String: AttributeType]]
    let dstTypes: [String: [String: AttributeType]]
    /// `(version a → b)`, for messages.
    let place: String
    /// Source table → destination table, for every table kept in place (unchanged ones included).
    var tableNames: [String: String] = [:]

    /// Tables (column nil) and columns the step drops or retypes: user views and rules on them stop it.
    var dependents: [PostgresDependents.Target] = []
    var preChecks: [Operation] = []
    var dropConstraints: [SQLText] = []
    var deletes: [SQLText] = []
    var creates: [SQLText] = []
    /// Tables taking rows of a source table that another destination table keeps (a split), created and
    /// filled before anything changes the source rows.
    var moves: [SQLText] = []
    /// The translation table of rows getting new IDs, filled before any copy or fill reads it (`+Merge`).
    var remaps: [SQLText] = []
    /// The translation read for the change set, once every link is re-linked and before the table is dropped.
    var remapped: Operation?
    /// Links whose target rows moved to another table, cleared once every table holds its rows.
    var cleanups: [SQLText] = []
    var linkFills: [SQLText] = []
    var retypes: [SQLText] = []
    var adds: [SQLText] = []
    var fills: [SQLText] = []
    /// Rows a mapping's `filter:` leaves out, and the links to them, deleted once the fills have read them.
    var filterDeletes: [SQLText] = []
    var dropColumns: [SQLText] = []
    var dropTables: [SQLText] = []
    var renames: [SQLText] = []
    /// Tables that take a name a source table holds while the step runs: created or renamed under a
    /// temporary name (`strata_rename_…`), which these renames replace once every table has its name.
    var heldNames: Set<String> = []
    var laterRenames: [SQLText] = []
    var defaults: [SQLText] = []
    var checks: [Operation] = []
    var notNull: [SQLText] = []
    var constraints: [SQLText] = []
    var indexes: [SQLText] = []

    /// The step's PostgreSQL plan.
    /// - Throws: `PostgresStoreError.notYetSupported` naming the first work this engine cannot do in place
    ///   yet; `.nameTooLong` for a new table or column name over 63 bytes.
    static func plan(_ step: VersionStep, source: Model, destination: Model) throws(PostgresStoreError) -> PostgresStepPlan {
        let place = "(version \(step.fromVersion) → \(step.toVersion))"
        let dst = try PostgresLayout.adapted(step.destinationLayout)
        var planner = PostgresStepPlanner(
            step: step, src: step.sourceLayout, dst: dst,
            srcTypes: PostgresTypes.attributeTypes(step.sourceLayout, model: source),
            dstTypes: PostgresTypes.attributeTypes(dst, model: destination), place: place)
        try planner.planTables()
        try planner.checkRendering(planner.operations)
        return PostgresStepPlan(step: step, fromVersion: step.fromVersion, toVersion: step.toVersion, destinationLayout: dst,
                                operations: planner.operations, hasMapping: step.mappingFile != nil,
                                mappedEntities: step.mappedEntities, droppedLinks: step.droppedLinks)
    }

    /// Every phase, in order.
    var operations: [Operation] {
        var ops: [Operation] = []
        if !dependents.isEmpty { ops.append(.dependents(dependents)) }
        ops += preChecks
        // A mapping file's expressions read the rows as they were (as SQLite's copy reads the source tables):
        // new columns are filled before the filtered rows go and before any retype.
        // The foreign-key checks a mapping's fills and deletes queued (deferred) run right after them: PostgreSQL
        // alters no table with pending trigger events, and a second UPDATE of a row in one transaction queues its
        // table's foreign-key checks even when it leaves the keys alone (two mapped columns filled, then the old
        // ones dropped).
        let settle: [SQLText] = filterDeletes.isEmpty && fills.isEmpty ? [] : ["SET CONSTRAINTS ALL IMMEDIATE", "SET CONSTRAINTS ALL DEFERRED"]
        let columns = step.mappingFile == nil ? retypes + adds + fills : adds + fills + filterDeletes + settle + retypes
        ops += (dropConstraints + remaps + moves + deletes + creates + linkFills + columns + dropColumns).map(Operation.execute)
        if let remapped { ops.append(remapped) }
        ops += (dropTables + renames + laterRenames + cleanups + defaults).map(Operation.execute)
        ops += checks
        ops += (notNull + constraints + indexes).map(Operation.execute)
        return ops
    }

    mutating func planTables() throws(PostgresStoreError) {
        let plans = step.tablePlans
        // A filter on a table filled from several sources is each part's (`TablePlan.Part.rowFilter`, `+Merge`).
        precondition(plans.tables.allSatisfy { $0.rowFilter == nil || $0.sourceTable != nil }, "a table-wide filter names its source table")
        // Join tables whose links are re-linked to objects with new IDs are copied (`+Merge`), not kept in place.
        let copiedJoins = Set(plans.tables.filter { Self.isCopiedJoin($0) }.map(\.table.name))
        let splits = Self.splits(plans)
        let moved = Set(splits.flatMap { source, tables in tables.filter { $0 != Self.keeper(of: source, among: tables) } })
        for name in plans.unchanged { tableNames[name] = name }
        for plan in plans.tables where !moved.contains(plan.table.name) && !copiedJoins.contains(plan.table.name) {
            if let s = plan.sourceTable { tableNames[s] = plan.table.name }
        }
        let keptSources = Set(tableNames.keys)
        for plan in plans.tables where (plan.sourceTable != plan.table.name || copiedJoins.contains(plan.table.name))
            && src.table(plan.table.name) != nil {
            // A new, renamed or split-off table takes a name a source table still holds while the step runs
            // (dropped, or renamed in turn): it goes by a temporary name until every table has its own.
            heldNames.insert(plan.table.name)
        }
        preChecks = plans.preChecks.map { check(postgres: $0) }
        planRemap(plans.tables)
        for name in plans.unchanged {
            // Unchanged for SQLite (same storage types) can still be a wider native type here (int16 → int32).
            guard let table = dst.table(name), let old = src.table(name),
                  PostgresTypes.columnTypes(of: old, attributeTypes: srcTypes) != PostgresTypes.columnTypes(of: table, attributeTypes: dstTypes)
            else { continue }
            let columns = table.columns.map { TablePlan.Column(spec: $0, source: .column($0.name)) }
            try alter(TablePlan(table: table, sourceTable: name, keptKinds: nil, columns: columns,
                                carried: Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, $0.name) }), sqliteKind: .alter),
                      from: name)
        }
        for plan in plans.tables {
            if let sourceTable = plan.sourceTable, moved.contains(plan.table.name) {
                copy(plan, from: sourceTable)
            } else if !plan.parts.isEmpty {
                merge(plan)
            } else if let sourceTable = plan.sourceTable, copiedJoins.contains(plan.table.name) {
                copyJoin(plan, from: sourceTable)
            } else if let sourceTable = plan.sourceTable {
                try alter(plan, from: sourceTable)
                if splits[sourceTable] != nil { cleanups += danglingLinks(to: plan.table.name) }
            } else {
                create(plan)
            }
        }
        // One statement for every table the step drops: their foreign keys may name each other (a merged
        // entity's table referencing the other one's), which PostgreSQL accepts only when both go together.
        let dropped = (src.tables.filter { $0.kind != .entity } + src.tables.filter { $0.kind == .entity })
            .filter { !keptSources.contains($0.name) }
        if !dropped.isEmpty {
            dropTables.append("DROP TABLE " + dropped.map { "\(TableName($0.name))" as SQLText }.joined(separator: ", "))
        }
        dependents += dropped.map { .init(table: $0.name) }
        defaults = plans.nullDefaults.map(nullDefault)
        checks += plans.checks.map { check(postgres: $0) }
    }

    /// The destination table of `plan`, the table to create (under a temporary name, renamed at the end, while
    /// a table the step drops or renames still holds its name) and its columns' PostgreSQL types.
    mutating func newTable(_ plan: TablePlan) -> (table: TableSpec, created: TableSpec, types: [String: String]) {
        let table = dst.table(plan.table.name)!
        var created = table
        if heldNames.contains(table.name) {
            created.name = Self.temporaryName(table.name)
            laterRenames.append("ALTER TABLE \(TableName(created.name)) RENAME TO \(TableName(table.name))")
        }
        return (table, created, PostgresTypes.columnTypes(of: table, attributeTypes: dstTypes))
    }

    /// A new table: created empty (its foreign keys and indexes at the end), or filled with links held
    /// elsewhere before the step.
    mutating func create(_ plan: TablePlan) {
        let (table, created, types) = newTable(plan)
        creates.append(PostgresSchemaSQL.createTable(created, types: types))
        if let fill = plan.linkFill {
            linkFills.append("INSERT INTO \(TableName(created.name)) (\(table.columns.map { ColumnName($0.name) })) " + fill)
        }
        constraints += table.columns.compactMap { PostgresSchemaSQL.addForeignKey($0, table: table.name) }
        indexes += table.indexes.map { PostgresSchemaSQL.createIndex($0, on: table.name) }
    }

    /// The name a table goes by while the name it takes is held by another: `strata_rename_` and its name (cut
    /// to PostgreSQL's 63 bytes).
    static func temporaryName(_ name: String) -> String {
        var result = "strata_rename_"
        for character in name where result.utf8.count + String(character).utf8.count <= 63 { result.append(character) }
        return result
    }

    /// `UPDATE … SET column = default WHERE column IS NULL` with the default as the column's type.
    func nullDefault(_ fill: NullDefault) -> SQLText {
        let column = ColumnName(fill.column)
        let value = dstTypes[fill.table]?[fill.column].map { PostgresTypes.expression(fill.value, as: $0) } ?? .bind(fill.value)
        var sql: SQLText = "UPDATE \(TableName(fill.table)) SET \(column) = " + value + " WHERE \(column) IS NULL"
        if let kinds = fill.kinds { sql += " AND \(ColumnName("_entity")) IN (" + kinds.map { "\($0)" as SQLText }.joined(separator: ", ") + ")" }
        return sql
    }
}
