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
    /// The stored values, in one copy-on-write box: a model has thousands of properties and the
    /// loader, checker and planner pass them around; a copy is then one retain, not one per field.
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
    public var destination: String {
        get { box.fields.destination }
        _modify { unshare(); yield &box.fields.destination }
    }
    /// The declared inverse. It is used only when it points back (see `Model.effectiveInverse`).
    public var inverse: String? {
        get { box.fields.inverse }
        _modify { unshare(); yield &box.fields.inverse }
    }
    public var isToMany: Bool {
        get { box.fields.isToMany }
        _modify { unshare(); yield &box.fields.isToMany }
    }
    public var isOrdered: Bool {
        get { box.fields.isOrdered }
        _modify { unshare(); yield &box.fields.isOrdered }
    }
    public var deleteRule: DeleteRule {
        get { box.fields.deleteRule }
        _modify { unshare(); yield &box.fields.deleteRule }
    }
    public var minCount: Int? {
        get { box.fields.minCount }
        _modify { unshare(); yield &box.fields.minCount }
    }
    public var maxCount: Int? {
        get { box.fields.maxCount }
        _modify { unshare(); yield &box.fields.maxCount }
    }
    public var isOptional: Bool {
        get { box.fields.isOptional }
        _modify { unshare(); yield &box.fields.isOptional }
    }
    public var renamedFrom: String? {
        get { box.fields.renamedFrom }
        _modify { unshare(); yield &box.fields.renamedFrom }
    }
    /// The declared SQL column name for a to-one relationship stored on this side.
    public var column: String? {
        get { box.fields.column }
        _modify { unshare(); yield &box.fields.column }
    }
    public var versionHashModifier: String? {
        get { box.fields.versionHashModifier }
        _modify { unshare(); yield &box.fields.versionHashModifier }
    }
    public var userInfo: [String: String] {
        get { box.fields.userInfo }
        _modify { unshare(); yield &box.fields.userInfo }
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

    public static func == (lhs: Relationship, rhs: Relationship) -> Bool { lhs.box === rhs.box || lhs.box.fields == rhs.box.fields }
    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }

    public init(name: String, destination: String, inverse: String? = nil, isToMany: Bool = false,
                deleteRule: DeleteRule = .nullify, location: SourceLocation? = nil) {
        var fields = Fields(name: name, destination: destination)
        fields.inverse = inverse
        fields.isToMany = isToMany
        fields.deleteRule = deleteRule
        fields.location = location
        box = Box(fields)
    }
}
