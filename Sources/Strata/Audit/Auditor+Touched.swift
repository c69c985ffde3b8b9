import GRDB

extension Auditor {
    /// Empties `temp.strata_touched` (creating it when missing) before a batch records the rows it changes.
    static func prepareTouched(_ db: Database) throws {
        try db.execute(BatchPlanner.createTouchedTable)
        try db.execute("DELETE FROM \(BatchPlanner.touchedTable)")
    }

    /// How a touched audit runs each rule: on the touched rows of its table, on all rows (an entity-wide rule
    /// of a touched entity), or not at all. The touched rows are those of `temp.strata_touched`, or with
    /// `batchKeysOf` the keys one batch update left in `temp.strata_batch_keys`, all of that table.
    static func touchedModes(_ rules: [AuditRule], batchKeysOf keyedTable: String?, _ db: Database) throws -> [AuditRunMode] {
        guard let keyedTable else {
            let touched = try touchedTables(db, among: Set(rules.flatMap { [$0.table] + $0.entityWideTriggers }))
            return rules.map { $0.mode(touchedTables: touched) }
        }
        let touched: Set<String> = try Bool.fetchOne(db, "SELECT EXISTS (SELECT 1 FROM \(BatchPlanner.keysTable))") == true ? [keyedTable] : []
        return rules.map { rule in
            let mode = rule.mode(touchedTables: touched)
            return mode == .touchedRows ? .batchKeys : mode
        }
    }

    /// The audit after a hook or a batch, inside its transaction: the touched rows (and the entity-wide
    /// rules of their entities) or the whole store; nil for `.none`.
    /// - Parameter batchKeysOf: the table of a batch update whose keys are still in `temp.strata_batch_keys`
    ///   (`BatchExecutor`'s `keepKeys`): the touched rows are read there, not in `temp.strata_touched`.
    static func afterBatch(in db: Database, mode: AuditMode, model: Model, layout: StoreLayout, storeUUID: String,
                           context: PredicateContext, maxSamples: Int, batchKeysOf keyedTable: String? = nil) throws -> AuditResult? {
        guard mode != .none else { return nil }
        var auditor = Auditor(model: model, layout: layout, storeUUID: storeUUID, now: context.now)
        auditor.variables = context.variables
        return try auditor.run(in: db, scope: mode == .full ? .full : .touched, maxSamples: maxSamples, batchKeysOf: keyedTable)
    }
}

extension Auditor {
    /// The audit after a Swift stage (SPEC §11.4, write scope): the entities it wrote (by the authorizer, and
    /// those its declaration lists in `writes:`) in full, plus the rows its batch requests recorded; the whole
    /// store under `full`; nil for `.none`.
    static func afterStage(_ declaration: SwiftStageDeclaration, writing entities: [String], in db: Database, mode: AuditMode,
                           model: Model, layout: StoreLayout, storeUUID: String, context: PredicateContext,
                           maxSamples: Int) throws -> AuditResult? {
        guard let touched = try afterBatch(in: db, mode: mode, model: model, layout: layout, storeUUID: storeUUID,
                                           context: context, maxSamples: maxSamples) else { return nil }
        guard mode == .touched, !entities.isEmpty else { return touched }
        return try including(entities: entities, in: touched, db: db, model: model, layout: layout, storeUUID: storeUUID,
                             context: context, maxSamples: maxSamples)
    }
}
