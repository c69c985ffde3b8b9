import PostgresNIO
import StrataCore

extension PostgresHookRunner {
    /// Runs a batch insert's statements as SQLite's executor does: each `INSERT`, after each literal row the
    /// updates that link it from one-to-ones stored on the other side, then a `from:` insert's links of that
    /// kind (the new rows, above `before`, matched to their source rows in `_pk` order).
    ///
    /// With `onConflict: update`, each statement lists the rows it wrote (`RETURNING`); those at or below `before`
    /// were there already. A literal row is one statement, whose `ON CONFLICT … DO UPDATE` spends one identity
    /// value when it updates, as SQLite's `AUTOINCREMENT` does. A `from:` insert runs as
    /// `BatchInsertPlan.upserts` plans it: its new objects keyed from the identity sequence's next value, which
    /// then moves past one value per source row, as on SQLite, each row written returned with the number of source
    /// rows of its key (an existing row counts that many updates, as SQLite's `RETURNING` lists it); into a table
    /// with several uniqueness constraints, as `BatchInsertPlan.rowByRow` plans it: its source rows written to a
    /// work table, then a PL/pgSQL block inserts or updates them one by one in source order, as SQLite does.
    /// - Returns: the rows inserted, the existing rows an `onConflict: update` changed (`_pk`, entity, and the
    ///   number of source rows that updated it: SQLite's `RETURNING` lists a row once per source row that wrote it),
    ///   and per key column of a one-to-one stored on the rows, those of them a statement that sets it updated.
    func insertRows(_ plan: BatchInsertPlan, _ request: BatchInsertRequest, planner: BatchInsertPlanner,
                    above before: Int64) async throws -> (count: Int, updated: [Updated], setting: [String: [Int64]]) {
        let pk = ColumnName("_pk")
        let updates = request.onConflict == .update
        var count = 0
        var updated: [Updated] = []
        var setting: [String: [Int64]] = [:]
        for (i, statement) in plan.statements.enumerated() {
            let first = updated.count
            guard updates else {
                count += try await run(statement).affected
                for link in i < plan.rowLinks.count ? plan.rowLinks[i] : [] { try await run(link) }
                continue
            }
            if let rowByRow = plan.rowByRow {
                // Dropped after use: a later insert of the same transaction creates it anew (a failed one has
                // aborted the transaction, which takes the table with it).
                try await run(rowByRow.create)
                try await spendingKeys(of: plan.table) { base in Int64(try await run(rowByRow.fill(above: base)).affected) }
                try await run(rowByRow.key)
                try await run(rowByRow.loop)
                try collect(try await run(rowByRow.updated).rows, into: &updated, plan: plan, request: request, above: before,
                            statement: rowByRow.updated)
                try await run(rowByRow.drop)
            } else if let upsert = i < plan.upserts.count ? plan.upserts[i] : nil {
                let rows = try await session.value(upsert.count, as: Int64.self) ?? 0
                try await spendingKeys(of: plan.table) { base in
                    let written = upsert.insert(above: base)
                    try collect(try await run(written).rows, into: &updated, plan: plan, request: request, above: before, statement: written,
                                counted: upsert.returnsWriters)
                    return rows
                }
            } else {
                let written = statement + " RETURNING \(pk)" + (plan.isDiscriminated ? ", \(ColumnName("_entity"))" : "")
                try collect(try await run(written).rows, into: &updated, plan: plan, request: request, above: before, statement: written)
            }
            for column in i < plan.rowUnlinkColumns.count ? plan.rowUnlinkColumns[i] : [] {
                setting[column, default: []] += updated[first...].map(\.key)
            }
            for link in i < plan.rowLinks.count ? plan.rowLinks[i] : [] { try await run(link) }
        }
        for link in plan.sourceLinks { try await run(planner.linkStatement(link, table: plan.table, above: before)) }
        if updates {
            let inserted: SQLText = "SELECT count(*) FROM \(TableName(plan.table)) WHERE \(pk) > \(before)"
            count = Int(try await session.value(inserted, as: Int64.self) ?? 0)
        }
        return (count, updated, setting)
    }

    /// Runs `write` with `base`, the identity sequence's value before it, then moves the sequence past
    /// `base + n`, n the number of rows `write` proposed (each spends a key on SQLite, inserted or not).
    func spendingKeys(of table: String, _ write: (_ base: Int64) async throws -> Int64) async throws {
        let sequence: SQLText = "pg_get_serial_sequence(\(SQLDialect.postgresql.quote(table)), '_pk')"
        let next = try await session.value("SELECT nextval(" + sequence + ")", as: Int64.self) ?? 1
        let last = next - 1 + (try await write(next - 1))
        try await run("SELECT setval(" + sequence + ", \(max(last, 1)), " + .keyword(last >= 1 ? .true : .false) + ")")
    }

    /// An existing row an `onConflict: update` changed: its `_pk`, its entity, and how many source rows updated it
    /// (each counts one update, as each is one row of SQLite's `RETURNING`).
    struct Updated {
        var key: Int64
        var entity: String
        var times: Int
    }

    /// The rows at or below `before` among those an upsert returned (`_pk`[, `_entity`][, the number of source
    /// rows that wrote it, when `counted`; else 1]): existing rows it updated.
    func collect(_ rows: [PostgresRandomAccessRow], into updated: inout [Updated], plan: BatchInsertPlan,
                 request: BatchInsertRequest, above before: Int64, statement: SQLText, counted: Bool = false) throws {
        let writers = plan.isDiscriminated ? 2 : 1   // the column of the count, after `_pk`[, `_entity`]
        for row in rows {
            let key = try PostgresSession.decode(row[0], as: Int64.self, statement: statement)
            guard key <= before else { continue }
            let entity = plan.isDiscriminated ? try PostgresSession.decode(row[1], as: String.self, statement: statement) : request.entity
            let times = counted ? Int(try PostgresSession.decode(row[writers], as: Int64.self, statement: statement)) : 1
            updated.append(Updated(key: key, entity: entity, times: times))
        }
    }
}
