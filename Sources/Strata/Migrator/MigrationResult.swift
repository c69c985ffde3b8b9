import Foundation

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
