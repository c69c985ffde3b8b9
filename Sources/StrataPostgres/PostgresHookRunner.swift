import Foundation
import PostgresNIO
import StrataCore
import Strata

/// Runs planned hooks on a PostgreSQL store inside the caller's step transaction (SPEC §5, §14.2): each
/// step's statements set-based, recording the rows they change in `pg_temp."strata_touched"` as SQLite does,
/// then the audit (SPEC §7) and the hook's `strata_hooks` record in the same transaction, so the hook
/// commits with its version step or not at all. The step transaction's `pg_advisory_xact_lock` and the
/// record read here keep it exactly-once.
struct PostgresHookRunner {
    let store: PostgresStore
    let renderer: PostgresRenderer
    let storeUUID: String
    /// The audit after each hook and what the change set lists; by default no audit and counts only.
    var options = Options()

    /// What the runner audits and collects, as `HookRunner.Options` on SQLite.
    struct Options: Sendable {
        var audit: AuditMode = .none
        var maxSamples = 20
        /// List changed object IDs in the change set even when no result type asks (`--changes-out`).
        var collectObjectIDs = false
        /// The Swift stages this binary registers (SPEC §11.2).
        var stages = Stages()
        /// Whether the run is a dry run (Swift stages are told).
        var isDryRun = false
    }

    /// Whether the steps record what they change in `pg_temp."strata_touched"` (the `touched` audit).
    var recordsTouched: Bool { options.audit == .touched }

    var session: PostgresSession { store.session }

    /// Runs `plan` unless its hook is recorded already (applied by another run, or not needed): its steps, the
    /// audit of what they touched (``Options/audit``), then its record.
    /// - Returns: the hook's result and change set, or nil when it was recorded already.
    /// - Throws: `HookViolationError` (exit 3) when the audit finds violations and the hook says `onViolation:
    ///   rollback`; `BatchError.denied` (exit 3), `SQLStepError` (exit 3) for a batch step breaking a uniqueness
    ///   constraint, as on SQLite; `PostgresStoreError` (violations 3, server 1), `PostgresRenderError` (2).
    func run(_ plan: PostgresHookPlan) async throws -> (result: HookRunResult, changes: ChangeSet)? {
        let hook = plan.hook
        if try await isRecorded(hook.id) { return nil }
        if recordsTouched { try await prepareTouched() }
        var steps: [HookStepResult] = []
        var changes = ChangeSet()
        changes.hasObjectIDs = options.collectObjectIDs
        var sqlWritten: Set<String> = []
        let hasSQL = plan.steps.contains { if case .sql = $0 { return true } else { return false } }
        let schemaBefore = hasSQL ? try await managedSchema(plan.layout) : []
        for (index, step) in plan.steps.enumerated() {
            let started = Date()
            if case .sql(let statements, let location) = step {
                let (count, written) = try await runSQL(statements, hook: hook.id, step: index + 1, at: location, layout: plan.layout)
                changes.invalidate(written)
                sqlWritten.formUnion(written)
                steps.append(HookStepResult(kind: "sql", entity: written.joined(separator: ", "), count: count, objectIDs: nil,
                                            updatedCounts: [:], deletedCounts: [:], duration: Date().timeIntervalSince(started)))
                continue
            }
            if case .stage(let declaration) = step {
                let (result, stageChanges, written) = try await runStage(plan, declaration: declaration)
                changes.merge(stageChanges)
                sqlWritten.formUnion(written)
                steps.append(result)
                continue
            }
            let result: BatchResult
            do {
                result = try await run(step, model: plan.model, layout: plan.layout, hook: hook.id)
            } catch BatchError.violation(let code, let message) {
                // A check of Strata's own (a dangling reference, 1700): located at the hook's step, as `HookRunner.located`.
                var located = SQLStepError(.violation(code: code), "hook '\(hook.id)' step \(index + 1): \(message)",
                                           at: index < hook.stepLocations.count ? hook.stepLocations[index] : hook.afterLocation)
                located.source = hook.source
                throw located
            } catch let error as PostgresStoreError {
                // A constraint the step broke: exit 3 located at the hook's step, as on SQLite; the step rolls back. A
                // uniqueness constraint is reported in SQLite's words (`HookRunner.located`), its table and columns named.
                if case .violation(let code, let message)? = PostgresBatch.violation(error, layout: plan.layout), code == 1551 {
                    var located = SQLStepError(.violation(code: code), "hook '\(hook.id)' step \(index + 1): \(message)",
                                               at: index < hook.stepLocations.count ? hook.stepLocations[index] : hook.afterLocation)
                    located.source = hook.source
                    throw located
                }
                guard case .server(let message, let state?, _, _) = error, let code = Self.violationCodes[state] else { throw error }
                throw PostgresStoreError.violations(message: "hook '\(hook.id)' step \(index + 1) would break a rule (\(code)): \(message)",
                                                    objects: [])
            }
            changes.merge(result.changes)
            steps.append(HookStepResult(kind: step.kind, entity: step.entity, count: result.count, objectIDs: result.objectIDs,
                                        updatedCounts: result.changes.updatedCounts, deletedCounts: result.changes.deletedCounts,
                                        duration: Date().timeIntervalSince(started)))
        }
        if hasSQL { try await checkManagedSchema(plan.layout, unchangedFrom: schemaBefore, hook: hook) }
        if !hook.writes.isEmpty {
            // Declared writes (SPEC §11.4): audited in full and invalidated, as on SQLite.
            sqlWritten.formUnion(hook.writes)
            changes.invalidate(hook.writes)
        }
        let audited = try await audit(plan, writing: sqlWritten.sorted())
        var outcome = HookRunResult(id: hook.id, after: hook.after, file: hook.file, checksum: hook.checksum,
                                    onViolation: hook.onViolation, steps: steps, rowsAffected: steps.reduce(0) { $0 + $1.count },
                                    audit: audited, committed: true)
        if hook.timing == .before { outcome.timing = .before }
        if outcome.violationCount > 0 && hook.onViolation == .rollback {
            outcome.committed = false
            throw HookViolationError(result: outcome)
        }
        try await record(hook, model: plan.model, result: outcome)
        return (outcome, changes)
    }

