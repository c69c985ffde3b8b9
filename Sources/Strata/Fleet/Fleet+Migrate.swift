import Foundation

extension Fleet {
    /// Migrates every store (or, with `options.dryRun`, runs each on its own private snapshot) through
    /// ``MigrationRun/run(storePath:models:hooks:options:)``.
    ///
    /// Before any store starts, the target version, the Swift stages' registrations and every store's
    /// backup destination are checked, so that a mistake in them touches no store.
    /// - Parameters:
    ///   - models: the model history, its mapping files loaded (checked once, by the caller).
    ///   - hooks: the hook files, checked against the models.
    ///   - options: one store's options; `backupPath` and `progressSink` are not used (each store's backup
    ///     goes into `backupDirectory`; progress counts stores).
    ///   - backupDirectory: a directory that gets one backup per store (``backupPath(forStore:in:)``).
    /// - Returns: one row per store.
    /// - Throws: before any store starts: `MigrationError.unknownVersion` (exit 2), `StageError`,
    ///   ``FleetError/backupDirectory(path:detail:)``, `PipelineError.backupExists` (exit 2).
    public func migrate(models: ModelHistory, hooks: HookSet, options: MigrationRun.Options,
                        backupDirectory: String? = nil) throws -> FleetReport {
        _ = try Migrator.targetModel(options.target, in: models)
        let registrationProblems = options.stages.check(against: hooks)
        if !registrationProblems.isEmpty { throw StageError.registration(registrationProblems) }
        let backups = try backupDirectory.flatMap { options.dryRun ? nil : try checkBackups(in: $0, force: options.forceBackup) } ?? [:]
        let onLockWait = onLockWait
        return run(command: "migrate", dryRun: options.dryRun) { path in
            var storeOptions = options
            storeOptions.backupPath = backups[path]
            storeOptions.progressSink = nil
            if let onLockWait { storeOptions.onLockWait = { holder in onLockWait(path, holder) } }
            return Self.migrateOne(path, models: models, hooks: hooks, options: storeOptions)
        }
    }

    /// One store's migration and its row.
    public static func migrateOne(_ path: String, models: ModelHistory, hooks: HookSet, options: MigrationRun.Options) -> Outcome {
        attempt(path) {
            do {
                let report = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
                return (row(report, path: path), nil, report.warnings)
            } catch let error as MigrationRunError {
                var failed = row(error.report, path: path)
                failed.outcome = .failed
                failed.exitCode = error.exitCode
                failed.message = message(error)
                return (failed, error, error.report.warnings)
            }
        }
    }

    /// A store's row from its migration report.
    static func row(_ report: MigrationRunReport, path: String) -> FleetStoreResult {
        let outcome: FleetStoreResult.Outcome = report.created ? .created : report.nothingToDo ? .upToDate : .migrated
        return FleetStoreResult(path: path, outcome: outcome, exitCode: .success, fromVersion: report.fromVersion,
                                toVersion: report.toVersion, hooks: report.hooks.count,
                                violations: report.hooks.reduce(0) { $0 + $1.violationCount }, backup: report.backup)
    }

    /// Where `--backup-dir` puts a store's backup: the store path as given, `./` dropped, with `%` written
    /// `%25` and `/` written `%2F`, so that stores with one name in different folders never collide
    /// (`tenants/a/app.sqlite` → `DIR/tenants%2Fa%2Fapp.sqlite`). A name over 240 bytes keeps its last
    /// 180 bytes after 16 hex digits of the SHA-256 of the whole name.
    public static func backupPath(forStore path: String, in directory: String) -> String {
        var spelled = Substring(path)
        while spelled.hasPrefix("./") { spelled = spelled.dropFirst(2).drop { $0 == "/" } }
        var name = spelled.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
        if name.utf8.count > 240 {
            var tail = Substring(name)
            while tail.utf8.count > 180 { tail = tail.dropFirst() }
            name = String(SHA256.hex(name).prefix(16)) + "-" + tail
        }
        return (directory as NSString).appendingPathComponent(name)
    }

    /// Each store's backup path, checked before any store starts: the directory exists and is writable,
    /// no backup exists yet (unless `force`), no two stores share one.
    func checkBackups(in directory: String, force: Bool) throws -> [String: String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw FleetError.backupDirectory(path: directory, detail: "it does not exist")
        }
        guard isDirectory.boolValue else { throw FleetError.backupDirectory(path: directory, detail: "it is not a directory") }
        guard Preflight.isWritable(directory) else { throw FleetError.backupDirectory(path: directory, detail: "it is not writable") }
        var backups: [String: String] = [:]
        var owners: [String: String] = [:]
        for store in stores {
            let backup = Self.backupPath(forStore: store, in: directory)
            if let first = owners.updateValue(store, forKey: backup) {
                throw FleetError.backupCollision(path: backup, first: first, second: store)
            }
            if !force && FileManager.default.fileExists(atPath: backup) { throw PipelineError.backupExists(path: backup) }
            backups[store] = backup
        }
        return backups
    }

    /// An error's first message on one line (a table cell): its lines joined by spaces.
    static func message(_ error: StrataError) -> String {
        oneLine(error.diagnostics.first?.message ?? error.description)
    }

    /// `text`'s lines, trimmed, joined by spaces.
    public static func oneLine(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
