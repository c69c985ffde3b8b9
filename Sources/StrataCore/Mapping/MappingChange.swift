/// One change between two model versions, as `strata diff` lists it.
public struct MappingChange: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, Codable {
        case addEntity, removeEntity, renameEntity, changeParent, changeAbstract, renameTable
        case addAttribute, removeAttribute, renameAttribute, moveAttribute, widenType, changeColumn
        case makeMandatory, makeOptional, changeDefault, changeRules, changeHashModifier
        case addRelationship, removeRelationship, renameRelationship, moveRelationship
        case changeRelationship, toOneToToMany, changeOrdering, changeDeleteRule, widenDestination
        case addUniqueness, removeUniqueness, addIndex, removeIndex
    }
    public var kind: Kind
    public var entity: String
    public var property: String?
    /// e.g. "int16 → int32", "renamed from title", "NULLs set to the default 0".
    public var detail: String
    /// Data is lost (removed entity, attribute or relationship).
    public var isDestructive: Bool

    public init(_ kind: Kind, entity: String, property: String? = nil, detail: String, isDestructive: Bool = false) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.detail = detail
        self.isDestructive = isDestructive
    }

    public var description: String {
        let target = property.map { "\(entity).\($0)" } ?? entity
        return "\(kind.rawValue) \(target): \(detail)" + (isDestructive ? " [destructive]" : "")
    }
}

/// A change Strata cannot infer: the step stops before touching the store (exit 4).
public struct MappingRefusal: Hashable, Sendable, Codable {
    public var fromVersion: Int
    public var toVersion: Int
    public var entity: String
    public var property: String?
    /// The change, e.g. "type changes from string to int16".
    public var change: String
    /// What the user can do.
    public var hint: String
    /// Where the offending node is declared in the destination model file.
    public var location: SourceLocation?

    public init(fromVersion: Int, toVersion: Int, entity: String, property: String? = nil, change: String, hint: String,
                location: SourceLocation? = nil) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.entity = entity
        self.property = property
        self.change = change
        self.hint = hint
        self.location = location
    }

    /// `models/3.yaml:12:7: error: v2 → v3: Recipe.rating: type changes from string to int16, not a lightweight change`
    public var diagnostic: Diagnostic {
        let target = property.map { "\(entity).\($0)" } ?? entity
        return .error("v\(fromVersion) → v\(toVersion): \(target): \(change), which Strata cannot infer",
                      at: location, hint: hint)
    }
}

/// The changes of a step that cannot be inferred (exit 4).
public struct MappingError: StrataError, Sendable, Hashable {
    public var refusals: [MappingRefusal]
    public init(_ refusals: [MappingRefusal]) { self.refusals = refusals }
    public var exitCode: ExitStatus { .notInferable }
    public var diagnostics: [Diagnostic] { refusals.map(\.diagnostic) }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
