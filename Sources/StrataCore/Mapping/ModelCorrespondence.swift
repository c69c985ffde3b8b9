/// Which entity and property of the previous version each entity and property of a version is
/// (SPEC §4, §10 `renamedFrom`): same name first, then `renamedFrom` matched against the previous
/// version. Pure.
struct ModelCorrespondence {
    let source: Model
    let destination: Model
    /// Destination entity → source entity.
    private(set) var sourceEntity: [String: String] = [:]
    /// Source entity → destination entity.
    private(set) var destinationEntity: [String: String] = [:]
    private(set) var refusals: [MappingRefusal] = []
    /// Destination entity → its further source entities, when a mapping file merges several into it (SPEC §11.3).
    private(set) var mergedSources: [String: [String]] = [:]
    /// Renames that were found (for the change list).
    private(set) var renamedEntities: [(from: String, to: String)] = []

    /// Destination entity → itself and its sub-entities (pre-order), computed once.
    private(set) var destinationKinds: [String: [String]] = [:]

    private var sourceAttributes: [String: [String: (owner: String, attribute: Attribute)]] = [:]
    private var sourceRelationships: [String: [String: (owner: String, relationship: Relationship)]] = [:]

    init(source: Model, destination: Model, earlier: EarlierNames) {
        self.source = source
        self.destination = destination
        for e in source.entities {
            var attributes: [String: (owner: String, attribute: Attribute)] = [:]
            for (owner, a) in source.allAttributes(of: e.name) { attributes[a.name] = (owner, a) }
            sourceAttributes[e.name] = attributes
            var relationships: [String: (owner: String, relationship: Relationship)] = [:]
            for (owner, r) in source.allRelationships(of: e.name) { relationships[r.name] = (owner, r) }
            sourceRelationships[e.name] = relationships
        }
        destinationKinds = Self.kinds(of: destination)
        resolveEntities(earlier: earlier)
        checkPropertyRenames(earlier: earlier)
    }

    private mutating func refuse(_ entity: String, _ property: String? = nil, _ change: String, hint: String,
                                 at location: SourceLocation?) {
        let refusal = MappingRefusal(fromVersion: source.version, toVersion: destination.version, entity: entity,
                                     property: property, change: change, hint: hint, location: location)
        if !refusals.contains(refusal) { refusals.append(refusal) }
    }

    private mutating func resolveEntities(earlier: EarlierNames) {
        var claimedBy: [String: String] = [:]
        for e in destination.entities {
            if source.entity(e.name) != nil {
                sourceEntity[e.name] = e.name
            } else if let old = e.renamedFrom {
                if source.entity(old) != nil {
                    if destination.entity(old) != nil {
                        refuse(e.name, nil, "renamedFrom '\(old)' but \(old) still exists in v\(destination.version)",
                               hint: "remove one of them, or drop renamedFrom to add \(e.name) as a new entity", at: e.location)
                    } else if let other = claimedBy[old] {
                        refuse(e.name, nil, "renamedFrom '\(old)', which \(other) is also renamed from",
                               hint: "only one entity can take over \(old)'s objects", at: e.location)
                    } else {
                        claimedBy[old] = e.name
                        sourceEntity[e.name] = old
                        renamedEntities.append((old, e.name))
                    }
                } else if !earlier.entities.contains(old) {
                    refuse(e.name, nil, "renamedFrom '\(old)' names no entity of any earlier version",
                           hint: NameSuggestion.hint(for: old, in: source.entityNames)
                               ?? "fix the name, or remove renamedFrom to add \(e.name) as a new entity",
                           at: e.location)
                }
            }
        }
        for (d, s) in sourceEntity { destinationEntity[s] = d }
    }

    /// A mapping file names the source of some destination entities (SPEC §11.3): that replaces inference
    /// for them. A source entity carried into several destinations (a split, a companion) continues, for
    /// relationships pointing at it, in the one of the same name, else the one renamed from it, else the first.
    mutating func apply(_ mapping: CompiledMapping) {
        for (d, e) in mapping.entities {
            sourceEntity[d] = e.source
            if e.isMerge { mergedSources[d] = e.sources.dropFirst().map(\.entity) }
            refusals.removeAll { $0.entity == d && $0.property == nil }
        }
        var carriers: [String: [String]] = [:]
        for d in sourceEntity.keys.sorted() { for s in sources(of: d) { carriers[s, default: []].append(d) } }
        destinationEntity = [:]
        for (s, ds) in carriers {
            destinationEntity[s] = ds.first { $0 == s } ?? ds.first { destination.entity($0)?.renamedFrom == s } ?? ds.sorted().first
        }
    }

    /// Every source entity of destination entity `kind`: its own, then those a mapping file merges into it.
    func sources(of kind: String) -> [String] {
        guard let first = sourceEntity[kind] else { return [] }
        return [first] + (mergedSources[kind] ?? [])
    }

