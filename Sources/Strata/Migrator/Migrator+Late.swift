import GRDB

extension Migrator {
    /// A late hook (one whose version the store had passed when it appeared, run because the caller asked), in
    /// its own transaction against the store's current model: the loop's first kind of work.
    /// - Returns: nil when another run applied the hook meanwhile (its marker was found under the write lock).
    /// - Throws: the hook's problems against today's model (exit 2); `MigrationError.storeChanged` when the
    ///   store moved since it was planned; the hook's own errors (violations: exit 3).
    static func runLate(_ hook: Hook, on store: Store, metadata: StoreMetadata, history: ModelHistory,
                        options: HookRunner.Options) throws -> (result: HookRunResult, changes: ChangeSet)? {
        guard let model = history.model(version: metadata.version) else { return nil }
        let problems = HookChecker.check(hook, against: model, variables: options.context.variables)
        if !problems.isEmpty { throw DiagnosticList(problems) }
        return try store.wrapMigration {
            try store.queue.inDatabase { db in
                var outcome: (HookRunResult, ChangeSet)?
                try SQLStepRunner.foreignKeysOff(db) {
                    try db.inTransaction(.immediate) {
                        // Under the write lock: the store must still be at the version the hook was checked against.
                        let current = try StoreMetadata.version(db) ?? metadata.version
                        if current != metadata.version { throw MigrationError.storeChanged(expected: metadata.version, found: current) }
                        outcome = try HookRunner.run(hook, in: db, model: model, layout: metadata.layout,
                                                     storeUUID: metadata.storeUUID, options: options, late: true)
                        return outcome == nil ? .rollback : .commit
                    }
                }
                return outcome
            }
        }
    }
}
