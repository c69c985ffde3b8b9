/// Compares two consecutive model versions property by property: the change list of `strata diff`,
/// the refusals of non-inferable changes, and the columns the new layout keeps. Pure.
struct ChangeAnalysis {
    /// A property of the source model, by owning entity and name.
    struct PropertyKey: Hashable {
        var owner: String
        var name: String
        init(_ owner: String, _ name: String) { self.owner = owner; self.name = name }
    }

    private(set) var changes: [MappingChange] = []
    private(set) var refusals: [MappingRefusal] = []
    /// Destination entity → property → column kept from the source layout (for `LayoutBuilder`).
    private(set) var keeping: [String: [String: String]] = [:]

    private let corr: ModelCorrespondence
    private let sourceLayout: StoreLayout
    private var source: Model { corr.source }
    private var destination: Model { corr.destination }

    /// Attributes a mapping file gives a value (`Entity.attribute`): never refused, noted as mapped.
    private let mapped: [String: [String: String]]
    private let mappedEntities: [String: CompiledMapping.Entity]

    init(_ corr: ModelCorrespondence, sourceLayout: StoreLayout, mapping: CompiledMapping? = nil) {
        self.corr = corr
        self.sourceLayout = sourceLayout
        self.mapped = (mapping?.entities ?? [:]).mapValues(\.expressions)
        self.mappedEntities = mapping?.entities ?? [:]
        var matchedSource: Set<PropertyKey> = []   // source properties continued by some destination property
        // Source attributes a mapping expression reads are used, not lost.
        for e in mapping?.entities.values.sorted(by: { $0.name < $1.name }) ?? [] {
            for part in e.sources {
                for input in part.inputs.values.joined() {
                    if let owner = corr.source.attribute(input.attribute, of: part.entity)?.owner { matchedSource.insert(PropertyKey(owner, input.attribute)) }
                }
            }
        }
        analyzeEntities(matched: &matchedSource)
        analyzeRemovals(matched: matchedSource)
    }

    private mutating func refuse(_ entity: String, _ property: String?, _ change: String, hint: String, at location: SourceLocation?) {
        let refusal = MappingRefusal(fromVersion: source.version, toVersion: destination.version, entity: entity,
                                     property: property, change: change, hint: hint, location: location)
        if !refusals.contains(refusal) { refusals.append(refusal) }
    }

    private mutating func note(_ kind: MappingChange.Kind, _ entity: String, _ property: String? = nil, _ detail: String,
                               destructive: Bool = false) {
        changes.append(MappingChange(kind, entity: entity, property: property, detail: detail, isDestructive: destructive))
    }

