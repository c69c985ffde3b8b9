import Foundation
import GRDB

/// How a migration run behaves.
public struct MigrationOptions: Sendable {
    /// The version to reach; nil = the newest model.
    public var target: Int?
    /// Runs inside each step's transaction after its SQL and metadata update (hooks plug in here).
    var afterStep: (@Sendable (Database, VersionStep) throws -> Void)?
    /// Runs inside each step's transaction before its SQL, once the step is known to be due (the store
    /// is still at its `fromVersion`); not called for a step another run applied meanwhile.
    var beforeStep: (@Sendable (Database, VersionStep) throws -> Void)?
    /// Runs after each operation of a step, inside its transaction (tests inject failures here).
    public var afterOperation: (@Sendable (MigrationOperation) throws -> Void)?
    /// Where progress of long copies goes (a terminal bar on stderr in the CLI); nil draws nothing.
    public var progressSink: ProgressSink?

    /// Options for a run to `target`.
    ///
    /// ```swift
    /// try Migrator.migrate(store, history: history, options: MigrationOptions(target: 3))
    /// ```
    /// - Parameters:
    ///   - target: the version to reach; nil = the newest model.
    ///   - afterOperation: runs after each operation of a step, inside its transaction.
    public init(target: Int? = nil, afterOperation: (@Sendable (MigrationOperation) throws -> Void)? = nil) {
        self.target = target
        self.afterOperation = afterOperation
    }

    /// With work of the caller's inside each step's transaction, on GRDB's `Database` (the library's own runs
    /// and tests; not public API).
    init(target: Int? = nil, afterStep: (@Sendable (Database, VersionStep) throws -> Void)?,
         afterOperation: (@Sendable (MigrationOperation) throws -> Void)? = nil) {
        self.init(target: target, afterOperation: afterOperation)
        self.afterStep = afterStep
    }
}

/// What a migration run did.
public struct MigrationResult: Sendable {
    public struct StepRun: Sendable {
        public var step: VersionStep
        /// Another run applied this step first (seen inside the step's transaction): this run did nothing.
        public var skipped = false
        public var duration: TimeInterval
        /// e.g. a user view that could not be re-created.
        public var warnings: [String]
    }
    public var fromVersion: Int
    public var toVersion: Int
    public var steps: [StepRun]
}

/// Migrates an existing store version by version (SPEC §4): drift check, planning (pure), then one
/// transaction per version step.
///
/// ```swift
/// let history = try ModelHistory.load(directory: "models")
/// let result = try Migrator.migrate(store, history: history)
/// print("v\(result.fromVersion) → v\(result.toVersion)")
/// ```
public enum Migrator {
    /// The steps that would take the store to `target`, after checking it is not in drift.
    /// - Throws: `MigrationError` (drift, versions), `MappingError` (not inferable).
    public static func plan(_ store: Store, history: ModelHistory, to target: Int? = nil) throws -> (metadata: StoreMetadata, steps: [VersionStep]) {
        // The metadata and the schema it is checked against come from one read transaction: a step that
        // another run commits meanwhile is seen entirely or not at all (never as drift).
        let (metadata, report) = try store.wrap {
            try store.queue.read { db -> (StoreMetadata, DriftReport) in
                guard let metadata = try StoreMetadata.read(db) else { throw StoreError.notAdopted(path: store.path) }
                return (metadata, try DriftDetector.check(db, metadata: metadata, model: history.model(version: metadata.version)))
            }
        }
        let target = target ?? history.latest?.version ?? metadata.version
        guard history.model(version: target) != nil else { throw MigrationError.unknownVersion(target, available: history.versions) }
        guard target >= metadata.version else { throw MigrationError.targetBelowCurrent(current: metadata.version, target: target) }
        guard report.isEmpty else { throw MigrationError.drift(report) }
        let steps = try MappingInference.plan(models: history.models, from: metadata.version, to: target, sourceLayout: metadata.layout)
        return (metadata, steps)
    }

    /// Migrates the store to `options.target` (default: the newest model).
    /// - Throws: `MigrationError` (drift: exit 6, violations: exit 3, versions: exit 2), `MappingError` (exit 4,
    ///   before anything is written), `StoreError` (SQLite).
    @discardableResult
    public static func migrate(_ store: Store, history: ModelHistory, options: MigrationOptions = MigrationOptions()) throws -> MigrationResult {
        var (metadata, steps) = try plan(store, history: history, to: options.target)
        let from = metadata.version
        var runs: [MigrationResult.StepRun] = []
        for step in steps {
            let destination = history.model(version: step.toVersion)!
            let outcome = try store.wrapMigration {
                try store.queue.inDatabase { db in
                    try StepExecutor.run(step, on: db, metadata: metadata, destination: destination, options: options)
                }
            }
            metadata = outcome.metadata
            runs.append(.init(step: step, skipped: outcome.skipped, duration: outcome.finished.timeIntervalSince(outcome.started),
                              warnings: outcome.warnings))
        }
        steps = []
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
