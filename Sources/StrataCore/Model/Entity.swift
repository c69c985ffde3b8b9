/// An entity-level validation rule: a predicate every object must satisfy (code 1550).
public struct ValidationRule: Hashable, Sendable {
    public var predicate: String
    public var message: String?
    /// Where the predicate string starts in the file (its first character), for located predicate errors.
    public var location: SourceLocation?

    public init(predicate: String, message: String? = nil, location: SourceLocation? = nil) {
        self.predicate = predicate
        self.message = message
        self.location = location
    }
}

/// An entity of a model, as declared in a model file.
public struct Entity: Hashable, Sendable {
    public var name: String
    public var renamedFrom: String? = nil
    /// The declared SQL table name (root entities only).
    public var table: String? = nil
    public var parent: String? = nil
    public var isAbstract: Bool = false
    /// Attributes declared on this entity, in file order (inherited ones are not repeated).
    public var attributes: [Attribute] = []
    /// Relationships declared on this entity, in file order.
    public var relationships: [Relationship] = []
    /// Uniqueness constraints: each a list of attribute (or to-one relationship) names.
    public var uniqueness: [[String]] = []
    /// Plain indexes: each a list of attribute or to-one relationship names.
    public var indexes: [[String]] = []
    public var versionHashModifier: String? = nil
    public var userInfo: [String: String] = [:]
    public var validation: [ValidationRule] = []
    public var location: SourceLocation? = nil
    /// Where each declared key's value is in the file (`"type"`, `"uniqueness.0"`, …), for located errors.
    public var keyLocations: [String: SourceLocation] = [:]

    public init(name: String, parent: String? = nil, attributes: [Attribute] = [], relationships: [Relationship] = [],
                location: SourceLocation? = nil) {
        self.name = name
        self.parent = parent
        self.attributes = attributes
        self.relationships = relationships
        self.location = location
    }

    public func attribute(_ name: String) -> Attribute? { attributes.first { $0.name == name } }
    public func relationship(_ name: String) -> Relationship? { relationships.first { $0.name == name } }
}
