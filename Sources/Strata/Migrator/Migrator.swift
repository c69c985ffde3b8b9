import Foundation
import GRDB

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
