import Foundation
import GRDB

/// Migrates an existing store version by version (SPEC §4): drift check, planning (pure), then one
/// transaction per version step. `run` is the migration loop; `MigrationRun` (lock, preflight, backup,
/// dry run) and `migrate` both end in it.
///
/// ```swift
/// let history = try ModelHistory.load(directory: "models")
/// let result = try Migrator.migrate(store, history: history)
/// print("v\(result.fromVersion) → v\(result.toVersion)")
/// ```
public enum Migrator {
    /// The model to reach: `target`, or the newest one.
    /// - Throws: `MigrationError.unknownVersion` when no model has that version (the one check of it).
    static func targetModel(_ target: Int?, in history: ModelHistory) throws -> Model {
        guard let version = target ?? history.latest?.version else { throw Diagnostic.error("no model versions") }
        guard let model = history.model(version: version) else { throw MigrationError.unknownVersion(version, available: history.versions) }
        return model
    }

    /// Refuses a target below the store's version: migrations only go forward (the one check of it).
    static func checkForward(to target: Int, from current: Int) throws {
        guard target >= current else { throw MigrationError.targetBelowCurrent(current: current, target: target) }
    }

    /// The steps that would take the store to `target`, after checking it is not in drift.
    /// - Parameter context: the run's `$NOW` and `--var` values, which mapping files read (default: now, no variables).
    /// - Throws: `MigrationError` (drift, versions), `MappingError` (not inferable).
    public static func plan(_ store: Store, history: ModelHistory, to target: Int? = nil,
                            context: PredicateContext = PredicateContext(now: Date().timeIntervalSince1970)) throws -> (metadata: StoreMetadata, steps: [VersionStep]) {
        // The metadata and the schema it is checked against come from one read transaction: a step that
        // another run commits meanwhile is seen entirely or not at all (never as drift).
        let (metadata, report) = try store.wrap {
            try store.queue.read { db -> (StoreMetadata, DriftReport) in
                guard let metadata = try StoreMetadata.read(db) else { throw StoreError.notAdopted(path: store.path) }
                return (metadata, try DriftDetector.check(db, metadata: metadata, model: history.model(version: metadata.version)))
            }
        }
        let target = try targetModel(target, in: history).version
        try checkForward(to: target, from: metadata.version)
        guard report.isEmpty else { throw MigrationError.drift(report) }
        let steps = try MappingInference.plan(models: history.models, from: metadata.version, to: target, sourceLayout: metadata.layout,
                                             mappings: history.mappings, createdLayouts: history.createdLayouts, context: context)
        return (metadata, steps)
    }

    /// Migrates the store to `options.target` (default: the newest model).
    /// - Throws: `MigrationError` (drift: exit 6, violations: exit 3, versions: exit 2), `MappingError` (exit 4,
    ///   before anything is written), `StoreError` (SQLite).
    @discardableResult
    public static func migrate(_ store: Store, history: ModelHistory, options: MigrationOptions = MigrationOptions()) throws -> MigrationResult {
        try migrate(store, history: history, hooks: HookSet(hooks: []),
                    hookOptions: HookRunner.Options(context: PredicateContext(now: Date().timeIntervalSince1970)), options: options)
    }

    /// `migrate` with the hooks of each version run inside its step.
    static func migrate(_ store: Store, history: ModelHistory, hooks: HookSet, hookOptions: HookRunner.Options,
                        options: MigrationOptions) throws -> MigrationResult {
        let (metadata, steps) = try plan(store, history: history, to: options.target, context: hookOptions.context)
        var report = MigrationRunReport(store: store.path, dryRun: false, targetVersion: steps.last?.toVersion ?? metadata.version,
                                        now: hookOptions.context.now)
        return try run(steps, on: store, from: metadata, history: history, hooks: hooks, hookOptions: hookOptions,
                       options: options, report: &report)
    }

    /// One unit of work of a run, each in its own transaction: a late hook (asked for with `runLateHooks`, run
    /// against the store's current model before any step) or a version step.
    enum Work {
        case lateHook(Hook)
        case step(VersionStep)
    }

