import Foundation

/// Objects that break a condition a version step needs (exit 3); the step was rolled back.
public struct MigrationViolation: Hashable, Sendable, Codable {
    public var check: MigrationCheck.Kind
    public var entity: String
    public var properties: [String]
    public var code: Int
    /// What failed, in words.
    public var summary: String
    /// The offending objects; for duplicates, in groups of equal values (`groups`).
    public var objects: [ObjectID]
    /// For duplicates: each group's values and members.
    public var groups: [DuplicateGroup]

    public struct DuplicateGroup: Hashable, Sendable, Codable {
        public var values: [Value]
        public var objects: [ObjectID]
    }
}
