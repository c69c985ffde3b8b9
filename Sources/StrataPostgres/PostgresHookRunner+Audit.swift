import StrataCore
import Strata

extension PostgresHookRunner {
    /// `pg_temp."strata_touched"`, the rows the hook's steps changed, emptied before the hook's first step (as
    /// `Auditor.prepareTouched` on SQLite); dropped when the step's transaction ends.
    static let createTouchedTable: SQLText = """
        CREATE TEMP TABLE IF NOT EXISTS "strata_touched" ("table" text NOT NULL, "pk" bigint NOT NULL, \
        PRIMARY KEY ("table", "pk")) ON COMMIT DROP
        """

    func prepareTouched() async throws {
        try await run(Self.createTouchedTable)
        try await run("DELETE FROM \(BatchPlanner.touchedTable)")
    }

    /// Records what a batch insert changed as touched rows, as SQLite's executor does: the new rows (above
    /// `before`), the rows of other tables whose one-to-one now points at a new object, and the existing rows an
    /// `onConflict: update` changed (`updated`, bound as one JSON array).
    func recordTouched(_ plan: BatchInsertPlan, above before: Int64, updated: [Int64]) async throws {
        let table = TableName(plan.table), pk = ColumnName("_pk")
        try await run(BatchPlanner.recordingTouched(plan.table, "\(pk) FROM \(table) WHERE \(pk) > \(before)"))
        if !plan.sourceLinks.isEmpty || plan.rowLinks.contains(where: { !$0.isEmpty }) {
            for link in plan.linkColumns {
                try await run(BatchPlanner.recordingTouched(link.table, "\(pk) FROM \(TableName(link.table)) WHERE \(ColumnName(link.column)) > \(before)"))
            }
        }
        if !updated.isEmpty {
            // One statement, the keys bound as one JSON array (not a statement per thousand keys).
            let keys = "[" + updated.map(String.init).joined(separator: ",") + "]"
            let value = ColumnName("value", qualifier: "strata_k")
            try await run(BatchPlanner.recordingTouched(plan.table, "CAST(\(value) AS bigint) FROM jsonb_array_elements_text(CAST(\(keys) AS jsonb)) AS \(TableName("strata_k"))"))
        }
    }

    /// The audit after a hook, inside its step's transaction, as on SQLite (`Auditor.afterBatch`, then
    /// `Auditor.including`): under `touched`, the rows the steps recorded (and the entity-wide rules of their
    /// entities), with the entities `sql:` steps wrote (or the hook declares in `writes:`) audited in full;
    /// under `full`, the whole store; nil under `none`.
    /// - Throws: `AuditError`, `PostgresRenderError` (2), `PostgresStoreError` from the server.
    func audit(_ plan: PostgresHookPlan, writing written: [String]) async throws -> AuditResult? {
        guard options.audit != .none else { return nil }
        var auditor = Auditor(model: plan.model, layout: plan.layout, storeUUID: storeUUID, now: plan.context.now)
        auditor.variables = plan.context.variables
        let planner = AuditPlanner(model: plan.model, layout: plan.layout, now: plan.context.now, variables: plan.context.variables)
        let scope: AuditScope = options.audit == .full ? .full : .touched
        let result = try await auditor.run(try planner.rules(for: scope), scope: scope, maxSamples: options.maxSamples,
                                           session: session, renderer: renderer)
        let known = written.filter { plan.model.entity($0) != nil }
        guard options.audit == .touched, !known.isEmpty else { return result }
        // What raw SQL wrote is not known row by row: those entities are audited in full (SPEC §11.4).
        let full = try await auditor.run(try planner.rules(for: .entities(known)), scope: .entities(known),
                                         maxSamples: options.maxSamples, session: session, renderer: renderer)
        return result.including(full, entities: known)
    }
}