    /// The migration loop: first the late hooks asked for, each in its own transaction on the current model;
    /// then each planned step in one transaction holding, in order, the before-hooks, the report of what the step
    /// loses (counted before it runs), its schema changes and copies, the metadata and history row, and the hooks
    /// of its version with their audits. Work another run did meanwhile is skipped. `report` holds what ran,
    /// also when a step fails (that step and its hooks marked not committed).
    @discardableResult
    static func run(_ steps: [VersionStep], late: [Hook] = [], on store: Store, from metadata: StoreMetadata, history: ModelHistory,
                    hooks: HookSet, hookOptions: HookRunner.Options, options: MigrationOptions,
                    report: inout MigrationRunReport) throws -> MigrationResult {
        let from = metadata.version
        var metadata = metadata
        var runs: [MigrationResult.StepRun] = []
        for work in late.map(Work.lateHook) + steps.map(Work.step) {
            guard case .step(let step) = work else {
                guard case .lateHook(let hook) = work,
                      let outcome = try runLate(hook, on: store, metadata: metadata, history: history, options: hookOptions)
                else { continue }   // another run applied it meanwhile
                report.hooks.append(outcome.result)
                report.changes.merge(outcome.changes)
                continue
            }
            let destination = history.model(version: step.toVersion)!
            let source = history.model(version: step.fromVersion)!
            let started = Date()
            var stepReport: StepReport?
            var warnings: [String] = []
            var ran: [(result: HookRunResult, changes: ChangeSet)] = []
            var stepChanges = ChangeSet()
            do {
                let skippedAt = try store.wrapMigration {
                    try store.queue.inDatabase { db in
                        // Foreign keys off for the whole step, checked where work can break them (SPEC §11.4).
                        return try StepExecutor.transaction(step, on: db) {
                            // Each hook (or Swift stage) with its audit; one that fails is reported, not committed.
                            func runHooks(_ list: [Hook], model: Model, layout: StoreLayout) throws {
                                for hook in list {
                                    do {
                                        if let outcome = try HookRunner.run(hook, in: db, model: model, layout: layout,
                                                                            storeUUID: metadata.storeUUID, options: hookOptions) {
                                            ran.append(outcome)
                                        }
                                    } catch let error as HookViolationError {
                                        ran.append((error.result, ChangeSet()))
                                        throw error
                                    }
                                }
                            }
                            // A declared Swift stage this binary cannot run stops the run before the step (exit 7).
                            try HookRunner.requireRegistered(hooks.hooks(before: step.toVersion) + hooks.hooks(after: step.toVersion),
                                                             in: db, stages: hookOptions.stages)
                            // Before-hooks: on the version below, ahead of the schema changes (SPEC §11.4).
                            try runHooks(hooks.hooks(before: step.toVersion), model: source, layout: metadata.layout)
                            stepReport = try StepReport.make(step, db: db)
                            stepReport?.mapping = try MappingReport.make(step, db: db, storeUUID: metadata.storeUUID,
                                                                         maxSamples: hookOptions.maxSamples)
                            warnings = try StepExecutor.apply(step, on: db, storeUUID: metadata.storeUUID, options: options,
                                                              changes: &stepChanges, collectObjectIDs: hookOptions.collectObjectIDs)
                            if let audit = try MappingAudit.run(step, in: db, model: destination, storeUUID: metadata.storeUUID,
                                                                options: hookOptions, warnings: &warnings) {
                                stepReport?.mappingAudit = audit
                            }
                            let after = try StepExecutor.record(step, on: db, from: metadata, destination: destination, started: started)
                            try runHooks(hooks.hooks(after: step.toVersion), model: destination, layout: step.destinationLayout)
                            try options.observer?.stepWillCommit(step, in: db)
                            metadata = after
                        }
                    }
                }
                if let skippedAt {
                    metadata = skippedAt
                    runs.append(.init(step: step, skipped: true, duration: Date().timeIntervalSince(started), warnings: []))
                    continue
                }
            } catch {
                // The whole step rolled back: its report and the hooks that ran in it are not committed.
                if var stepReport {
                    stepReport.committed = false
                    report.steps.append(stepReport)
                }
                report.hooks += ran.map { var result = $0.result; result.committed = false; return result }
                report.toVersion = (try? store.version()) ?? metadata.version
                throw error
            }
            let duration = Date().timeIntervalSince(started)
            if var stepReport {
                stepReport.duration = duration
                stepReport.committed = true
                stepReport.warnings = warnings
                report.steps.append(stepReport)
            }
            stepChanges.hasObjectIDs = hookOptions.collectObjectIDs
            report.changes.merge(stepChanges)
            for (result, changes) in ran {
                report.hooks.append(result)
                report.changes.merge(changes)
            }
            report.toVersion = metadata.version
            runs.append(.init(step: step, duration: duration, warnings: warnings))
        }
        return MigrationResult(fromVersion: from, toVersion: metadata.version, steps: runs)
    }
}

extension Store {
    /// Like `wrap`, but lets migration errors through untouched; `SQLITE_FULL` (disk full, `max_page_count`)
    /// becomes `PipelineError.diskFull`, which says the step was rolled back and asks for space.
    func wrapMigration<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw PipelineError.mapWriteError(error, path: path)
        } catch let error as BatchError {
            throw PipelineError.mapWriteError(error, path: path)   // out of space in a hook's batch: say so
        }
    }
}
