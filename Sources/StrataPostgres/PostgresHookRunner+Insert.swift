import StrataCore

extension PostgresHookRunner {
    /// A batch insert: its statements as planned (one `INSERT … SELECT`, or one `INSERT … VALUES` per object).
    /// The identity `_pk` only grows, so the new rows are those above the table's highest key read before:
    /// that range is checked for dangling to-one keys (`BatchError.violation` 1700, exit 3, as on SQLite), listed for `objectIDs` and, under the
    /// `touched` audit, recorded in `pg_temp."strata_touched"` in one `INSERT … SELECT`, as on SQLite, with the
    /// existing rows an `onConflict: update` changed.
    func run(_ plan: BatchInsertPlan, _ request: BatchInsertRequest, planner: BatchInsertPlanner) async throws -> BatchResult {
        let table = TableName(plan.table), pk = ColumnName("_pk")
        let highest: SQLText = "SELECT coalesce(max(\(pk)), 0) FROM \(table)"
        let before = try await session.value(highest, as: Int64.self) ?? 0
        let (count, updated, setting) = try await insertRows(plan, request, planner: planner, above: before)
        let updates = request.onConflict == .update
        if let dangling = planner.danglingReferences(plan, above: updates ? nil : before) {
            // SQLite's 1700 (`BatchExecutor.checkReferences`): the same words and rows, located at a hook's step by its runner.
            let rows = try await run(dangling).rows
            if !rows.isEmpty {
                let listed = try rows.map { row -> String in
                    let key = try PostgresSession.decode(row[0], as: Int64.self, statement: dangling)
                    let column = try PostgresSession.decode(row[1], as: String.self, statement: dangling)
                    let value = try PostgresSession.decode(row[2], as: Int64.self, statement: dangling)
                    return "\(request.entity) \(key) \(column) = \(Value.integer(value))"
                }
                throw BatchError.violation(code: 1700, message: "the batch would leave a dangling reference (no object has that primary key): "
                                           + listed.joined(separator: ", ") + (rows.count == 20 ? ", …" : ""))
            }
        }
        var changes = ChangeSet()
        let wantIDs = request.resultType == .objectIDs || options.collectObjectIDs
        changes.hasObjectIDs = wantIDs
        // A one-to-one stored on the rows: an object a row that set it links to leaves its earlier partner, as on SQLite.
        for unlink in planner.unlinks(plan, above: before, updated: setting) {
            try await run(unlink, wantIDs: wantIDs, into: &changes)
        }
        if recordsTouched { try await recordTouched(plan, above: before, updated: updated.map(\.key)) }
        var ids: [ObjectID] = []
        if wantIDs {
            let entity: SQLText = plan.isDiscriminated ? "\(ColumnName("_entity"))" : "CAST(\(request.entity) AS text)"
            let query: SQLText = "SELECT \(pk), " + entity + " FROM \(table) WHERE \(pk) > \(before) ORDER BY \(pk)"
            for row in try await run(query).rows {
                let id = ObjectID(storeUUID: storeUUID, entity: try PostgresSession.decode(row[1], as: String.self, statement: query),
                                  primaryKey: try PostgresSession.decode(row[0], as: Int64.self, statement: query))
                ids.append(id)
                changes.add(inserted: id)
            }
            // Listed once (`normalize`), counted once per source row that updated it.
            for row in updated {
                changes.updated[row.entity, default: []].append(ObjectID(storeUUID: storeUUID, entity: row.entity, primaryKey: row.key))
                changes.updatedCounts[row.entity, default: 0] += row.times
            }
        } else {
            changes.insertedCounts[request.entity] = count
            for row in updated { changes.updatedCounts[row.entity, default: 0] += row.times }
        }
        changes.normalize()
        return BatchResult(kind: .insert, entity: request.entity, count: count,
                           objectIDs: request.resultType == .objectIDs ? ids : nil, changes: changes)
    }

    /// A `setRelationship` step: the ambiguity checks (a cheap query first), a one-to-one's unlinking, then the
    /// one statement that sets the links.
    /// - Throws: `RelationshipAmbiguityError` (exit 3) naming an ambiguous object and two of its matches, as on SQLite.
    func run(_ plan: RelationshipLinkPlan, _ request: SetRelationshipRequest, hook: String?) async throws -> BatchResult {
        if var ambiguous = try await ambiguity(plan) {
            ambiguous.hook = hook
            throw ambiguous   // rolls the step back whatever onViolation says (SPEC §11.4)
        }
        let listsIDs = request.resultType == .objectIDs
        let wantIDs = options.collectObjectIDs || listsIDs
        var changes = ChangeSet()
        changes.hasObjectIDs = wantIDs
        if let unlink = plan.unlinking {
            // A one-to-one: the objects linked anew leave their old partners, recorded first under `touched`.
            try await run(unlink, wantIDs: wantIDs, into: &changes)
        }
        // Keyed when the links must be listed (touched rows, IDs) or ranked (an ordered relationship appends
        // after its existing links in `_pk` order): as SQLite runs it.
        guard recordsTouched || wantIDs || plan.needsKeys else {
            let count = try await run(plan.link).affected
            changes.updatedCounts[plan.changedRoot, default: 0] += count
            changes.normalize()
            return BatchResult(kind: .link, entity: request.entity, count: count, objectIDs: nil, changes: changes)
        }
        // The keyed run, as on SQLite: the rows to write listed first, written, recorded as touched, then read back.
        let keys = RelationshipLinkPlanner.keysTable
        try await run(Self.createLinkKeys)
        try await run("DELETE FROM \(keys)")
        try await run(plan.selectKeys)
        let count = try await run(plan.linkKeyed).affected
        if recordsTouched { for statement in plan.recordTouched { try await run(statement) } }
        let query: SQLText = "SELECT \(ColumnName("pk")), \(ColumnName("entity")) FROM \(keys) ORDER BY \(ColumnName("pk"))"
        var ids: [ObjectID] = []
        for row in try await run(query).rows {
            let entity = try PostgresSession.decode(row[1], as: String.self, statement: query)
            let key = try PostgresSession.decode(row[0], as: Int64.self, statement: query)
            if let id = collect(entity, key, into: &changes, wantIDs: wantIDs) { ids.append(id) }
        }
        try await run("DELETE FROM \(keys)")
        changes.normalize()
        return BatchResult(kind: .link, entity: request.entity, count: count, objectIDs: listsIDs ? ids.sorted() : nil, changes: changes)
    }

    /// Runs a one-to-one's unlinking (`setRelationship`, a batch insert that sets one), as on SQLite: its rows
    /// recorded as touched first when asked, then the update, the changed rows counted (or listed) as updated.
    func run(_ unlink: RelationshipLinkPlan.Unlink, wantIDs: Bool, into changes: inout ChangeSet) async throws {
        if recordsTouched { try await run(unlink.touched) }
        if !wantIDs && !unlink.returnsEntity {
            let n = try await run(unlink.update).affected
            if n > 0 { changes.updatedCounts[unlink.root, default: 0] += n }
            return
        }
        for (entity, pk, n) in try await changed(unlink.returning, discriminated: unlink.returnsEntity, root: unlink.root, ids: wantIDs) {
            if let pk { changes.add(updated: ObjectID(storeUUID: storeUUID, entity: entity, primaryKey: pk)) }
            else { changes.updatedCounts[entity, default: 0] += n }
        }
    }
}
