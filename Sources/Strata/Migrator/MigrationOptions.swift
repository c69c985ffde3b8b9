import Foundation
import GRDB

/// How a migration run behaves.
public struct MigrationOptions: Sendable {
    /// The version to reach; nil = the newest model.
    public var target: Int?
    /// Runs after each operation of a step, inside its transaction (tests inject failures here).
    public var afterOperation: (@Sendable (MigrationOperation) throws -> Void)?
    /// Where progress of long copies goes (a terminal bar on stderr in the CLI); nil draws nothing.
    public var progressSink: ProgressSink?
    /// Sees each step's transaction once all its work is done, just before it commits (a test seam).
    var observer: (any StepObserver)?

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
}

/// Sees each version step's transaction at its end, before the commit; throwing rolls the step back.
/// Tests use it to inject failures after a step's work; the library itself does not.
protocol StepObserver: Sendable {
    func stepWillCommit(_ step: VersionStep, in db: Database) throws
}
