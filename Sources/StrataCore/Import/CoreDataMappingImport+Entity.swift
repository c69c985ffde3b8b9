/// One destination entity of a mapping model: its source entities (several: a merge), filter, custom
/// policies, and the property mappings that say more than inference.
extension CoreDataMappingImport {
    typealias EntityMapping = CoreDataMappingModel.EntityMapping
    typealias PropertyMapping = CoreDataMappingModel.PropertyMapping
    typealias Item = ImportMappingDraft.Item

    /// nil when the mappings into `d` are exactly what inference does (nothing to write).
    static func translate(_ mappings: [EntityMapping], into d: String, source: Model, destination: Model,
                          split: Set<String>) -> ImportMappingDraft.Entity? {
        let target = destination.entity(d)
        let inferred = source.entity(d) != nil ? d : target?.renamedFrom.flatMap { source.entity($0) != nil ? $0 : nil }
        var sources: [String] = []
        var filters: [(source: String, item: Item)] = []
        for m in mappings {
            guard var s = m.source else { continue }
            var filter = m.filter.flatMap(CoreDataExpression.predicate).map { Item.expression($0) }
            if let x = m.sourceExpression {
                if let fetch = CoreDataExpression.sourceFetch(x) {
                    if source.entity(fetch.entity) != nil { s = fetch.entity }
                    if let p = fetch.predicate { filter = .expression(p) }
                } else {
                    filter = .todo("a custom source fetch, not translated: \(x)")
                }
            }
            sources.append(s)
            if let filter { filters.append((s, filter)) }
        }
        guard !sources.isEmpty else { return nil }
        var entity = ImportMappingDraft.Entity(name: d, sources: sources)
        entity.comments = ["Core Data: " + mappings.map { "\($0.displayName) (\($0.type ?? "Undefined"))" }.joined(separator: ", ")]
        if sources.count == 1 {
            entity.filter = filters.first?.item
        } else if !filters.isEmpty {
            entity.filter = .todo("a merge filters some of its sources (" + filters.map { "\($0.source): \(text($0.item))" }.joined(separator: "; ")
                                  + "): a mapping file has one filter per entity")
        }
        let policies = mappings.compactMap { m -> String? in
            if let p = m.policy { return "\(m.displayName) ran the custom migration policy \(p)" }
            return m.type?.lowercased() == "custom" ? "\(m.displayName) is a custom entity mapping" : nil
        }
        if !policies.isEmpty {
            entity.filter = .todo(policies.joined(separator: "; ") + ": port what its code does to expressions here or to a hook, then remove this TODO"
                                  + (entity.filter.map { "; the mapping's filter: \(text($0))" } ?? ""))
        }
        attributes(mappings, into: &entity, source: source, destination: destination)
        relationships(mappings, into: &entity, source: source, destination: destination)
        let needed = sources != [inferred].compactMap { $0 } || entity.filter != nil || !entity.attributes.isEmpty
            || !entity.relationships.isEmpty || sources.contains(where: split.contains)
        return needed ? entity : nil
    }

    /// The property names the mappings fill, in their order, each once.
    static func names(_ mappings: [EntityMapping], _ properties: Swift.KeyPath<EntityMapping, [PropertyMapping]>) -> [String] {
        var names: [String] = []
        for m in mappings { for p in m[keyPath: properties] where !names.contains(p.name) { names.append(p.name) } }
        return names
    }

    static func text(_ item: Item) -> String {
        switch item {
        case .expression(let x), .todo(let x): return x
        }
    }

    static func attributes(_ mappings: [EntityMapping], into entity: inout ImportMappingDraft.Entity, source: Model, destination: Model) {
        for name in names(mappings, \EntityMapping.attributes) {
            let a = destination.attribute(name, of: entity.name)?.attribute
            let same = Set([name, a?.renamedFrom].compactMap { $0 })
            let items: [(String, Item?)] = zip(mappings, entity.sources).compactMap { m, s in
                guard let p = m.attributes.first(where: { $0.name == name }) else { return nil }
                // Inference carries a same-named (or renamedFrom) value only where the type stays.
                let carried = same.filter { source.attribute($0, of: s).map { $0.attribute.type == a?.type } ?? false }
                return (s, attributeItem(p, same: carried, sourceHas: same.contains { source.attribute($0, of: s) != nil }))
            }
            guard items.contains(where: { $0.1 != nil }) else { continue }
            let values = items.map { $0.1 ?? .expression(name) }
            if entity.sources.count == 1 || values.allSatisfy({ $0 == values[0] }) && items.count == entity.sources.count {
                entity.attributes.append(.init(name: name, value: values[0]))
            } else {
                entity.attributes.append(.init(name: name, value: nil, perSource: zip(items.map(\.0), values).map { ($0, $1) }))
            }
        }
    }

    /// nil: what inference does (the same-named source value).
    static func attributeItem(_ p: PropertyMapping, same: Set<String>, sourceHas: Bool) -> Item? {
        guard let x = p.expression else {
            if p.unreadable { return .todo("its value expression is archived in a form this import does not read") }
            if p.autogenerated || !sourceHas { return nil }
            return .todo("Core Data's mapping gives it no value expression, so objects get the default: write the value, or remove this line to carry the source value")
        }
        switch CoreDataExpression.translate(x) {
        case .keyPath(let k): return same.contains(k) ? nil : .expression(k)
        case .expression(let e): return .expression(e)
        case .relink, .sameSource: return .todo("a relationship's value on an attribute, not translated: \(x)")
        case .untranslatable(let why): return .todo("\(why), not translated: \(x)")
        }
    }

    static func relationships(_ mappings: [EntityMapping], into entity: inout ImportMappingDraft.Entity, source: Model, destination: Model) {
        for name in names(mappings, \EntityMapping.relationships) {
            let r = destination.relationship(name, of: entity.name)?.relationship
            let same = Set([name, r?.renamedFrom].compactMap { $0 })
            let items: [Item] = zip(mappings, entity.sources).compactMap { m, s in
                guard let p = m.relationships.first(where: { $0.name == name }) else { return nil }
                return relationshipItem(p, source: s, same: same, sourceHas: same.contains { source.relationship($0, of: s) != nil })
            }
            guard let first = items.first else { continue }
            if entity.sources.count > 1, items.count != entity.sources.count || !items.allSatisfy({ $0 == first }) {
                entity.relationships.append((name, .todo("the sources of the merge fill it differently: " + items.map(text).joined(separator: "; "))))
            } else {
                entity.relationships.append((name, first))
            }
        }
    }

    static func relationshipItem(_ p: PropertyMapping, source s: String, same: Set<String>, sourceHas: Bool) -> Item? {
        let expression = p.expression ?? p.keyPath.map { "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"\(p.mappingName ?? "")\", $source.\($0))" }
        guard let x = expression else {
            if p.unreadable { return .todo("its value expression is archived in a form this import does not read") }
            if p.autogenerated || !sourceHas { return nil }
            return .todo("Core Data's mapping leaves it empty (no value expression) where inference would keep the links of \(s).\(p.name)")
        }
        switch CoreDataExpression.translate(x) {
        case .relink(let r):
            return same.contains(r) ? nil
                : .todo("re-links the objects of \(s).\(r): a mapping file re-links a relationship from the source relationship of its own name or renamedFrom: \(x)")
        case .sameSource: return .expression("$source")
        case .untranslatable(let why): return .todo("\(why), not translated: \(x)")
        case .keyPath, .expression: return .todo("not a re-link of a relationship, not translated: \(x)")
        }
    }
}
