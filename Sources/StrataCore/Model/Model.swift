/// One version of an entity model: the contents of one file in `models/`.
public struct Model: Hashable, Sendable {
    public var version: Int
    /// Entities sorted by name.
    public private(set) var entities: [Entity]
    /// The file it was loaded from (as given), for messages.
    public var file: String
    /// The YAML text, recorded in the store's metadata so the source model is always recoverable.
    public var source: String
    /// Warnings found while loading (inverses that do not point back, relationships without inverse).
    public var warnings: [Diagnostic] = []

    private var index: [String: Int]
    /// Entity name → indexes of its direct sub-entities (sorted by name, as `entities` is).
    private var childIndex: [String: [Int]]

    public init(version: Int, entities: [Entity], file: String = "", source: String = "") {
        self.version = version
        self.entities = entities.sorted { $0.name < $1.name }
        self.file = file
        self.source = source
        self.index = Dictionary(self.entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        var children: [String: [Int]] = [:]
        for (i, e) in self.entities.enumerated() { if let p = e.parent { children[p, default: []].append(i) } }
        self.childIndex = children
    }

    public func entity(_ name: String) -> Entity? { index[name].map { entities[$0] } }

    public var entityNames: [String] { entities.map(\.name) }

    /// Indexes into `entities` of the chain from the entity up to its root, the entity first. Stops at a cycle.
    /// Walks indexes, so no entity is copied (lookups run for every property of every step).
    func lineageIndexes(of name: String) -> [Int] {
        var chain: [Int] = []
        var current = index[name]
        while let i = current, !chain.contains(i) {
            chain.append(i)
            current = entities[i].parent.flatMap { index[$0] }
        }
        return chain
    }

    /// The chain from the entity up to its root, the entity first. Stops at a cycle.
    public func lineage(of name: String) -> [Entity] { lineageIndexes(of: name).map { entities[$0] } }

    /// The root of the entity's hierarchy (itself when it has no parent).
    public func root(of name: String) -> Entity? { lineageIndexes(of: name).last.map { entities[$0] } }

    /// Direct sub-entities, sorted by name.
    public func children(of name: String) -> [Entity] { (childIndex[name] ?? []).map { entities[$0] } }

    /// Whether the entity has sub-entities.
    public func hasChildren(_ name: String) -> Bool { !(childIndex[name] ?? []).isEmpty }

    /// The entity and all entities below it, pre-order with children sorted by name.
    public func hierarchy(of name: String) -> [Entity] {
        guard let e = entity(name) else { return [] }
        var result = [e]
        var seen: Set<String> = [name]
        var stack = children(of: name).reversed() as [Entity]
        while let next = stack.popLast() {
            guard seen.insert(next.name).inserted else { continue }
            result.append(next)
            stack.append(contentsOf: children(of: next.name).reversed())
        }
        return result
    }

    /// Whether `name` is `ancestor` or below it.
    public func isKind(_ name: String, of ancestor: String) -> Bool {
        lineageIndexes(of: name).contains { entities[$0].name == ancestor }
    }

    /// Attributes of the entity including inherited ones (ancestors' first).
    public func allAttributes(of name: String) -> [(owner: String, attribute: Attribute)] {
        var result: [(owner: String, attribute: Attribute)] = []
        for i in lineageIndexes(of: name).reversed() {
            let e = entities[i]
            result.reserveCapacity(result.count + e.attributes.count)
            for a in e.attributes { result.append((e.name, a)) }
        }
        return result
    }

    /// Relationships of the entity including inherited ones (ancestors' first).
    public func allRelationships(of name: String) -> [(owner: String, relationship: Relationship)] {
        var result: [(owner: String, relationship: Relationship)] = []
        for i in lineageIndexes(of: name).reversed() {
            let e = entities[i]
            for r in e.relationships { result.append((e.name, r)) }
        }
        return result
    }

    /// An attribute visible on the entity (declared there or inherited).
    public func attribute(_ property: String, of entityName: String) -> (owner: String, attribute: Attribute)? {
        for i in lineageIndexes(of: entityName) {
            if let a = entities[i].attributes.last(where: { $0.name == property }) { return (entities[i].name, a) }
        }
        return nil
    }

    /// A relationship visible on the entity (declared there or inherited).
    public func relationship(_ property: String, of entityName: String) -> (owner: String, relationship: Relationship)? {
        for i in lineageIndexes(of: entityName) {
            if let r = entities[i].relationships.last(where: { $0.name == property }) { return (entities[i].name, r) }
        }
        return nil
    }

    /// The inverse of a relationship when it really points back: the destination has a relationship
    /// named `inverse` whose destination is the declaring entity (or an ancestor of it) and whose own
    /// inverse names this relationship. Otherwise nil, and the relationship is stored as if it had no inverse.
    public func effectiveInverse(of relationship: Relationship, in owner: String) -> (owner: String, relationship: Relationship)? {
        guard let inverseName = relationship.inverse,
              let found = self.relationship(inverseName, of: relationship.destination),
              found.relationship.inverse == relationship.name,
              isKind(owner, of: found.relationship.destination) || found.relationship.destination == owner
        else { return nil }
        return found
    }

    /// Whether a relationship is its own inverse (`Person.spouse` ↔ `spouse`): it is stored from its one side.
    public func isOwnInverse(_ relationship: Relationship, in owner: String) -> Bool {
        effectiveInverse(of: relationship, in: owner).map { $0.owner == owner && $0.relationship.name == relationship.name } ?? false
    }
}