    /// One batch step (an update, a delete, an insert or a link) inside the caller's transaction: a hook's step,
    /// `strata batch`'s request or the library's (`PostgresStore.execute`), each kind run by one function.
    /// - Parameter hook: the hook whose step it is, named by a `RelationshipAmbiguityError`; nil outside hooks.
    func run(_ step: PostgresHookPlan.Step, model: Model, layout: StoreLayout, hook: String?) async throws -> BatchResult {
        switch step {
        case .update(let update, let request): return try await run(update, request)
        case .delete(let delete, let request): return try await run(delete, request, layout: layout)
        case .insert(let insert, let request): return try await run(insert, request, planner: BatchInsertPlanner(model: model, layout: layout))
        case .link(let link, let request): return try await run(link, request, hook: hook)
        case .sql: preconditionFailure("sql steps run in the hook's loop")
        case .stage: preconditionFailure("Swift stages run in the hook's loop")
        }
    }

    /// SQLSTATEs of constraint failures and the Core Data-style codes they are reported with (SPEC §11.4).
    static let violationCodes = ["23505": 1551, "23503": 1700, "23502": 1570]

    /// Whether `strata_hooks` has a record for the hook, read inside the step transaction.
    func isRecorded(_ id: String) async throws -> Bool {
        try await session.value(#"SELECT count(*) FROM "strata_hooks" WHERE "id" = "# + "\(id)", as: Int64.self) ?? 0 > 0
    }

    /// The hook's `applied` record, with the per-step summary SQLite stores keep.
    func record(_ hook: Hook, model: Model, result: HookRunResult) async throws {
        struct StepSummary: Codable { var kind: String; var entity: String; var count: Int }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let summary = String(decoding: try encoder.encode(result.steps.map { StepSummary(kind: $0.kind, entity: $0.entity, count: $0.count) }),
                             as: UTF8.self)
        try await session.execute("""
            INSERT INTO "strata_hooks" ("id", "checksum", "afterVersion", "modelVersion", "status", "rowsAffected", "finished", \
            "results") VALUES (\(hook.id), \(hook.checksum), CAST(\(hook.after) AS integer), CAST(\(model.version) AS integer), \
            'applied', \(result.rowsAffected), \(History.timestamp(Date())), \(summary))
            """)
    }

    /// Runs one statement through the run's renderer.
    @discardableResult
    func run(_ statement: SQLText) async throws -> (rows: [PostgresRandomAccessRow], affected: Int) {
        try await session.run(try renderer.rendering(statement))
    }

    // MARK: Update

    /// A batch update: one `UPDATE`; with IDs or a hierarchy table, inside a CTE that returns what it changed.
    func run(_ plan: BatchUpdatePlan, _ request: BatchUpdateRequest) async throws -> BatchResult {
        let wantIDs = request.resultType == .updatedObjectIDs || options.collectObjectIDs
        let written = try await write(plain: plan.update(returning: false), returning: plan.update(returning: true),
                                      discriminated: plan.isDiscriminated, root: plan.rootEntity, ids: wantIDs,
                                      touching: recordsTouched ? plan.table : nil)
        let count = written.count, ids = written.ids
        var changes = ChangeSet()
        changes.hasObjectIDs = wantIDs
        changes.updatedCounts = written.counts
        for id in ids { changes.add(updated: id) }
        changes.normalize()
        return BatchResult(kind: .update, entity: request.entity, count: count,
                           objectIDs: request.resultType == .updatedObjectIDs ? ids.sorted() : nil, changes: changes)
    }

    /// What one write statement changed: its row count, and the object IDs (`ids`) or the count per entity.
    struct Written {
        var count = 0
        var ids: [ObjectID] = []
        var counts: [String: Int] = [:]
    }

    /// Runs a write: `plain` when only its count matters, the table holds one entity and nothing is recorded,
    /// else `returning` (the same write with `RETURNING`) inside ``changed(_:discriminated:root:ids:touching:)``.
    func write(plain: SQLText, returning: SQLText, discriminated: Bool, root: String, ids: Bool,
               touching table: String? = nil) async throws -> Written {
        var written = Written()
        if !ids && !discriminated && table == nil {
            written.count = try await run(plain).affected
            written.counts[root] = written.count
            return written
        }
        for (entity, pk, n) in try await changed(returning, discriminated: discriminated, root: root, ids: ids, touching: table) {
            written.count += n
            if let pk {
                written.ids.append(ObjectID(storeUUID: storeUUID, entity: entity, primaryKey: pk))
            } else {
                written.counts[entity, default: 0] += n
            }
        }
        return written
    }

    /// The rows a `… RETURNING "_pk"[, "_entity"]` statement changed: per entity a count, or with `ids` each
    /// row's key (count 1), in key order. With `table`, the same statement records the rows as touched rows of
    /// that table (a second data-modifying CTE over the first one's rows).
    func changed(_ returning: SQLText, discriminated: Bool, root: String, ids: Bool,
                 touching table: String? = nil) async throws -> [(entity: String, pk: Int64?, count: Int)] {
        let changedTable = TableName("strata_changed"), pk = ColumnName("_pk"), entity = ColumnName("_entity")
        let entityValue: SQLText = discriminated ? "\(entity)" : "CAST(\(root) AS text)"
        let recording: SQLText = table.map {
            ", \(TableName("strata_recorded")) AS (" + BatchPlanner.recordingTouched($0, "\(pk) FROM \(changedTable)") + ")"
        } ?? ""
        let query: SQLText = "WITH \(changedTable) AS (" + returning + ")" + recording + " SELECT " + entityValue
            + (ids ? ", \(pk), 1::bigint FROM \(changedTable) ORDER BY \(pk)" : ", NULL::bigint, count(*) FROM \(changedTable) GROUP BY 1 ORDER BY 1")
        var result: [(String, Int64?, Int)] = []
        for row in try await run(query).rows {
            let name = try PostgresSession.decode(row[0], as: String.self, statement: query)
            let key = row[1].bytes == nil ? nil : try PostgresSession.decode(row[1], as: Int64.self, statement: query)
            result.append((name, key, Int(try PostgresSession.decode(row[2], as: Int64.self, statement: query))))
        }
        return result
    }
}

extension PostgresHookPlan.Step {
    var kind: String {
        switch self {
        case .update: "batchUpdate"
        case .delete: "batchDelete"
        case .insert: "batchInsert"
        case .link: "setRelationship"
        case .sql: "sql"
        case .stage: "swift"
        }
    }

    var entity: String {
        switch self {
        case .update(_, let r): r.entity
        case .delete(_, let r): r.entity
        case .insert(_, let r): r.entity
        case .link(_, let r): r.entity
        case .sql, .stage: ""
        }
    }
}