    private mutating func analyzeEntities(matched matchedSource: inout Set<PropertyKey>) {
        for e in destination.entities {
            guard let se = corr.sourceEntity[e.name], let sourceEntity = source.entity(se) else {
                note(.addEntity, e.name, nil, e.parent.map { "new entity, sub-entity of \($0)" } ?? "new entity")
                for a in e.attributes {
                    // A new parent's attribute that its sub-entities had moves up.
                    if (corr.destinationKinds[e.name] ?? []).contains(where: { corr.sourceAttribute(a, kind: $0) != nil }) {
                        analyzeAttribute(a, of: e, matched: &matchedSource)
                    } else {
                        note(.addAttribute, e.name, a.name, "new \(a.type.rawValue)")
                    }
                }
                for r in e.relationships { analyzeRelationship(r, of: e, matched: &matchedSource) }
                continue
            }
            // A mapping file's entity is listed as mapped (its `mapEntity` line says from where).
            if se != e.name && mappedEntities[e.name] == nil { note(.renameEntity, e.name, nil, "renamed from \(se)") }
            let oldParent = sourceEntity.parent.flatMap { corr.destinationEntity[$0] ?? "\($0) (removed)" }
            if oldParent != e.parent {
                let detail: String
                switch (oldParent, e.parent) {
                case (nil, let p?): detail = corr.sourceEntity[p] == nil ? "gets the new parent \(p)" : "joins the hierarchy of \(p)"
                case (let p?, nil): detail = "leaves the hierarchy of \(p): its objects move to a table of their own"
                default: detail = "parent changes from \(oldParent!) to \(e.parent!)"
                }
                note(.changeParent, e.name, nil, detail)
            }
            if sourceEntity.isAbstract != e.isAbstract {
                note(.changeAbstract, e.name, nil, e.isAbstract ? "becomes abstract (it must have no objects of its own)" : "becomes concrete")
            }
            let oldTable = sourceLayout.storage(of: se)?.table
            let newTable = destination.root(of: e.name).map { $0.table ?? $0.name }
            if e.parent == nil, let oldTable, let newTable, oldTable != newTable, sourceEntity.parent == nil, mappedEntities[e.name] == nil {
                note(.renameTable, e.name, nil, "table \(oldTable) → \(newTable)")
            }
            for a in e.attributes { analyzeAttribute(a, of: e, matched: &matchedSource) }
            for r in e.relationships { analyzeRelationship(r, of: e, matched: &matchedSource) }
            for merged in corr.mergedSources[e.name] ?? [] { analyzeMergedSource(merged, into: e, matched: &matchedSource) }
            analyzeConstraints(e, sourceEntity)
            if e.validation != sourceEntity.validation { note(.changeRules, e.name, nil, "validation predicates change") }
            if e.versionHashModifier != sourceEntity.versionHashModifier {
                note(.changeHashModifier, e.name, nil, "versionHashModifier \(sourceEntity.versionHashModifier ?? "nil") → \(e.versionHashModifier ?? "nil")")
            }
        }
    }

    /// What the destination does not continue.
    private mutating func analyzeRemovals(matched matchedSource: Set<PropertyKey>) {
        for se in source.entities {
            guard let de = corr.destinationEntity[se.name] else {
                note(.removeEntity, se.name, nil, "removed with all its objects", destructive: true)
                continue
            }
            for a in se.attributes where !matchedSource.contains(PropertyKey(se.name, a.name)) {
                // Named by the source entity, whose table holds the values (its destination may be a merge or a renamed entity):
                // the step report counts them there.
                note(.removeAttribute, se.name, a.name, "removed with its values", destructive: true)
            }
            for r in se.relationships where !matchedSource.contains(PropertyKey(se.name, r.name)) {
                // Its links live on when its inverse continues (they are the same links, seen from the other side).
                if let inverse = r.inverse, let other = source.relationship(inverse, of: r.destination),
                   matchedSource.contains(PropertyKey(other.owner, inverse)) {
                    note(.removeRelationship, se.name, r.name, "removed; its links continue through the inverse \(inverse)")
                    continue
                }
                let gone = corr.destinationEntity[r.destination] == nil && destination.relationship(r.name, of: de) != nil
                note(.removeRelationship, se.name, r.name, gone ? "removed with its links: its destination \(r.destination) is removed (the new \(r.name) starts empty)"
                                                           : "removed with its links", destructive: true)
            }
        }
    }

    /// A further source of a merge (SPEC §11.3): what it carries by name, and the type changes it needs a
    /// per-source expression for.
    private mutating func analyzeMergedSource(_ merged: String, into e: Entity, matched: inout Set<PropertyKey>) {
        let part = mappedEntities[e.name]?.part(merged)
        for a in destination.allAttributes(of: e.name).map(\.attribute) {
            guard let m = corr.sourceAttribute(a, kind: e.name, from: merged) else { continue }
            matched.insert(PropertyKey(m.owner, m.name))
            if part?.attributes[a.name] == nil, !m.attribute.type.widens(to: a.type) {
                refuse(e.name, a.name, "type changes from \(m.attribute.type.rawValue) to \(a.type.rawValue) (from \(merged))",
                       hint: "give \(merged) its own expression: attributes: { \(a.name): { \(merged): \"\(a.type.rawValue)(\(m.name))\" } }",
                       at: a.location)
            }
        }
        for r in destination.allRelationships(of: e.name).map(\.relationship) {
            if let m = corr.sourceRelationship(r, kind: e.name, from: merged) { matched.insert(PropertyKey(m.owner, m.name)) }
        }
    }

