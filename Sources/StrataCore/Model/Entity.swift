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
    /// The stored values, in one copy-on-write box: a model has thousands of properties and the
    /// loader, checker and planner pass them around; a copy is then one retain, not one per field.
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

    final class Box: @unchecked Sendable {
        /// Written only after `unshare()` made the box unique to one value, so no access can overlap a
        /// write: the run-time exclusivity check (on every read of every property) is skipped.
        @exclusivity(unchecked) var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    /// Mutations copy the box first when it is shared (value semantics).
    private mutating func unshare() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
    }

    public var name: String {
        get { box.fields.name }
        _modify { unshare(); yield &box.fields.name }
    }
    public var renamedFrom: String? {
        get { box.fields.renamedFrom }
        _modify { unshare(); yield &box.fields.renamedFrom }
    }
    /// The declared SQL table name (root entities only).
    public var table: String? {
        get { box.fields.table }
        _modify { unshare(); yield &box.fields.table }
    }
    public var parent: String? {
        get { box.fields.parent }
        _modify { unshare(); yield &box.fields.parent }
    }
    public var isAbstract: Bool {
        get { box.fields.isAbstract }
        _modify { unshare(); yield &box.fields.isAbstract }
    }
    /// Attributes declared on this entity, in file order (inherited ones are not repeated).
    public var attributes: [Attribute] {
        get { box.fields.attributes }
        _modify { unshare(); yield &box.fields.attributes }
    }
    /// Relationships declared on this entity, in file order.
    public var relationships: [Relationship] {
        get { box.fields.relationships }
        _modify { unshare(); yield &box.fields.relationships }
    }
    /// Uniqueness constraints: each a list of attribute (or to-one relationship) names.
    public var uniqueness: [[String]] {
        get { box.fields.uniqueness }
        _modify { unshare(); yield &box.fields.uniqueness }
    }
    /// Plain indexes: each a list of attribute or to-one relationship names.
    public var indexes: [[String]] {
        get { box.fields.indexes }
        _modify { unshare(); yield &box.fields.indexes }
    }
    public var versionHashModifier: String? {
        get { box.fields.versionHashModifier }
        _modify { unshare(); yield &box.fields.versionHashModifier }
    }
    public var userInfo: [String: String] {
        get { box.fields.userInfo }
        _modify { unshare(); yield &box.fields.userInfo }
    }
    public var validation: [ValidationRule] {
        get { box.fields.validation }
        _modify { unshare(); yield &box.fields.validation }
    }
    public var location: SourceLocation? {
        get { box.fields.location }
        _modify { unshare(); yield &box.fields.location }
    }
    /// Where each declared key's value is in the file (`"type"`, `"uniqueness.0"`, …), for located errors.
    public var keyLocations: [String: SourceLocation] {
        get { box.fields.keyLocations }
        _modify { unshare(); yield &box.fields.keyLocations }
    }

    public static func == (lhs: Entity, rhs: Entity) -> Bool { lhs.box === rhs.box || lhs.box.fields == rhs.box.fields }
    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }

    public init(name: String, parent: String? = nil, attributes: [Attribute] = [], relationships: [Relationship] = [],
                location: SourceLocation? = nil) {
        var fields = Fields(name: name)
        fields.parent = parent
        fields.attributes = attributes
        fields.relationships = relationships
        fields.location = location
        box = Box(fields)
    }

    public func attribute(_ name: String) -> Attribute? { attributes.first { $0.name == name } }
    public func relationship(_ name: String) -> Relationship? { relationships.first { $0.name == name } }
}