    /// A destination property's `renamedFrom` must name something: in the previous version, or in an
    /// earlier one (then it is an old rename, kept in the file, and ignored).
    private mutating func checkPropertyRenames(earlier: EarlierNames) {
        for e in destination.entities {
            let kinds = (destinationKinds[e.name] ?? []).compactMap { sourceEntity[$0] }
            for a in e.attributes {
                guard let old = a.renamedFrom, old != a.name else { continue }
                let current = kinds.contains { sourceAttributes[$0]?[a.name] != nil }
                let previous = kinds.contains { sourceAttributes[$0]?[old] != nil }
                if !current, previous, destination.attribute(old, of: e.name) != nil {
                    refuse(e.name, a.name, "renamedFrom '\(old)' but \(e.name).\(old) still exists",
                           hint: "remove renamedFrom, or remove or rename \(old)", at: a.location)
                } else if !current, !previous, !earlier.properties.contains(old) {
                    let candidates = kinds.flatMap { (sourceAttributes[$0] ?? [:]).keys }
                    refuse(e.name, a.name, "renamedFrom '\(old)' names no attribute of any earlier version",
                           hint: NameSuggestion.hint(for: old, in: candidates)
                               ?? "fix the name, or remove renamedFrom to add \(a.name) as a new attribute",
                           at: a.location)
                }
            }
            for r in e.relationships {
                guard let old = r.renamedFrom, old != r.name else { continue }
                let current = kinds.contains { sourceRelationships[$0]?[r.name] != nil }
                let previous = kinds.contains { sourceRelationships[$0]?[old] != nil }
                if !current, previous, destination.relationship(old, of: e.name) != nil {
                    refuse(e.name, r.name, "renamedFrom '\(old)' but \(e.name).\(old) still exists",
                           hint: "remove renamedFrom, or remove or rename \(old)", at: r.location)
                } else if !current, !previous, !earlier.properties.contains(old) {
                    let candidates = kinds.flatMap { (sourceRelationships[$0] ?? [:]).keys }
                    refuse(e.name, r.name, "renamedFrom '\(old)' names no relationship of any earlier version",
                           hint: NameSuggestion.hint(for: old, in: candidates)
                               ?? "fix the name, or remove renamedFrom to add \(r.name) as a new relationship",
                           at: r.location)
                }
            }
        }
    }

    /// The source attribute that `attribute` (visible on destination entity `kind`) continues, if any.
    /// - Parameter from: the source entity (a merge has several; default: the kind's first).
    func sourceAttribute(_ attribute: Attribute, kind: String, from: String? = nil) -> (name: String, owner: String, attribute: Attribute)? {
        guard let sk = from ?? sourceEntity[kind], let attributes = sourceAttributes[sk] else { return nil }
        if let found = attributes[attribute.name] { return (attribute.name, found.owner, found.attribute) }
        if let old = attribute.renamedFrom, let found = attributes[old], destination.attribute(old, of: kind) == nil {
            return (old, found.owner, found.attribute)
        }
        return nil
    }

    /// The source relationship that `relationship` (visible on destination entity `kind`) continues, if any.
    /// One whose old destination entity does not continue into this version (removed, or renamed without
    /// `renamedFrom`) continues nothing (SPEC §4): its links point at objects that are gone, so it is
    /// inferred as removed (with its links) and added.
    func sourceRelationship(_ relationship: Relationship, kind: String, from: String? = nil) -> (name: String, owner: String, relationship: Relationship)? {
        guard let sk = from ?? sourceEntity[kind], let relationships = sourceRelationships[sk] else { return nil }
        if let found = relationships[relationship.name] {
            return destinationEntity[found.relationship.destination] == nil ? nil : (relationship.name, found.owner, found.relationship)
        }
        if let old = relationship.renamedFrom, let found = relationships[old], destination.relationship(old, of: kind) == nil,
           destinationEntity[found.relationship.destination] != nil {
            return (old, found.owner, found.relationship)
        }
        return nil
    }

    /// Entity → itself and all entities below it (pre-order, children sorted by name), in O(entities).
    static func kinds(of model: Model) -> [String: [String]] {
        var children: [String: [String]] = [:]
        for e in model.entities { if let p = e.parent { children[p, default: []].append(e.name) } }
        var result: [String: [String]] = [:]
        func visit(_ name: String, _ seen: inout Set<String>) -> [String] {
            if let done = result[name] { return done }
            guard seen.insert(name).inserted else { return [] }
            let list = [name] + (children[name] ?? []).sorted().flatMap { visit($0, &seen) }
            result[name] = list
            return list
        }
        for e in model.entities { var seen: Set<String> = []; _ = visit(e.name, &seen) }
        return result
    }

    func sourceKinds(of destinationKinds: [String]) -> [String] { destinationKinds.compactMap { sourceEntity[$0] } }
}

/// Every entity and property name of the versions up to a step's source (for "renamedFrom names nothing").
public struct EarlierNames: Sendable {
    public var entities: Set<String> = []
    public var properties: Set<String> = []
    public init() {}
    public init(_ models: [Model]) { for m in models { add(m) } }
    public mutating func add(_ model: Model) {
        for e in model.entities {
            entities.insert(e.name)
            for a in e.attributes { properties.insert(a.name) }
            for r in e.relationships { properties.insert(r.name) }
        }
    }
}