    // MARK: attributes

    private mutating func noteNewAttribute(_ a: Attribute, of entity: String, matched: inout Set<PropertyKey>) {
        var detail = "new \(a.type.rawValue)"
        if let d = a.defaultValue { detail += ", existing objects get the default \(d)" }
        else if !a.isOptional { detail += ", non-optional without default: only if \(entity) has no objects" }
        note(.addAttribute, entity, a.name, detail)
    }

    private mutating func analyzeAttribute(_ a: Attribute, of e: Entity, matched: inout Set<PropertyKey>) {
        // Match through every kind that stores it: the entity itself first, then its sub-entities (a move up).
        if let expression = mapped[e.name]?[a.name] {
            note(.mapAttribute, e.name, a.name, "mapped: \(expression)")
            for k in corr.destinationKinds[e.name] ?? [] {
                guard let m = corr.sourceAttribute(a, kind: k) else { continue }
                matched.insert(PropertyKey(m.owner, m.name))
                // The expression gives `e`'s own objects their value; a sub-entity's objects need their own
                // (its entity mapping), else a type change inference cannot make is refused for them.
                if k != e.name, mapped[k]?[a.name] == nil, !m.attribute.type.widens(to: a.type) {
                    refuse(k, a.name, "type changes from \(m.attribute.type.rawValue) to \(a.type.rawValue) (inherited from \(e.name), whose mapping covers its own objects only)",
                           hint: "map it for \(k) too: `\(k): { attributes: { \(a.name): \"…\" } }`", at: a.location)
                }
            }
            // In a merge, a source without its own expression carries the attribute by name.
            if mappedEntities[e.name]?.sources[0].attributes[a.name] != nil { return }
        }
        let kinds = (corr.destinationKinds[e.name] ?? [])
        var found: [(kind: String, name: String, owner: String, attribute: Attribute)] = []
        for k in kinds { if let m = corr.sourceAttribute(a, kind: k) { found.append((k, m.name, m.owner, m.attribute)) } }
        for m in found { matched.insert(PropertyKey(m.owner, m.name)) }
        guard let first = found.first else { noteNewAttribute(a, of: e.name, matched: &matched); return }

        let mappedOwners = found.map { corr.sourceEntity[$0.kind] == $0.owner ? $0.kind : corr.destinationEntity[$0.owner] ?? $0.owner }
        if mappedOwners.contains(where: { $0 != e.name }) {
            let owners = Set(mappedOwners)
            let from = owners.sorted().joined(separator: ", ")
            let up = owners.allSatisfy { destination.isKind($0, of: e.name) }
            note(.moveAttribute, e.name, a.name, up ? "moved up from \(from)" : "moved down from \(from)")
        }
        if first.name != a.name { note(.renameAttribute, e.name, a.name, "renamed from \(first.name)") }
        if first.attribute.column != a.column { note(.changeColumn, e.name, a.name, "declared column \(first.attribute.column ?? "(default)") → \(a.column ?? "(default)")") }
        for m in found where m.attribute.type != a.type {
            if m.attribute.type.widens(to: a.type) {
                note(.widenType, e.name, a.name, "\(m.attribute.type.rawValue) → \(a.type.rawValue)")
            } else {
                let fill = ExpressionTyping.casts[a.type.rawValue] != nil
                    ? "fill it in a hook (propertiesToUpdate: { NEW: { expression: \"\(a.type.rawValue)(\(a.name))\" } })" : "fill it in a hook"
                refuse(e.name, a.name, "type changes from \(m.attribute.type.rawValue) to \(a.type.rawValue)",
                       hint: "only widening is inferred (int16 → int32 → int64, float → double, integer → double); add a new \(a.type.rawValue) attribute, \(fill), and remove \(a.name) in a later version",
                       at: a.location)
            }
        }
        if found.contains(where: { $0.attribute.isOptional }) && !a.isOptional {
            note(.makeMandatory, e.name, a.name, a.defaultValue.map { "becomes non-optional: NULLs get the default \($0)" }
                 ?? "becomes non-optional without default: only if no object has nil")
        } else if found.contains(where: { !$0.attribute.isOptional }) && a.isOptional {
            note(.makeOptional, e.name, a.name, "becomes optional")
        }
        if first.attribute.defaultValue != a.defaultValue {
            note(.changeDefault, e.name, a.name, "default \(first.attribute.defaultValue?.description ?? "none") → \(a.defaultValue?.description ?? "none")")
        }
        let old = first.attribute
        if old.minValue != a.minValue || old.maxValue != a.maxValue || old.minLength != a.minLength
            || old.maxLength != a.maxLength || old.pattern != a.pattern {
            note(.changeRules, e.name, a.name, "validation rules change")
        }
        if old.versionHashModifier != a.versionHashModifier {
            note(.changeHashModifier, e.name, a.name, "versionHashModifier \(old.versionHashModifier ?? "nil") → \(a.versionHashModifier ?? "nil")")
        }
        if old.isIndexed != a.isIndexed { note(a.isIndexed ? .addIndex : .removeIndex, e.name, a.name, a.isIndexed ? "indexed" : "no longer indexed") }
        // The column is kept unless the property is renamed or its declared column changes.
        if first.name == a.name, old.column == a.column,
           let column = sourceLayout.storage(of: corr.sourceEntity[first.kind]!)?.attributeColumns[first.name] {
            keeping[e.name, default: [:]][a.name] = column
        }
    }

