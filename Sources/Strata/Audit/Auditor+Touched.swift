import GRDB

extension Auditor {
    /// Empties `temp.strata_touched` (creating it when missing) before a batch records the rows it changes.
    static func prepareTouched(_ db: Database) throws {
        try db.execute(sql: BatchPlanner.createTouchedTable)
        try db.execute(sql: "DELETE FROM \(BatchPlanner.touchedTable)")
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

extension Auditor {
    /// The audit after a Swift stage (SPEC §11.4, write scope): the entities its declaration lists in `writes:`
    /// in full, plus the rows its batch requests recorded; the whole store under `full`; nil for `.none`.
    static func afterStage(_ declaration: SwiftStageDeclaration, in db: Database, mode: AuditMode, model: Model,
                           layout: StoreLayout, storeUUID: String, context: PredicateContext, maxSamples: Int) throws -> AuditResult? {
        guard mode != .none else { return nil }
        var auditor = Auditor(model: model, layout: layout, storeUUID: storeUUID, now: context.now)
        auditor.variables = context.variables
        if mode == .full || declaration.writes.isEmpty {
            return try auditor.run(in: db, scope: mode == .full ? .full : .touched, maxSamples: maxSamples)
        }
        var result = try auditor.run(in: db, scope: .entities(declaration.writes), maxSamples: maxSamples)
        if try !touchedTables(db).isEmpty {
            // Batch requests made through the context: their rows too, without counting a rule twice.
            let touched = try auditor.run(in: db, scope: .touched, maxSamples: maxSamples)
            let known = Set(result.rules.map { [$0.entity, $0.property ?? "", $0.rule] })
            result.rules += touched.rules.filter { !known.contains([$0.entity, $0.property ?? "", $0.rule]) }
        }
        return result
    }
}
