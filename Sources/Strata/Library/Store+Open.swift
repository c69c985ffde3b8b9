import Foundation
import GRDB

/// Migrate on open: what an application calls at launch.
extension Store {
    /// Opens the store at `path` (creating it when missing), loads the models and hooks, runs the pending
    /// version steps and hooks, and returns the store, all off the caller's thread.
    ///
    /// The store's lock (`<store>-strata.lock`, shared with `strata migrate` and every other open call) is
    /// waited for with `Task.sleep`, never by blocking a thread; cancelling the task stops the wait. Bad input
    /// (models, hooks, a file that is not SQLite) is reported before the store is touched.
    ///
    /// ```swift
    /// let store = try await Store.open(at: url.path, models: .bundle(.main, subdirectory: "models"),
    ///                                  hooks: .bundle(.main, subdirectory: "migrations"))
    /// print(store.migration?.toVersion ?? 0)
    /// ```
    /// - Parameters:
    ///   - path: the SQLite file; its folder must exist.
    ///   - models: the model versions.
    ///   - hooks: the hook files; nil for none.
    ///   - options: creation, target, `$NOW`, lock timeout…
    /// - Returns: the open store, with what opening it did in ``migration``.
    /// - Throws: `DiagnosticList` (models, hooks), `StoreError` (not SQLite, read-only, missing folder, no
    ///   store when `createIfMissing` is off), `PipelineError.storeBusy` after `lockTimeout`, `CancellationError`,
    ///   `MigrationRunError` when a step or hook fails (the store stays at the version it reached).
    public static func open(at path: String, models: ProjectSource, hooks: ProjectSource? = nil,
                            options: OpenOptions = OpenOptions()) async throws -> Store {
        let project = try await offThread { try Project(models: models, hooks: hooks, options: options) }
        do {
            try Preflight.checkFile(atPath: path, forWriting: true)
        } catch StoreError.missing(let missing) where missing == path && options.createIfMissing {
            // Created below, under the lock.
        }
        let lock = try await StoreLock.wait(forStore: path, timeout: options.lockTimeout, pollInterval: options.pollInterval,
                                            onWait: options.onLockWait)
        defer { lock.release() }
        return try await offThread {
            var report = project.report(store: path, waited: lock.waited)
            if !FileManager.default.fileExists(atPath: path) {   // nobody created it while we waited
                let store = try StoreCreator.create(at: path, model: project.target) { db, _ in
                    try HookState.recordNotNeeded(db, hooks: project.hooks, createdAt: project.target.version)
                }
                project.created(&report, storeUUID: try store.metadata().storeUUID)
                return Store(path: path, queue: store.queue, migration: report)
            }
            TemporaryFiles.removeLeftovers(next: path, kind: "create")   // a creation killed after its link(2)
            let store = try Store.open(path: path, busyTimeout: options.lockTimeout)
            report = try project.migrate(store, report: report)
            return Store(path: path, queue: store.queue, migration: report)
        }
    }

    /// ``open(at:models:hooks:options:)`` on the application's own GRDB database: a `DatabaseQueue`, or a
    /// `DatabasePool` (WAL), created with a configuration passed through ``prepare(_:)``. An empty database
    /// becomes a store at the target version; one that holds a store is migrated. The lock is the same as for
    /// a path (the database's file), so `strata migrate` and other processes wait for each other. Strata
    /// never closes the database.
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// Store.prepare(&configuration)
    /// let pool = try DatabasePool(path: path, configuration: configuration)
    /// let store = try await Store.open(database: pool, models: .bundle(.main, subdirectory: "models"))
    /// ```
    /// - Throws: ``StoreSetupError`` (an in-memory database, one not prepared, foreign keys off), `StoreError.notAdopted`
    ///   when the database holds tables but no store, and the errors of ``open(at:models:hooks:options:)``.
    public static func open(database: some DatabaseWriter, models: ProjectSource, hooks: ProjectSource? = nil,
                            options: OpenOptions = OpenOptions()) async throws -> Store {
        let project = try await offThread { try Project(models: models, hooks: hooks, options: options) }
        let path = database.path
        guard FileManager.default.fileExists(atPath: path) else { throw StoreSetupError.notAFile(path: path) }
        try Preflight.checkFile(atPath: path, forWriting: true)
        try await offThread { try checkPrepared(database, path: path) }
        let lock = try await StoreLock.wait(forStore: path, timeout: options.lockTimeout, pollInterval: options.pollInterval,
                                            onWait: options.onLockWait)
        defer { lock.release() }
        return try await offThread {
            var report = project.report(store: path, waited: lock.waited)
            let store = Store(path: path, queue: database)
            if let storeUUID = try store.createInPlace(project) {
                project.created(&report, storeUUID: storeUUID)
            } else {
                report = try project.migrate(store, report: report)
            }
            return Store(path: path, queue: database, migration: report)
        }
    }

