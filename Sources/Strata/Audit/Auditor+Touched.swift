import GRDB

extension Auditor {
    /// Empties `temp.strata_touched` (creating it when missing) before a batch records the rows it changes.
    static func prepareTouched(_ db: Database) throws {
        try db.execute(BatchPlanner.createTouchedTable)
        try db.execute("DELETE FROM \(BatchPlanner.touchedTable)")
    }

    /// How a touched audit runs each rule: on the touched rows of `source` (its tables'), on all rows (an
    /// entity-wide rule of a touched entity), or not at all.
    static func touchedModes(_ rules: [AuditRule], source: TouchedSource, _ db: Database) throws -> [AuditRunMode] {
        let touched: Set<String>, rowsMode: AuditRunMode
        switch source {
        case .recorded:
            touched = try touchedTables(db, among: Set(rules.flatMap { [$0.table] + $0.entityWideTriggers }))
            rowsMode = .touchedRows
        case .keys(let table):
            touched = try Bool.fetchOne(db, "SELECT EXISTS (SELECT 1 FROM \(BatchPlanner.keysTable))") == true ? [table] : []
            rowsMode = .batchKeys
        case .matching(let table, let condition, let count):
            touched = count > 0 ? [table] : []
            rowsMode = .matching(condition)
        }
        return rules.map { rule in
            let mode = rule.mode(touchedTables: touched)
            return mode == .touchedRows ? rowsMode : mode
        }
    }

    /// The audit after a hook or a batch, inside its transaction: the touched rows (and the entity-wide
    /// rules of their entities) or the whole store; nil for `.none`.
    /// - Parameter source: where the touched rows are (a batch update audited alone leaves them elsewhere than
    ///   `temp.strata_touched`: `BatchExecutor.executeAudited`).
    static func afterBatch(in db: Database, mode: AuditMode, model: Model, layout: StoreLayout, storeUUID: String,
                           context: PredicateContext, maxSamples: Int, touched source: TouchedSource = .recorded) throws -> AuditResult? {
        guard mode != .none else { return nil }
        var auditor = Auditor(model: model, layout: layout, storeUUID: storeUUID, now: context.now)
        auditor.variables = context.variables
        return try auditor.run(in: db, scope: mode == .full ? .full : .touched, maxSamples: maxSamples, touched: source)
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
