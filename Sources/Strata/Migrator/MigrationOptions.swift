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
