/// Links objects by equal attribute values (`setRelationship` hook steps): for each object of `entity`
/// (matching `predicate`), the objects of `destination` whose `match` attributes equal its own.
///
/// ```swift
/// var request = SetRelationshipRequest(entity: "Post", relationship: "author", match: [("authorID", "userID")])
/// request.predicate = "author == nil"
/// ```
/// nil never matches; unmatched sources are left as they are. A match overwrites a stored to-one link
/// (a destination of a to-many with a to-one inverse moves to its new source); a many-to-many only gains
/// join rows. Several destinations for one source (link stored on the source row), or several sources for
/// one destination (link stored on the destination row), is an ambiguity: the request fails with exit 3.
public struct SetRelationshipRequest: Sendable, Hashable {
    /// One `match` pair: the source's attribute and the destination's.
    public struct Match: Sendable, Hashable {
        public var source: String
        public var destination: String
        /// Where the pair is in a hook file.
        public var origin: SourceLocation?

        public init(source: String, destination: String, origin: SourceLocation? = nil) {
            self.source = source
            self.destination = destination
            self.origin = origin
        }
    }

    public var entity: String
    public var relationship: String
    /// The relationship's destination or one of its sub-entities; nil for the relationship's destination.
    public var destination: String?
    public var match: [Match]
    public var predicate: String?
    public var arguments: [PredicateArgument] = []
    /// Whether sub-entities' objects are sources too (default true).
    public var includesSubentities = true
    public var resultType: BatchInsertResultType = .statusOnly
    /// Where things are in a hook file, for located errors.
    public var predicateOrigin: SourceLocation?
    public var relationshipOrigin: SourceLocation?
    public var destinationOrigin: SourceLocation?

    public init(entity: String, relationship: String, destination: String? = nil, match: [(String, String)], predicate: String? = nil) {
        self.entity = entity
        self.relationship = relationship
        self.destination = destination
        self.match = match.map { Match(source: $0.0, destination: $0.1) }
        self.predicate = predicate
    }
}
