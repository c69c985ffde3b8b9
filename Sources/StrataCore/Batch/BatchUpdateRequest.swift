/// A value assigned by a batch update (Core Data's `propertiesToUpdate` values).
public enum UpdateValue: Sendable, Hashable {
    /// Text coerced to the attribute's type, as a literal (`--set K=V`, YAML scalars): `"true"`, `"2024-05-01"`.
    case literal(String)
    /// A value already in storage form; its type and range are checked.
    case value(Value)
    /// An expression over the row's own attributes in the predicate language (`--set-expr`):
    /// `rating + 1`, `lowercase(name)`, `$NOW`, `%@`.
    case expression(String)
}

/// What a batch update returns (Core Data's `NSBatchUpdateRequestResultType`).
public enum BatchUpdateResultType: String, Sendable, Hashable, Codable, CaseIterable {
    case statusOnly, updatedObjectIDs, updatedObjectsCount
}

/// Updates every object of an entity matching a predicate in one SQL statement, bypassing
/// validation (the audit checks the result), like Core Data's `NSBatchUpdateRequest`.
///
/// ```swift
/// var request = BatchUpdateRequest(entity: "Recipe", predicate: "lastUsed >= $NOW - 30 days",
///                                  propertiesToUpdate: ["favorite": .literal("true")])
/// request.resultType = .updatedObjectIDs
/// let result = try await store.execute(request)
/// ```
public struct BatchUpdateRequest: Sendable, Hashable {
    public var entity: String
    /// nil updates every object of the entity.
    public var predicate: String?
    /// `%@`/`%K` arguments: the predicate's first, then those of `.expression` values in property-name order.
    public var arguments: [PredicateArgument]
    public var propertiesToUpdate: [String: UpdateValue]
    public var resultType: BatchUpdateResultType = .statusOnly
    /// Whether sub-entities' objects are updated too (default true, as in Core Data).
    public var includesSubentities = true
    /// Where the predicate starts in a hook file, for located errors (`predicate:1:1` when nil).
    public var predicateOrigin: SourceLocation?
    /// Where each value starts in a hook file, for located errors.
    public var valueOrigins: [String: SourceLocation] = [:]
    /// Where each property's key is in a hook file (unknown attributes, relationships).
    public var keyOrigins: [String: SourceLocation] = [:]

    public init(entity: String, predicate: String? = nil, arguments: [PredicateArgument] = [],
                propertiesToUpdate: [String: UpdateValue]) {
        self.entity = entity
        self.predicate = predicate
        self.arguments = arguments
        self.propertiesToUpdate = propertiesToUpdate
    }
}
