import Foundation

extension Store {
    /// How ``Store/open(at:models:hooks:options:)`` and ``Store/open(database:models:hooks:options:)`` open,
    /// create and migrate a store.
    ///
    /// ```swift
    /// var options = Store.OpenOptions()
    /// options.lockTimeout = 10                  // another process migrating: wait up to 10 s
    /// options.checkIntegrity = false            // skip the whole-file quick_check on launch
    /// let store = try await Store.open(at: path, models: .bundle(.main, subdirectory: "models"), options: options)
    /// ```
    public struct OpenOptions: Sendable {
        /// Create the store at the target version when there is none (default); otherwise a missing store
        /// is an error.
        public var createIfMissing = true
        /// The version to reach (default: the newest model).
        public var target: Int?
        /// `$NOW` for the hooks, fixed for the whole run (default: the time of the call).
        public var now: Date?
        /// `$NAME` values for the hooks' predicates.
        public var variables: [String: String] = [:]
        /// What the hooks' changes are audited against before each step commits.
        public var audit: AuditMode = .touched
        /// Samples kept per violated rule.
        public var maxSamples = 20
        /// Run hooks whose version the store had already passed when they appeared.
        public var runLateHooks = false
        /// Collect the IDs of the objects the hooks changed (in ``Store/migration``); counts only otherwise.
        public var collectObjectIDs = true
        /// Run `PRAGMA quick_check` first and refuse a corrupt store. It reads the whole file: an app with a
        /// large store may turn it off (SQLite still fails on the pages a step touches).
        public var checkIntegrity = true
        /// Seconds to wait for another process (or another open call) holding the store's lock.
        public var lockTimeout: TimeInterval = 60
        /// Seconds between attempts at the lock while waiting (the wait sleeps; it blocks no thread).
        public var pollInterval: TimeInterval = 0.05
        /// Called once when another holder has the lock and the call starts waiting.
        public var onLockWait: (@Sendable (LockHolder?) -> Void)?

        public init() {}

        /// The run options of a real run (no dry run, no backup) with these settings.
        func runOptions() -> MigrationRun.Options {
            var run = MigrationRun.Options(now: (now ?? Date()).timeIntervalSince1970)
            run.target = target
            run.create = createIfMissing
            run.variables = variables
            run.audit = audit
            run.maxSamples = maxSamples
            run.runLateHooks = runLateHooks
            run.collectObjectIDs = collectObjectIDs
            run.checkIntegrity = checkIntegrity
            run.lockTimeout = lockTimeout
            run.onLockWait = onLockWait
            return run
        }
    }
}
