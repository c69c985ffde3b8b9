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
    public var name: String
    public var destination: String
    /// The declared inverse. It is used only when it points back (see `Model.effectiveInverse`).
    public var inverse: String? = nil
    public var isToMany: Bool = false
    public var isOrdered: Bool = false
    public var deleteRule: DeleteRule = .nullify
    public var minCount: Int? = nil
    public var maxCount: Int? = nil
    public var isOptional: Bool = true
    public var renamedFrom: String? = nil
    /// The declared SQL column name for a to-one relationship stored on this side.
    public var column: String? = nil
    public var versionHashModifier: String? = nil
    public var userInfo: [String: String] = [:]
    public var location: SourceLocation? = nil
    /// Where each declared key's value is in the file (`"type"`, `"uniqueness.0"`, …), for located errors.
    public var keyLocations: [String: SourceLocation] = [:]

    public init(name: String, destination: String, inverse: String? = nil, isToMany: Bool = false,
                deleteRule: DeleteRule = .nullify, location: SourceLocation? = nil) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.deleteRule = deleteRule
        self.location = location
    }
}
