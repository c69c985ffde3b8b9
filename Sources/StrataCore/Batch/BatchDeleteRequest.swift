/// What a batch delete returns (Core Data's `NSBatchDeleteRequestResultType`).
public enum BatchDeleteResultType: String, Sendable, Hashable, Codable, CaseIterable {
    case statusOnly, objectIDs, count
}

/// Deletes every object of an entity matching a predicate, applying the model's delete rules in
/// set-based SQL (cascade, nullify, deny), like Core Data's `NSBatchDeleteRequest`.
public struct BatchDeleteRequest: Sendable, Hashable {
    public var entity: String
    public var predicate: String?
    public var arguments: [PredicateArgument]
    public var resultType: BatchDeleteResultType = .statusOnly
    public var includesSubentities = true
    public var predicateOrigin: SourceLocation?

    public init(entity: String, predicate: String? = nil, arguments: [PredicateArgument] = []) {
        self.entity = entity
        self.predicate = predicate
        self.arguments = arguments
    }
}
