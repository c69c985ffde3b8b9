import Foundation
import GRDB

/// Runs hooks inside a transaction the caller opened (a version step's): the steps, the audit of
/// what they touched, and the exactly-once marker, so all of it commits or none of it does.
enum HookRunner {
    public struct Options: Sendable {
        public var context: PredicateContext
        public var audit: AuditMode = .touched
        public var maxSamples = 20
        /// List changed object IDs in the change set even when no result type asks (library observers).
        public var collectObjectIDs = false
        /// Where progress of each batch statement goes; nil draws nothing.
        public var progressSink: ProgressSink?
        /// The Swift stages this binary registers (SPEC §11.2).
        public var stages = Stages()
        /// Whether the run is a dry run (Swift stages are told).
        public var isDryRun = false
        public init(context: PredicateContext, audit: AuditMode = .touched, maxSamples: Int = 20, collectObjectIDs: Bool = false) {
            self.context = context
            self.audit = audit
            self.maxSamples = maxSamples
            self.collectObjectIDs = collectObjectIDs
        }
    }

    /// Runs one hook and records its marker, unless the marker is there already.
    ///
    /// The marker is read inside the caller's transaction (a `BEGIN IMMEDIATE` one holds the write lock),
    /// so a hook another run applied meanwhile, through another path to the same store, is not applied
    /// again (SPEC §9).
    /// - Returns: nil when the hook was already recorded (applied or not needed).
    /// - Throws: `HookViolationError` (policy rollback), `BatchError` (deny, uniqueness, invalid), SQLite errors.
    static func run(_ hook: Hook, in db: Database, model: Model, layout: StoreLayout, storeUUID: String,
                    options: Options, late: Bool = false) throws -> (result: HookRunResult, changes: ChangeSet)? {
        if try isRecorded(hook.id, in: db) { return nil }
        var context = options.context
        context.variables = hook.variables.merging(options.context.variables) { _, cli in cli }
        let record = options.audit == .touched
        if record { try Auditor.prepareTouched(db) }
        var steps: [HookStepResult] = []
        var changes = ChangeSet()
        changes.hasObjectIDs = options.collectObjectIDs
        var written: Set<String> = []
        var rawWrites: [String: SQLAuthorizer.TableWrite] = [:]
        for (index, step) in hook.steps.enumerated() where hook.swiftStage == nil {
            let started = Date()
            if case .sql(let sql) = step {
                let result = try SQLStepRunner.runStep(sql, of: hook, in: db, layout: layout, context: context,
                                                       progress: options.progressSink)
                written.formUnion(result.entities)
                rawWrites.merge(result.writes) { a, b in
                    SQLAuthorizer.TableWrite(inserted: a.inserted || b.inserted, deleted: a.deleted || b.deleted, columns: a.columns.union(b.columns))
                }
                changes.invalidate(result.entities)
                steps.append(HookStepResult(kind: step.kind, entity: result.entities.joined(separator: ", "), count: result.changes,
                                            objectIDs: nil, updatedCounts: [:], deletedCounts: [:],
                                            duration: Date().timeIntervalSince(started)))
                continue
            }
            let progress = options.progressSink.map { ProgressCounter(label: "\(hook.id) \(step.kind) \(step.entity)", total: nil, sink: $0) }
            let batch: BatchResult = try located(hook, step: index) { try db.reportingEstimatedProgress(progress) {
            switch step {
            case .batchUpdate(let request):
                return try BatchExecutor.execute(request, in: db, model: model, layout: layout, storeUUID: storeUUID,
                                                 context: context, recordTouched: record, collectObjectIDs: options.collectObjectIDs)
            case .batchDelete(let request):
                return try BatchExecutor.execute(request, in: db, model: model, layout: layout, storeUUID: storeUUID,
                                                 context: context, recordTouched: record, collectObjectIDs: options.collectObjectIDs)
            case .sql:
                preconditionFailure("sql steps run above")
            case .swiftStage:
                preconditionFailure("a Swift stage runs through runStage")
            case .batchInsert(let request):
                return try BatchExecutor.execute(request, in: db, model: model, layout: layout, storeUUID: storeUUID,
                                                 context: context, recordTouched: record, collectObjectIDs: options.collectObjectIDs)
            case .setRelationship(let request):
                do {
                    return try BatchExecutor.execute(request, in: db, model: model, layout: layout, storeUUID: storeUUID,
                                                     context: context, recordTouched: record, collectObjectIDs: options.collectObjectIDs)
                } catch var error as RelationshipAmbiguityError {
                    error.hook = hook.id
                    throw error   // rolls the step back whatever onViolation says (SPEC §11.4)
                }
            }
            } }
            changes.merge(batch.changes)
            steps.append(HookStepResult(kind: step.kind, entity: step.entity, count: batch.count,
                                        objectIDs: batch.objectIDs, updatedCounts: batch.changes.updatedCounts,
                                        deletedCounts: batch.changes.deletedCounts, duration: Date().timeIntervalSince(started)))
        }
        if !hook.writes.isEmpty {
            // Declared writes (SPEC §11.4): audited in full and invalidated like what the authorizer saw.
            written.formUnion(hook.writes)
            changes.invalidate(hook.writes)
        }
        try SQLStepRunner.checkForeignKeys(of: hook, writes: rawWrites, in: db)
        var audit: AuditResult?
        if let declaration = hook.swiftStage {
            let (step, stageChanges, stageWritten) = try runStage(hook, in: db, model: model, layout: layout, storeUUID: storeUUID,
                                                                  context: context, options: options)
            steps.append(step)
            changes.merge(stageChanges)
            audit = try Auditor.afterStage(declaration, writing: stageWritten, in: db, mode: options.audit, model: model,
                                           layout: layout, storeUUID: storeUUID, context: context, maxSamples: options.maxSamples)
        } else {
            audit = try Auditor.afterBatch(in: db, mode: options.audit, model: model, layout: layout, storeUUID: storeUUID,
                                           context: context, maxSamples: options.maxSamples)
            if let touched = audit, options.audit == .touched, !written.isEmpty {
                // What raw SQL wrote is not known row by row: those entities are audited in full (SPEC §11.4).
                audit = try Auditor.including(entities: written.sorted(), in: touched, db: db, model: model, layout: layout,
                                              storeUUID: storeUUID, context: context, maxSamples: options.maxSamples)
            }
        }
        var result = HookRunResult(id: hook.id, after: hook.after, file: hook.file, checksum: hook.checksum,
                                   onViolation: hook.onViolation, steps: steps, rowsAffected: steps.reduce(0) { $0 + $1.count },
                                   audit: audit, committed: true, late: late)
        if hook.timing == .before { result.timing = .before }
        if result.violationCount > 0 && hook.onViolation == .rollback {
            result.committed = false
            throw HookViolationError(result: result)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let summary = try encoder.encode(steps.map { StepSummary(kind: $0.kind, entity: $0.entity, count: $0.count) })
        try History.recordHook(db, HookRecord(
            id: hook.id, checksum: hook.checksum, afterVersion: hook.after, modelVersion: model.version, status: "applied",
            rowsAffected: result.rowsAffected, finished: History.timestamp(Date()), results: String(decoding: summary, as: UTF8.self)))
        return (result, changes)
    }

    /// Runs a batch step of `hook`; a violation it raises (uniqueness 1551, a dangling reference 1700) is located
    /// at the step in the hook file, like one raised by an `sql:` step.
    static func located<T>(_ hook: Hook, step index: Int, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch BatchError.violation(let code, let message) {
            var error = SQLStepError(.violation(code: code), "hook '\(hook.id)' step \(index + 1): \(message)",
                                     at: index < hook.stepLocations.count ? hook.stepLocations[index] : hook.afterLocation)
            error.source = hook.source
            throw error
        }
    }

    struct StepSummary: Codable { var kind: String; var entity: String; var count: Int }

    /// Whether `strata_hooks` has a record for the hook (applied or not needed).
    static func isRecorded(_ id: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: #"SELECT EXISTS (SELECT 1 FROM "strata_hooks" WHERE "id" = ?)"#, arguments: [id]) ?? false
    }
}