    // MARK: relationships

    private mutating func analyzeRelationship(_ r: Relationship, of e: Entity, matched: inout Set<PropertyKey>) {
        let kinds = (corr.destinationKinds[e.name] ?? [])
        var found: [(kind: String, name: String, owner: String, relationship: Relationship)] = []
        for k in kinds { if let m = corr.sourceRelationship(r, kind: k) { found.append((k, m.name, m.owner, m.relationship)) } }
        for m in found { matched.insert(PropertyKey(m.owner, m.name)) }
        if mappedEntities[e.name]?.companions.contains(r.name) == true
            || r.inverse.map({ mappedEntities[r.destination]?.companions.contains($0) == true }) == true {
            note(.addRelationship, e.name, r.name, "new to-one to \(r.destination), linked to the object carried from the same source row ($source)")
            return
        }
        guard let first = found.first else {
            var detail = "new \(r.isToMany ? "to-many" : "to-one") to \(r.destination)"
            if !r.isToMany && !r.isOptional { detail += ", non-optional: only if \(e.name) has no objects" }
            note(.addRelationship, e.name, r.name, detail)
            return
        }
        let owners = Set(found.map { corr.sourceEntity[$0.kind] == $0.owner ? $0.kind : corr.destinationEntity[$0.owner] ?? $0.owner })
        if owners != [e.name] { note(.moveRelationship, e.name, r.name, "moved from \(owners.sorted().joined(separator: ", "))") }
        let old = first.relationship
        if first.name != r.name { note(.renameRelationship, e.name, r.name, "renamed from \(first.name)") }
        // A destination that carries the old destination's rows (a rename, or a mapping file's split) is the same.
        let oldDestination = corr.sourceEntity[r.destination] == old.destination ? r.destination : corr.destinationEntity[old.destination]
        if oldDestination != r.destination {
            if let oldDestination, destination.isKind(oldDestination, of: r.destination) {
                note(.widenDestination, e.name, r.name, "destination widens from \(oldDestination) to its ancestor \(r.destination)")
            } else {
                refuse(e.name, r.name, "destination changes from \(oldDestination ?? old.destination) to \(r.destination)",
                       hint: "only widening to an ancestor is inferred; add a new relationship, link it in a hook, and remove \(r.name) in a later version",
                       at: r.location)
            }
        }
        if old.isToMany && !r.isToMany {
            refuse(e.name, r.name, "becomes to-one (it was to-many)",
                   hint: "narrowing loses links; add a new to-one relationship, fill it in a hook, then remove \(r.name) in a later version",
                   at: r.location)
        } else if !old.isToMany && r.isToMany {
            note(.toOneToToMany, e.name, r.name, "to-one → to-many, existing links kept")
        }
        if old.isOrdered != r.isOrdered { note(.changeOrdering, e.name, r.name, r.isOrdered ? "becomes ordered" : "becomes unordered") }
        if old.deleteRule != r.deleteRule { note(.changeDeleteRule, e.name, r.name, "delete rule \(old.deleteRule.rawValue) → \(r.deleteRule.rawValue)") }
        if old.inverse != r.inverse || old.isOptional != r.isOptional || old.minCount != r.minCount || old.maxCount != r.maxCount {
            var parts: [String] = []
            if old.inverse != r.inverse { parts.append("inverse \(old.inverse ?? "none") → \(r.inverse ?? "none")") }
            if old.isOptional != r.isOptional { parts.append(r.isOptional ? "becomes optional" : "becomes non-optional") }
            if old.minCount != r.minCount || old.maxCount != r.maxCount { parts.append("counts change") }
            note(.changeRelationship, e.name, r.name, parts.joined(separator: ", "))
        }
        if old.versionHashModifier != r.versionHashModifier {
            note(.changeHashModifier, e.name, r.name, "versionHashModifier \(old.versionHashModifier ?? "nil") → \(r.versionHashModifier ?? "nil")")
        }
        if first.name == r.name, old.column == r.column,
           let storage = sourceLayout.storage(of: corr.sourceEntity[first.kind]!)?.relationships[first.name],
           storage.kind == .foreignKey {
            keeping[e.name, default: [:]][r.name] = storage.column
        }
    }

