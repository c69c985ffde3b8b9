import Foundation
import GRDB

/// Everything `strata migrate` does, as a library call: lock, preflight, drift and hook checks,
/// backup, version steps with their hooks and audits, or the same on a private snapshot (dry run).
///
/// ```swift
/// var options = MigrationRun.Options(now: Date().timeIntervalSince1970)
/// options.collectObjectIDs = true            // the app refreshes what it holds in memory
/// let report = try MigrationRun.run(storePath: "app.sqlite", models: history, hooks: hooks, options: options)
/// refresh(report.changes.updated, report.changes.deleted)
/// ```
public enum MigrationRun {
    public struct Options: Sendable {
        /// The version to reach (default: the newest model).
        public var target: Int?
        /// Create the store at the target version when the file does not exist.
        public var create = false
        /// Run everything on a private snapshot and never write the store.
        public var dryRun = false
        public var audit: AuditMode = .touched
        public var maxSamples = 20
        /// `$NOW`, fixed for the whole run.
        public var now: Double
        /// `--var` values.
        public var variables: [String: String] = [:]
        /// Run hooks whose version the store had passed when they appeared (checked against the current model).
        public var runLateHooks = false
        /// Collect changed object IDs even when no result type asks (for `--changes-out` and observers).
        public var collectObjectIDs = false
        public var backupPath: String?
        public var forceBackup = false
        public var lockTimeout: TimeInterval = 60
        /// Called once when another process holds the lock and this run starts waiting.
        public var onLockWait: (@Sendable (LockHolder?) -> Void)?
        /// Progress for long copies (snapshots, backups).
        public var progressSink: ProgressSink?
        /// Run `PRAGMA quick_check` before migrating and refuse a corrupt store (default). It reads the
        /// whole file, so on a large store it costs more than an O(1) step such as ADD COLUMN; an app that
        /// migrates on launch may turn it off (SQLite still fails on the pages a step touches).
        public var checkIntegrity = true
        /// The Swift stages this binary registers (SPEC §11.2); checked against their declarations before anything runs.
        public var stages = Stages()

        public init(now: Double) { self.now = now }
    }

    /// Runs the migration.
    /// - Returns: what happened (or, for a dry run, what would happen, with exact counts).
    /// - Throws: `MigrationRunError` wrapping the failure with the report so far (violations: 3,
    ///   not inferable: 4, busy: 5, drift: 6), or input errors (2) before anything ran.
    public static func run(storePath: String, models: ModelHistory, hooks: HookSet, options: Options) throws -> MigrationRunReport {
        let targetModel = try Migrator.targetModel(options.target, in: models)
        let target = targetModel.version
        let registrationProblems = options.stages.check(against: hooks)
        if !registrationProblems.isEmpty { throw StageError.registration(registrationProblems) }
        var report = MigrationRunReport(store: storePath, dryRun: options.dryRun, targetVersion: target, now: options.now)
        do {
            try Preflight.checkFile(atPath: storePath, forWriting: !options.dryRun)
        } catch StoreError.missing(let path) where path == storePath && options.create {
            return try create(storePath: storePath, model: targetModel, hooks: hooks, options: options, report: report)
        }
        if let backup = options.backupPath, !options.dryRun {
            try Backup.checkDestination(backup, force: options.forceBackup, storePath: storePath)
        }

        // The store to work on: a private snapshot (dry run) or the store itself under its lock.
        var lock: StoreLock?
        var snapshot: Snapshot?
        let store: Store
        if options.dryRun {
            let progress = options.progressSink.map { ProgressCounter(label: "snapshot", total: nil, unit: "pages", sink: $0) }
            snapshot = try Snapshot.make(of: storePath, progress: progress)
            progress?.finish()
            store = snapshot!.store
        } else {
            lock = try StoreLock.acquire(storePath: storePath, timeout: options.lockTimeout, onWait: options.onLockWait)
            report.waitedForLock = lock!.waited
            TemporaryFiles.removeLeftovers(next: storePath, kind: "create")   // a creation killed after its link(2)
            // SQLite's busy timeout follows --lock-timeout: a run through another lock file (a hard link)
            // or an application's write transaction is waited for like the lock.
            store = try Store.open(path: storePath, busyTimeout: options.lockTimeout)
        }
        defer {
            lock?.release()
            snapshot?.remove()
        }
        guard let snapshot else {
            return try run(on: store, storePath: storePath, models: models, hooks: hooks, target: target, options: options, report: report)
        }
        do {
            return try run(on: store, storePath: storePath, models: models, hooks: hooks, target: target, options: options, report: report)
        } catch var error as MigrationRunError {
            error.underlying = naming(storePath, for: snapshot.path, in: error.underlying)
            throw error
        } catch let error as StrataError {
            throw naming(storePath, for: snapshot.path, in: error)
        }
    }

    /// A dry run's errors about its private snapshot, naming the store the user gave instead.
    static func naming(_ storePath: String, for snapshotPath: String, in error: StrataError) -> StrataError {
        switch error {
        case StoreError.notAdopted(let path) where path == snapshotPath: return StoreError.notAdopted(path: storePath)
        case StoreError.corrupt(let path, let detail) where path == snapshotPath: return StoreError.corrupt(path: storePath, detail: detail)
        case StoreError.notADatabase(let path) where path == snapshotPath: return StoreError.notADatabase(path: storePath)
        case StoreError.missing(let path) where path == snapshotPath: return StoreError.missing(path: storePath)
        case PipelineError.diskFull(let path, let detail) where path == snapshotPath:
            return StoreError.other("out of space in the dry run's snapshot of '\(storePath)' (\(detail)); the store was not touched")
        default: return error
        }
    }

