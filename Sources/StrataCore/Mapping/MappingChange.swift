/// One change between two model versions, as `strata diff` lists it.
public struct MappingChange: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, Codable {
        case addEntity, removeEntity, renameEntity, changeParent, changeAbstract, renameTable
        case addAttribute, removeAttribute, renameAttribute, moveAttribute, widenType, changeColumn
        case makeMandatory, makeOptional, changeDefault, changeRules, changeHashModifier
        case addRelationship, removeRelationship, renameRelationship, moveRelationship
        case changeRelationship, toOneToToMany, changeOrdering, changeDeleteRule, widenDestination
        case addUniqueness, removeUniqueness, addIndex, removeIndex
        /// Named by a mapping file (SPEC §11.3).
        case mapEntity, mapAttribute
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
