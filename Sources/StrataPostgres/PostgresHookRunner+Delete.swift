import StrataCore

extension PostgresHookRunner {
    /// `pg_temp."strata_doomed"`, the doomed set of a batch delete, and the cascade round its statements read;
    /// dropped when the step's transaction ends.
    static let createDoomedTables: [SQLText] = [
        """
        CREATE TEMP TABLE IF NOT EXISTS \(BatchPlanner.doomedTable) ("table" text NOT NULL, "pk" bigint NOT NULL, \
        "entity" text NOT NULL, "cascaded" integer NOT NULL DEFAULT 0, "round" integer NOT NULL DEFAULT 0, \
        PRIMARY KEY ("table", "pk")) ON COMMIT DROP
        """,
        #"CREATE TEMP TABLE IF NOT EXISTS "# + "\(BatchPlanner.roundTable)" + #" ("r" integer NOT NULL) ON COMMIT DROP"#,
        "DELETE FROM \(BatchPlanner.doomedTable)",
    ]

    /// A batch delete with the model's delete rules, as `BatchPlanner.planDelete` planned it: the direct delete
    /// when nothing else is involved; else the doomed set (request rows, then cascades round by round), the
    /// deny checks, nullify, join rows and the deletes, all set-based. Under the `touched` audit it takes the
    /// doomed-set path whatever the plan, as SQLite does, and records the rows nullify changes and the objects
    /// whose relationships lose doomed members (`relatedTouched`) in `pg_temp."strata_touched"`.
    /// - Throws: `BatchError.denied` listing the blockers (exit 3; the step rolls back).
    func run(_ plan: BatchDeletePlan, _ request: BatchDeleteRequest, layout: StoreLayout) async throws -> BatchResult {
        let wantIDs = request.resultType == .objectIDs || options.collectObjectIDs
        let listIDs = request.resultType == .objectIDs
        var changes = ChangeSet()
        changes.hasObjectIDs = wantIDs
        if plan.isSimple && !recordsTouched {
            let written = try await write(plain: plan.direct(returning: false), returning: plan.direct(returning: true),
                                          discriminated: plan.isDiscriminated, root: plan.entity, ids: wantIDs)
            let count = written.count, ids = written.ids
            changes.deletedCounts = written.counts
            for id in ids { changes.add(deleted: id) }
            changes.normalize()
            return BatchResult(kind: .delete, entity: request.entity, count: count, objectIDs: listIDs ? ids.sorted() : nil, changes: changes)
        }
        for statement in Self.createDoomedTables { try await run(statement) }
        let count = try await run(plan.seed).affected
        var added = count
        var round = 0
        while added > 0 && !plan.cascades.isEmpty {
            round += 1
            try await run("DELETE FROM \(BatchPlanner.roundTable)")
            try await run("INSERT INTO \(BatchPlanner.roundTable) (\(ColumnName("r"))) VALUES (CAST(\(round) AS integer))")
            added = 0
            for cascade in plan.cascades { added += try await run(cascade.statement).affected }
        }
        try await checkDeny(plan)
        if recordsTouched { for statement in plan.beforeDelete.relatedTouched { try await run(statement) } }
        for nullify in plan.beforeDelete.nullify {
            if recordsTouched { try await run(nullify.touched) }
            let discriminated = layout.entities.values.contains { $0.root == nullify.rootEntity && $0.isDiscriminated }
            if !wantIDs && !discriminated {
                let n = try await run(nullify.update).affected
                if n > 0 { changes.updatedCounts[nullify.rootEntity, default: 0] += n }
                continue
            }
            for (entity, pk, n) in try await changed(nullify.updateReturning, discriminated: nullify.returnsEntity,
                                                      root: nullify.rootEntity, ids: wantIDs) {
                if let pk { changes.add(updated: ObjectID(storeUUID: storeUUID, entity: entity, primaryKey: pk)) }
                else { changes.updatedCounts[entity, default: 0] += n }
            }
        }
        for statement in plan.beforeDelete.unlink + plan.beforeDelete.joinDeletes { try await run(statement) }
        var ids: [ObjectID] = []
        let doomed = BatchPlanner.doomedTable, entity = BatchPlanner.entityColumn, pk = BatchPlanner.pkColumn
        if wantIDs {
            let query: SQLText = "SELECT \(entity), \(pk), \(ColumnName("cascaded")) = 0 FROM \(doomed) ORDER BY \(pk)"
            for row in try await run(query).rows {
                let id = ObjectID(storeUUID: storeUUID, entity: try PostgresSession.decode(row[0], as: String.self, statement: query),
                                  primaryKey: try PostgresSession.decode(row[1], as: Int64.self, statement: query))
                changes.add(deleted: id)
                if try PostgresSession.decode(row[2], as: Bool.self, statement: query) { ids.append(id) }
            }
        } else {
            let query: SQLText = "SELECT \(entity), count(*) FROM \(doomed) GROUP BY \(entity)"
            for row in try await run(query).rows {
                changes.deletedCounts[try PostgresSession.decode(row[0], as: String.self, statement: query), default: 0]
                    += Int(try PostgresSession.decode(row[1], as: Int64.self, statement: query))
            }
        }
        for statement in plan.deletes { try await run(statement) }
        try await run("DELETE FROM \(doomed)")
        changes.normalize()
        return BatchResult(kind: .delete, entity: request.entity, count: count, objectIDs: listIDs ? ids.sorted() : nil, changes: changes)
    }

    /// The deny rules: doomed objects whose deny relationship holds an object that is not doomed.
    /// - Throws: `BatchError.denied` with up to `BatchError.blockerLimit` blockers and their total.
    func checkDeny(_ plan: BatchDeletePlan) async throws {
        var blockers: [DeleteBlocker] = []
        var total = 0
        for check in plan.denyChecks {
            let query = check.query
            for row in try await run(query).rows {
                total += 1
                guard blockers.count < BatchError.blockerLimit else { continue }
                blockers.append(DeleteBlocker(
                    object: ObjectID(storeUUID: storeUUID, entity: try PostgresSession.decode(row[0], as: String.self, statement: query),
                                     primaryKey: try PostgresSession.decode(row[1], as: Int64.self, statement: query)),
                    relationship: check.relationship,
                    related: ObjectID(storeUUID: storeUUID, entity: try PostgresSession.decode(row[2], as: String.self, statement: query),
                                      primaryKey: try PostgresSession.decode(row[3], as: Int64.self, statement: query))))
            }
        }
        if total > 0 { throw BatchError.denied(blockers: blockers, total: total) }
    }
}