    /// The run on an open store (the store under its lock, or a dry run's snapshot).
    static func run(on store: Store, storePath: String, models: ModelHistory, hooks: HookSet, target: Int, options: Options,
                    report: MigrationRunReport, attempt: Int = 0) throws -> MigrationRunReport {
        let initial = report
        var report = report
        let metadata = try store.metadata()
        report.storeUUID = metadata.storeUUID
        report.fromVersion = metadata.version
        report.toVersion = metadata.version
        try Preflight.checkVersion(metadata, history: models, path: storePath)
        try Migrator.checkForward(to: target, from: metadata.version)
        if options.checkIntegrity { try Preflight.checkIntegrity(store) }

        // Hooks: edited ones are drift; late ones are refused unless asked for.
        let state = try store.wrap { try store.queue.read { try HookState.read($0, metadata: metadata, hooks: hooks) } }
        report.warnings += state.deleted.map { "hook '\($0)' was applied but its file is gone" }
        let mappingDrift = try store.wrap { try store.queue.read { try MappingState.driftItems($0, mappings: models.mappings, version: metadata.version) } }
        if !state.edited.isEmpty || !mappingDrift.isEmpty {
            throw MigrationError.drift(DriftReport(storeVersion: metadata.version, items: state.driftItems + mappingDrift))
        }
        // A late before-hook can never run: what it was to read is gone (SPEC §11.4).
        let lateBefore = state.late.filter { hooks.hook(id: $0)?.timing == .before }
        if !lateBefore.isEmpty { throw LateHooksError(ids: lateBefore, version: metadata.version, before: true) }
        if !state.late.isEmpty && !options.runLateHooks { throw LateHooksError(ids: state.late, version: metadata.version) }

        // Mapping files read the run's $NOW and --var values, as hooks do.
        let (planned, steps) = try Migrator.plan(store, history: models, to: target,
                                                 context: PredicateContext(variables: options.variables, now: options.now))
        if planned.version != metadata.version && attempt < 5 {
            // Another run (through another path or lock file) committed a step while we read: start over.
            return try run(on: store, storePath: storePath, models: models, hooks: hooks, target: target, options: options,
                           report: initial, attempt: attempt + 1)
        }
        let lateHooks = options.runLateHooks ? hooks.hooks.filter { state.late.contains($0.id) } : []
        if steps.isEmpty && lateHooks.isEmpty {
            report.nothingToDo = true
            return report
        }
        try SQLPreCheck.checkPending(store: store, metadata: metadata, steps: steps, late: lateHooks, hooks: hooks,
                                     variables: options.variables, now: options.now)
        if let backup = options.backupPath, !options.dryRun {
            let progress = options.progressSink.map { ProgressCounter(label: "backup", total: nil, unit: "pages", sink: $0) }
            report.backup = try Backup.write(from: store, to: backup, force: options.forceBackup, progress: progress).path
            progress?.finish()
        }
        var hookOptions = HookRunner.Options(context: PredicateContext(variables: options.variables, now: options.now),
                                             audit: options.audit, maxSamples: options.maxSamples,
                                             collectObjectIDs: options.collectObjectIDs)
        hookOptions.progressSink = options.progressSink
        hookOptions.stages = options.stages
        hookOptions.isDryRun = options.dryRun
        do {
            var migrationOptions = MigrationOptions()
            migrationOptions.progressSink = options.progressSink
            try Migrator.run(steps, late: lateHooks, on: store, from: planned, history: models, hooks: hooks, hookOptions: hookOptions,
                             options: migrationOptions, report: &report)
        } catch let error as StrataError {
            throw MigrationRunError(underlying: error, report: report)
        }
        report.toVersion = try store.version()
        if report.steps.isEmpty && report.hooks.isEmpty {
            // Another run (through another path or lock file) did all of it first: this one did nothing.
            report.fromVersion = report.toVersion
            report.nothingToDo = true
        }
        return report
    }

    static func create(storePath: String, model: Model, hooks: HookSet, options: Options,
                       report: MigrationRunReport) throws -> MigrationRunReport {
        var report = report
        report.created = true
        report.toVersion = model.version
        report.notNeededHooks = hooks.hooks.filter { $0.after <= model.version }.map(\.id)
        if options.dryRun { return report }
        let lock = try StoreLock.acquire(storePath: storePath, timeout: options.lockTimeout, onWait: options.onLockWait)
        defer { lock.release() }
        if FileManager.default.fileExists(atPath: storePath) {
            // Another run created it while we waited for the lock.
            report.created = false
            report.nothingToDo = true
            return report
        }
        let store = try StoreCreator.create(at: storePath, model: model) { db, _ in
            try HookState.recordNotNeeded(db, hooks: hooks, createdAt: model.version)
        }
        report.storeUUID = try store.metadata().storeUUID
        return report
    }
}
