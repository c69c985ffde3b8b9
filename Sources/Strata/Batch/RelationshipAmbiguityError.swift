/// A `setRelationship` match was ambiguous: one object matched several on the other side where the link
/// holds one (SPEC §11.4). Exit 3; the step (and its version step) rolled back, whatever `onViolation` says.
public struct RelationshipAmbiguityError: StrataError, Sendable {
    /// `Post.author`
    public var relationship: String
    /// The object that matched several (a source where the link is on its row, else a destination).
    public var object: ObjectID
    /// Its `match` attributes and their values, as `authorID = 7`.
    public var keys: [String]
    /// Two of the objects it matched.
    public var matches: [ObjectID]
    /// The entity of the matched objects.
    public var matchedEntity: String
    /// The hook whose step failed, when it ran in a hook.
    public var hook: String?

    package init(relationship: String, object: ObjectID, keys: [String], matches: [ObjectID], matchedEntity: String, hook: String? = nil) {
        self.relationship = relationship
        self.object = object
        self.keys = keys
        self.matches = matches
        self.matchedEntity = matchedEntity
        self.hook = hook
    }

    public var exitCode: ExitStatus { .validationViolations }

    public var diagnostics: [Diagnostic] {
        let prefix = hook.map { "hook '\($0)': " } ?? ""
        return [.error("\(prefix)setRelationship \(relationship) is ambiguous: \(object.entity) \(object.uri) (\(keys.joined(separator: ", "))) matches "
                       + "several \(matchedEntity) objects: \(matches.map(\.uri).joined(separator: ", ")); nothing was linked and the step was rolled back",
                       hint: "narrow the match with more pairs or a predicate, or make the matched attributes unique")]
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
