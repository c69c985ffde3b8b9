/// Compiles the validation rules of a model into set-based SQL over a store layout (SPEC §7). Pure.
///
/// ```swift
/// let rules = try AuditPlanner(model: model, layout: layout, now: now).rules(for: .full)
/// ```
public struct AuditPlanner: Sendable {
    public var model: Model
    public var layout: StoreLayout
    /// `$NOW` for validation predicates (seconds since 1970).
    public var now: Double
    /// `$VARIABLES` for validation predicates.
    public var variables: [String: String]

    public init(model: Model, layout: StoreLayout, now: Double, variables: [String: String] = [:]) {
        self.model = model
        self.layout = layout
        self.now = now
        self.variables = variables
    }

    /// The rules an audit of `scope` checks, ordered by entity name then declaration order.
    /// `.touched` compiles every rule (which ones run is decided from the touched tables).
    ///
    /// - Throws: `AuditError.unknownEntity` for an `.entities` scope naming no entity of the model,
    ///   `.missingStorage` when the layout does not store an entity, `.predicate` for a predicate that does not compile.
    public func rules(for scope: AuditScope) throws(AuditError) -> [AuditRule] {
        switch scope {
        case .full, .touched:
            var rules: [AuditRule] = []
            for entity in model.entities { rules += try declaredRules(of: entity, reportedAs: nil) }
            return rules
        case .entities(let names):
            for name in names where model.entity(name) == nil {
                throw .unknownEntity(name, hint: NameSuggestion.hint(for: name, in: model.entityNames))
            }
            // An entity whose ancestor is also selected is covered by that ancestor.
            let selected = Set(names)
            let roots = model.entityNames.filter { name in
                selected.contains(name) && !model.lineage(of: name).dropFirst().contains { selected.contains($0.name) }
            }
            var rules: [AuditRule] = []
            for name in roots {
                // Rules of the entity and of its ancestors, narrowed to this entity's objects.
                for ancestor in model.lineage(of: name).reversed() {
                    rules += try declaredRules(of: ancestor, reportedAs: name)
                }
                // Rules of its sub-entities, as declared.
                for sub in model.hierarchy(of: name).dropFirst() {
                    rules += try declaredRules(of: sub, reportedAs: nil)
                }
            }
            return rules
        }
    }

    /// The rules declared on `entity`, applied to its objects and its sub-entities' objects
    /// (or, with `reportedAs`, to the objects of that descendant entity, reported under its name).
    func declaredRules(of entity: Entity, reportedAs target: String?) throws(AuditError) -> [AuditRule] {
        let subject = target ?? entity.name
        guard let storage = layout.storage(of: subject) else { throw .missingStorage(entity: subject) }
        let context = RuleContext(entity: subject, storage: storage,
                                  kinds: subject == storage.root ? [] : storage.kinds)
        var rules: [AuditRule] = []
        for attribute in entity.attributes {
            guard let column = storage.attributeColumns[attribute.name] else { throw .missingStorage(entity: subject) }
            rules += attributeRules(attribute, column: column, context)
        }
        for relationship in entity.relationships {
            guard let relStorage = storage.relationships[relationship.name] else { throw .missingStorage(entity: subject) }
            rules += relationshipRules(relationship, storage: relStorage, context)
        }
        for list in entity.uniqueness {
            rules.append(uniquenessRule(list, context))
        }
        rules += try predicateRules(of: entity, context)
        return rules
    }

    /// The entity a rule reports on and the rows it applies to.
    struct RuleContext {
        var entity: String
        var storage: EntityStorage
        var kinds: [String]

        func rule(_ property: String?, _ kind: AuditRule.Kind, _ code: AuditCode, _ constraint: String,
                  _ check: AuditRule.Check, valueType: AttributeType? = nil, triggers: Set<String> = []) -> AuditRule {
            AuditRule(entity: entity, property: property, kind: kind, code: code, constraint: constraint,
                      storage: storage, kinds: kinds, check: check, valueType: valueType, entityWideTriggers: triggers)
        }
    }
}
