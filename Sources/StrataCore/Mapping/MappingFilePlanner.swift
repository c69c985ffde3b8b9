/// A mapping file compiled against the two models of its step: each named destination entity with its
/// source entities (several for a merge), per source its `filter:` and attribute values as SQL over the
/// source row (alias `ColumnSource.oldAlias`), and its `$source` relationships. Pure.
struct CompiledMapping: Sendable, Hashable {
    struct Entity: Sendable, Hashable {
        var name: String
        /// One per source entity, in the file's order (a merge has several).
        var sources: [Source]
        var filterText: String?
        /// Attribute → its expression as written (per source in a merge: `Photo: 0; Video: seconds`).
        var expressions: [String: String] = [:]
        /// Relationships linked to the object carried from the same source row.
        var companions: Set<String> = []

        /// The first (for a merge) or only source entity.
        var source: String { sources[0].entity }
        var filter: SQLText? { sources[0].filter }
        var isMerge: Bool { sources.count > 1 }
        func part(_ source: String) -> Source? { sources.first { $0.entity == source } }
    }
    /// What one source entity gives a destination entity.
    struct Source: Sendable, Hashable {
        var entity: String
        var filter: SQLText?
        /// Destination attribute → its value over this source's row.
        var attributes: [String: SQLText] = [:]
        var expressions: [String: String] = [:]
        /// Per mapped attribute: the source attributes its expression reads, with their columns (for
        /// counting failed casts: a nil value from inputs that were not nil).
        var inputs: [String: [Input]] = [:]
    }
    struct Input: Sendable, Hashable {
        var attribute: String
        var column: String
    }
    var file: MappingFile
    var entities: [String: Entity] = [:]

    /// The compiled value of `attribute` for rows of destination kind `kind` carried from `source` (default:
    /// its first source), when the file names it.
    func value(_ attribute: String, kind: String, source: String? = nil) -> SQLText? {
        guard let e = entities[kind] else { return nil }
        return (source.flatMap(e.part) ?? e.sources[0]).attributes[attribute]
    }
}

enum MappingFilePlanner {
    /// The source entity of a named destination entity: `source:`, else the same name, else `renamedFrom`.
    static func sources(of e: EntityMapping, source: Model, destination: Model) -> [String] {
        if !e.sources.isEmpty { return e.sources }
        if source.entity(e.name) != nil { return [e.name] }
        if let old = destination.entity(e.name)?.renamedFrom, source.entity(old) != nil { return [old] }
        return []
    }

    /// The source attributes an expression names (outside string literals), with their columns.
    static func inputs(of expression: String, entity: String, model: Model, layout: StoreLayout) -> [CompiledMapping.Input] {
        guard let storage = layout.storage(of: entity) else { return [] }
        var names: [String] = []
        var current = ""
        var quote: Character?
        for c in expression + " " {
            if let q = quote { if c == q { quote = nil }; continue }
            if c == "'" || c == "\"" { quote = c; current = ""; continue }
            if c.isLetter || c == "_" || (c.isNumber && !current.isEmpty) { current.append(c); continue }
            if !current.isEmpty, c != "(", !names.contains(current) { names.append(current) }
            current = ""
        }
        return names.compactMap { name in storage.attributeColumns[name].map { CompiledMapping.Input(attribute: name, column: $0) } }
    }

