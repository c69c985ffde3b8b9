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
    /// The stored values, in one copy-on-write box (`CopyOnWrite`): a copy is one retain.
    struct Fields: Hashable, Sendable {
        var name: String
        var renamedFrom: String? = nil
        var table: String? = nil
        var parent: String? = nil
        var isAbstract: Bool = false
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        var uniqueness: [[String]] = []
        var indexes: [[String]] = []
        var versionHashModifier: String? = nil
        var userInfo: [String: String] = [:]
        var validation: [ValidationRule] = []
        var location: SourceLocation? = nil
        var keyLocations: [String: SourceLocation] = [:]
    }

    private var fields: CopyOnWrite<Fields>

    public var name: String {
        get { fields.value.name }
        _modify { yield &fields.value.name }
    }
    public var renamedFrom: String? {
        get { fields.value.renamedFrom }
        _modify { yield &fields.value.renamedFrom }
    }
    /// The declared SQL table name (root entities only).
    public var table: String? {
        get { fields.value.table }
        _modify { yield &fields.value.table }
    }
    public var parent: String? {
        get { fields.value.parent }
        _modify { yield &fields.value.parent }
    }
    public var isAbstract: Bool {
        get { fields.value.isAbstract }
        _modify { yield &fields.value.isAbstract }
    }
    /// Attributes declared on this entity, in file order (inherited ones are not repeated).
    public var attributes: [Attribute] {
        get { fields.value.attributes }
        _modify { yield &fields.value.attributes }
    }
    /// Relationships declared on this entity, in file order.
    public var relationships: [Relationship] {
        get { fields.value.relationships }
        _modify { yield &fields.value.relationships }
    }
    /// Uniqueness constraints: each a list of attribute (or to-one relationship) names.
    public var uniqueness: [[String]] {
        get { fields.value.uniqueness }
        _modify { yield &fields.value.uniqueness }
    }
    /// Plain indexes: each a list of attribute or to-one relationship names.
    public var indexes: [[String]] {
        get { fields.value.indexes }
        _modify { yield &fields.value.indexes }
    }
    public var versionHashModifier: String? {
        get { fields.value.versionHashModifier }
        _modify { yield &fields.value.versionHashModifier }
    }
    public var userInfo: [String: String] {
        get { fields.value.userInfo }
        _modify { yield &fields.value.userInfo }
    }
    public var validation: [ValidationRule] {
        get { fields.value.validation }
        _modify { yield &fields.value.validation }
    }
    public var location: SourceLocation? {
        get { fields.value.location }
        _modify { yield &fields.value.location }
    }
    /// Where each declared key's value is in the file (`"type"`, `"uniqueness.0"`, …), for located errors.
    public var keyLocations: [String: SourceLocation] {
        get { fields.value.keyLocations }
        _modify { yield &fields.value.keyLocations }
    }

    public init(name: String, parent: String? = nil, attributes: [Attribute] = [], relationships: [Relationship] = [],
                location: SourceLocation? = nil) {
        var fields = Fields(name: name)
        fields.parent = parent
        fields.attributes = attributes
        fields.relationships = relationships
        fields.location = location
        self.fields = CopyOnWrite(fields)
    }

    public func attribute(_ name: String) -> Attribute? { attributes.first { $0.name == name } }
    public func relationship(_ name: String) -> Relationship? { relationships.first { $0.name == name } }
}
