/// What deleting an object does to the objects a relationship points at (Core Data's delete rules).
public enum DeleteRule: String, CaseIterable, Sendable, Codable, Hashable {
    case nullify, cascade, deny, noAction

    /// The SQLite `ON DELETE` action for a foreign key whose *other* side has this rule,
    /// or nil for `noAction` (no foreign key is declared at all).
    public var onDeleteAction: String? {
        switch self {
        case .nullify: return "SET NULL"
        case .cascade: return "CASCADE"
        case .deny: return "RESTRICT"
        case .noAction: return nil
        }
    }
}

/// A relationship of an entity, as declared in a model file.
public struct Relationship: Hashable, Sendable {
    /// The stored values, in one copy-on-write box (`CopyOnWrite`): a copy is one retain.
    struct Fields: Hashable, Sendable {
        var name: String
        var destination: String
        var inverse: String? = nil
        var isToMany: Bool = false
        var isOrdered: Bool = false
        var deleteRule: DeleteRule = .nullify
        var minCount: Int? = nil
        var maxCount: Int? = nil
        var isOptional: Bool = true
        var renamedFrom: String? = nil
        var column: String? = nil
        var versionHashModifier: String? = nil
        var userInfo: [String: String] = [:]
        var location: SourceLocation? = nil
        var keyLocations: [String: SourceLocation] = [:]
    }

    private var fields: CopyOnWrite<Fields>

    public var name: String {
        get { fields.value.name }
        _modify { yield &fields.value.name }
    }
    public var destination: String {
        get { fields.value.destination }
        _modify { yield &fields.value.destination }
    }
    /// The declared inverse. It is used only when it points back (see `Model.effectiveInverse`).
    public var inverse: String? {
        get { fields.value.inverse }
        _modify { yield &fields.value.inverse }
    }
    public var isToMany: Bool {
        get { fields.value.isToMany }
        _modify { yield &fields.value.isToMany }
    }
    public var isOrdered: Bool {
        get { fields.value.isOrdered }
        _modify { yield &fields.value.isOrdered }
    }
    public var deleteRule: DeleteRule {
        get { fields.value.deleteRule }
        _modify { yield &fields.value.deleteRule }
    }
    public var minCount: Int? {
        get { fields.value.minCount }
        _modify { yield &fields.value.minCount }
    }
    public var maxCount: Int? {
        get { fields.value.maxCount }
        _modify { yield &fields.value.maxCount }
    }
    public var isOptional: Bool {
        get { fields.value.isOptional }
        _modify { yield &fields.value.isOptional }
    }
    public var renamedFrom: String? {
        get { fields.value.renamedFrom }
        _modify { yield &fields.value.renamedFrom }
    }
    /// The declared SQL column name for a to-one relationship stored on this side.
    public var column: String? {
        get { fields.value.column }
        _modify { yield &fields.value.column }
    }
    public var versionHashModifier: String? {
        get { fields.value.versionHashModifier }
        _modify { yield &fields.value.versionHashModifier }
    }
    public var userInfo: [String: String] {
        get { fields.value.userInfo }
        _modify { yield &fields.value.userInfo }
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

    public init(name: String, destination: String, inverse: String? = nil, isToMany: Bool = false,
                deleteRule: DeleteRule = .nullify, location: SourceLocation? = nil) {
        var fields = Fields(name: name, destination: destination)
        fields.inverse = inverse
        fields.isToMany = isToMany
        fields.deleteRule = deleteRule
        fields.location = location
        self.fields = CopyOnWrite(fields)
    }
}
