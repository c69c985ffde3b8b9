import GRDB

extension Auditor {
    /// Empties `temp.strata_touched` (creating it when missing) before a batch records the rows it changes.
    static func prepareTouched(_ db: Database) throws {
        try db.execute(BatchPlanner.createTouchedTable)
        try db.execute("DELETE FROM \(BatchPlanner.touchedTable)")
    }

    /// The audit after a hook or a batch, inside its transaction: the touched rows (and the entity-wide
    /// rules of their entities) or the whole store; nil for `.none`.
    static func afterBatch(in db: Database, mode: AuditMode, model: Model, layout: StoreLayout, storeUUID: String,
                           context: PredicateContext, maxSamples: Int) throws -> AuditResult? {
        guard mode != .none else { return nil }
        var auditor = Auditor(model: model, layout: layout, storeUUID: storeUUID, now: context.now)
        auditor.variables = context.variables
        return try auditor.run(in: db, scope: mode == .full ? .full : .touched, maxSamples: maxSamples)
    }
}