    /// Prepares a GRDB configuration for a database that Strata will manage: foreign keys on, and Strata's
    /// SQL functions registered on every connection (a pool's readers included). Call it before creating the
    /// `DatabaseQueue` or `DatabasePool` you pass to ``open(database:models:hooks:options:)``.
    public static func prepare(_ configuration: inout Configuration) {
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in db.registerStrataFunctions() }
    }

    /// Refuses a database whose connections lack Strata's functions or have foreign keys off.
    static func checkPrepared(_ database: some DatabaseWriter, path: String) throws {
        let probe: SQLText = "SELECT strata_length(\(Value.text("")))"
        do {
            _ = try database.read { try Row.fetchOne($0, probe) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            throw StoreSetupError.notPrepared(path: path)
        }
        let on = try database.writeWithoutTransaction { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } ?? false
        if !on { throw StoreSetupError.foreignKeysOff(path: path) }
    }

    /// Builds the store in an empty database, in one `BEGIN IMMEDIATE` transaction; nil when the database
    /// already holds a store.
    /// - Throws: `StoreError.notAdopted` when it holds other tables, `StoreError.missing` when it is empty and
    ///   creating is off.
    func createInPlace(_ project: Project) throws -> String? {
        let userTables: SQLText = """
            SELECT count(*) FROM sqlite_master WHERE name NOT LIKE \(Value.text("sqlite\\_%")) ESCAPE \(Value.text("\\"))
            """
        return try wrapMigration {
            try queue.writeWithoutTransaction { db -> String? in
                var created: String?
                try db.inTransaction(.immediate) {
                    if try StoreMetadata.read(db) != nil { return .rollback }
                    guard try Int.fetchOne(db, userTables) == 0 else {
                        throw StoreError.notAdopted(path: path)
                    }
                    guard project.options.createIfMissing else { throw StoreError.missing(path: path) }
                    created = try StoreCreator.build(db, model: project.target) { db, _ in
                        try HookState.recordNotNeeded(db, hooks: project.hooks, createdAt: project.target.version)
                    }.storeUUID
                    return .commit
                }
                return created
            }
        }
    }

    /// Runs `body` on a global dispatch queue, so the caller's thread (the main actor's, a cooperative
    /// one) never waits for SQLite.
    package static func offThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// What an open call migrates with: the models, the hooks checked against them, the target model.
    package struct Project: Sendable {
        package let models: ModelHistory
        package let hooks: HookSet
        package let target: Model
        let options: OpenOptions
        let run: MigrationRun.Options

        package init(models: ProjectSource, hooks: ProjectSource?, options: OpenOptions) throws {
            var history = try models.loadModels()
            // Mapping files are read before anything runs, like hooks (SPEC §11.3).
            if let hooks { history.mappings = try hooks.loadMappings(models: history, variables: options.variables) }
            self.models = history
            self.hooks = try hooks?.loadHooks(models: self.models, variables: options.variables) ?? HookSet(hooks: [])
            self.target = try Migrator.targetModel(options.target, in: self.models)
            self.options = options
            self.run = options.runOptions()
        }

        func report(store path: String, waited: Bool) -> MigrationRunReport {
            var report = MigrationRunReport(store: path, dryRun: false, targetVersion: target.version, now: run.now)
            report.waitedForLock = waited
            return report
        }

        /// The report of a store created at the target version.
        func created(_ report: inout MigrationRunReport, storeUUID: String) {
            report.created = true
            report.storeUUID = storeUUID
            report.toVersion = target.version
            report.notNeededHooks = hooks.hooks.filter { $0.after <= target.version }.map(\.id)
        }

        /// The migration loop on the store, under the lock the caller holds.
        func migrate(_ store: Store, report: MigrationRunReport) throws -> MigrationRunReport {
            try MigrationRun.run(on: store, storePath: store.path, models: models, hooks: hooks, target: target.version,
                                 options: run, report: report)
        }
    }
}