    /// Compiles `file` for the step `source` → `destination`.
    /// - Returns: the compiled mapping (nil when there are errors), invalid input (exit 2, located in the
    ///   file) and what is not inferable (exit 4: TODOs).
    /// - Parameter context: `$NOW` (the run's, `--now`, or any time when only validity matters) and the `--var` values,
    ///   which take precedence over the file's `variables:`.
    static func compile(_ file: MappingFile, source: Model, sourceLayout: StoreLayout,
                        destination: Model, context: PredicateContext) -> (CompiledMapping?, errors: [Diagnostic], refusals: [MappingRefusal]) {
        var context = context
        context.variables = file.variables.merging(context.variables) { _, given in given }
        var errors: [Diagnostic] = []
        let refusals: [MappingRefusal] = file.todos.map {
            MappingRefusal(fromVersion: file.from, toVersion: file.to, entity: $0.entity, property: $0.property,
                           change: "a TODO is left in the mapping file", hint: "replace the TODO with what the step should do (SPEC §11.3)",
                           location: $0.location)
        }
        let compiler = PredicateCompiler(model: source, layout: sourceLayout)
        var compiled = CompiledMapping(file: file)
        func error(_ message: String, at location: SourceLocation?, hint: String? = nil) {
            errors.append(Diagnostic(.error, message, at: location, hint: hint))
        }
        var seen: Set<String> = []
        for e in file.entities {
            guard seen.insert(e.name).inserted else { error("\(e.name) is mapped twice", at: e.location); continue }
            guard let target = destination.entity(e.name) else {
                error("v\(file.to) has no entity '\(e.name)'", at: e.location,
                      hint: NameSuggestion.hint(for: e.name, in: destination.entityNames) ?? "name a destination entity of v\(file.to)")
                continue
            }
            for s in e.sources where source.entity(s) == nil {
                error("v\(file.from) has no entity '\(s)'", at: e.sourceLocation,
                      hint: NameSuggestion.hint(for: s, in: source.entityNames) ?? "source names an entity of v\(file.from)")
            }
            let names = sources(of: e, source: source, destination: destination)
            if names.isEmpty {
                if !file.todos.contains(where: { $0.entity == e.name && $0.property == nil }) {
                    error("\(e.name) has no source entity in v\(file.from)", at: e.location,
                          hint: "add `source: ENTITY` naming the v\(file.from) entity its objects come from")
                }
                continue
            }
            guard names.allSatisfy({ source.entity($0) != nil }) else { continue }
            var entity = CompiledMapping.Entity(name: e.name, sources: names.map { CompiledMapping.Source(entity: $0) })
            entity.filterText = e.filter?.text
            for i in entity.sources.indices {
                let from = entity.sources[i].entity
                if let filter = e.filter {
                    do {
                        entity.sources[i].filter = try compiler.mappingFilter(filter.text, over: from, alias: ColumnSource.oldAlias,
                                                                                  context: context, origin: filter.origin)
                    } catch { errors.append(error.diagnostic) }
                }
            }
            for a in e.attributes {
                guard let attribute = destination.attribute(a.name, of: e.name)?.attribute else {
                    let all = destination.allAttributes(of: e.name).map(\.attribute.name)
                    error("\(e.name) has no attribute '\(a.name)' in v\(file.to)", at: a.location,
                          hint: NameSuggestion.hint(for: a.name, in: all) ?? "\(e.name)'s attributes: \(all.joined(separator: ", "))")
                    continue
                }
                for key in a.perSource.keys.sorted() where !names.contains(key) {
                    error("'\(key)' is not a source of \(e.name) (its source\(names.count > 1 ? "s are" : " is") \(names.joined(separator: ", ")))",
                          at: a.perSource[key]!.origin)
                }
                for i in entity.sources.indices {
                    let from = entity.sources[i].entity
                    guard let text = a.expression ?? a.perSource[from] else { continue }
                    // An explicit nil (YAML null, `nil`) into a non-optional attribute is a mistake in the file,
                    // found here as in hooks, not by the step's audit.
                    if !attribute.isOptional, ["nil", "null"].contains(text.text.lowercased()) {
                        error("\(e.name).\(a.name) is not optional: it cannot be set to nil", at: text.origin,
                              hint: "give an expression of type \(attribute.type.rawValue), or make the attribute optional in the model")
                        continue
                    }
                    do {
                        entity.sources[i].attributes[a.name] = try compiler.mappingValue(text.text, over: from, assignTo: attribute,
                                                                                         label: "\(e.name).\(a.name)", alias: ColumnSource.oldAlias,
                                                                                         context: context, origin: text.origin)
                        entity.sources[i].expressions[a.name] = text.text
                        entity.sources[i].inputs[a.name] = inputs(of: text.text, entity: from, model: source, layout: sourceLayout)
                    } catch { errors.append(error.diagnostic) }
                }
                entity.expressions[a.name] = a.expression?.text
                    ?? names.compactMap { n in a.perSource[n].map { "\(n): \($0.text)" } }.joined(separator: "; ")
            }
            for r in e.relationships {
                guard destination.relationship(r.name, of: e.name) != nil else {
                    let all = destination.allRelationships(of: e.name).map(\.relationship.name)
                    error("\(e.name) has no relationship '\(r.name)' in v\(file.to)", at: r.location,
                          hint: NameSuggestion.hint(for: r.name, in: all) ?? "\(e.name)'s relationships: \(all.joined(separator: ", "))")
                    continue
                }
                guard r.value.text == "$source" else {
                    error("a relationship is mapped with \"$source\" only", at: r.value.origin,
                          hint: "`\(r.name): \"$source\"` links each object to the one carried from the same source row")
                    continue
                }
                entity.companions.insert(r.name)
            }
            _ = target
            compiled.entities[e.name] = entity
        }
        // `$source` needs the relationship's destination to carry the same source entity.
        for e in file.entities {
            guard let entity = compiled.entities[e.name] else { continue }
            for r in e.relationships where entity.companions.contains(r.name) {
                guard let rel = destination.relationship(r.name, of: e.name)?.relationship else { continue }
                let other = compiled.entities[rel.destination]?.source
                    ?? (source.entity(rel.destination) != nil ? rel.destination : destination.entity(rel.destination)?.renamedFrom)
                if rel.isToMany {
                    error("\(e.name).\(r.name) is to-many; \"$source\" links to-one relationships", at: r.location)
                } else if entity.isMerge || other != entity.source {
                    error("\(e.name).\(r.name) points at \(rel.destination), which does not carry \(entity.source)", at: r.location,
                          hint: "\"$source\" links objects made from the same source row: map \(rel.destination) from \(entity.source)")
                }
            }
        }
        return (errors.isEmpty ? compiled : nil, errors, refusals)
    }
}
