import StrataCore

extension PostgresHookRunner {
    /// Runs a batch insert's statements as SQLite's executor does: each `INSERT` (with `onConflict: update`, its
    /// update of the rows whose key exists and its insert of the others, `BatchInsertPlan.upserts`), after each
    /// literal row the updates that link it from one-to-ones stored on the other side, then a `from:` insert's
    /// links of that kind (the new rows, above `before`, matched to their source rows in `_pk` order).
    /// - Returns: the rows inserted, and the existing rows an `onConflict: update` changed (`_pk`, entity).
    func insertRows(_ plan: BatchInsertPlan, _ request: BatchInsertRequest, planner: BatchInsertPlanner,
                    above before: Int64) async throws -> (count: Int, updated: [(Int64, String)]) {
        var count = 0
        var updated: [(Int64, String)] = []
        for (i, statement) in plan.statements.enumerated() {
            if let upsert = i < plan.upserts.count ? plan.upserts[i] : nil {
                if let update = upsert.update {
                    for row in try await run(update).rows {
                        let key = try PostgresSession.decode(row[0], as: Int64.self, statement: update)
                        guard key <= before else { continue }   // a row this insert made: SQLite lists it as inserted only
                        let entity = plan.isDiscriminated ? try PostgresSession.decode(row[1], as: String.self, statement: update) : request.entity
                        updated.append((key, entity))
                    }
                }
                count += try await run(upsert.insert).affected
            } else {
                count += try await run(statement).affected
            }
            for link in i < plan.rowLinks.count ? plan.rowLinks[i] : [] { try await run(link) }
        }
        for link in plan.sourceLinks { try await run(planner.linkStatement(link, table: plan.table, above: before)) }
        return (count, updated)
    }
}