    // MARK: uniqueness and indexes

    private mutating func analyzeConstraints(_ e: Entity, _ old: Entity) {
        // Express the source lists in destination property names.
        var rename: [String: String] = [:]
        for a in destination.allAttributes(of: e.name).map(\.attribute) {
            if let m = corr.sourceAttribute(a, kind: e.name) { rename[m.name] = a.name }
        }
        for r in destination.allRelationships(of: e.name).map(\.relationship) {
            if let m = corr.sourceRelationship(r, kind: e.name) { rename[m.name] = r.name }
        }
        func mapped(_ lists: [[String]]) -> Set<[String]> { Set(lists.map { $0.map { rename[$0] ?? "\($0) (removed)" } }) }
        let oldUnique = mapped(old.uniqueness), newUnique = Set(e.uniqueness)
        for list in e.uniqueness where !oldUnique.contains(list) {
            note(.addUniqueness, e.name, nil, "unique (\(list.joined(separator: ", "))): fails if objects share these values")
        }
        for list in old.uniqueness.map({ $0.map { rename[$0] ?? $0 } }) where !newUnique.contains(list) {
            note(.removeUniqueness, e.name, nil, "unique (\(list.joined(separator: ", "))) removed")
        }
        let oldIndexes = mapped(old.indexes), newIndexes = Set(e.indexes)
        for list in e.indexes where !oldIndexes.contains(list) { note(.addIndex, e.name, nil, "index (\(list.joined(separator: ", ")))") }
        for list in old.indexes.map({ $0.map { rename[$0] ?? $0 } }) where !newIndexes.contains(list) {
            note(.removeIndex, e.name, nil, "index (\(list.joined(separator: ", "))) removed")
        }
    }
}
