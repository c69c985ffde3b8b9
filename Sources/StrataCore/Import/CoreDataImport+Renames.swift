/// Renaming identifiers → `renamedFrom` (SPEC §12), and the matches `renamedFrom` cannot say.
extension CoreDataImport {
    /// Renaming identifiers → `renamedFrom`, as Core Data matches them: an entity (property) of `model` comes from the
    /// entity (property) of `previous` with the same identifier (its renaming identifier, else its name). Written only
    /// where that name differs and `previous` has nothing under the current name. Where it has (two names swapped, a
    /// cycle, a name taken over), `renamedFrom` cannot say it (SPEC §4 matches a name to itself first, and the model
    /// check refuses such a `renamedFrom`): the match is returned as a note saying how to carry it.
    /// - Parameters:
    ///   - from: the version number of `previous`.
    ///   - to: the version number of `model`.
    static func resolveRenames(_ model: inout ImportedModel, previous: ImportedModel, from: Int, to: Int) -> [CoreDataModelReader.Note] {
        var previousByIdentifier: [String: ImportedEntity] = [:]
        var previousByName: [String: ImportedEntity] = [:]
        for e in previous.entities {
            if previousByIdentifier[e.identifier] == nil { previousByIdentifier[e.identifier] = e }
            previousByName[e.name] = e
        }
        let step = Step(from: from, to: to)
        var notes: [CoreDataModelReader.Note] = []
        for i in model.entities.indices {
            let e = model.entities[i]
            let source: ImportedEntity?
            if let match = previousByIdentifier[e.identifier], match.name != e.name, previousByName[e.name] == nil {
                model.entities[i].renamedFrom = match.name
                source = match
            } else {
                if let match = previousByIdentifier[e.identifier], match.name != e.name {
                    notes.append(CoreDataModelReader.Note(entity: e.name, property: nil, reason: step.uncarried(
                        e.identifier, old: match.name, name: e.name, kind: "entity", what: "objects",
                        carry: "give \(e.name) `source: \(match.name)` in \(step.mappingFile)")))
                }
                source = previousByName[e.name]
            }
            guard let source else { continue }
            let taken = Set(source.propertyNames())
            notes += renameProperties(&model.entities[i].attributes, from: source.attributes, taken: taken) { name, old, identifier in
                step.uncarried(identifier, old: old, name: name, kind: "attribute", what: "values",
                               carry: "set `\(name): \"\(old)\"` under \(e.name)'s attributes in \(step.mappingFile)")
            }.map { CoreDataModelReader.Note(entity: e.name, property: $0.property, reason: $0.reason) }
            notes += renameProperties(&model.entities[i].relationships, from: source.relationships, taken: taken) { name, old, identifier in
                step.uncarried(identifier, old: old, name: name, kind: "relationship", what: "links", carry: nil)
            }.map { CoreDataModelReader.Note(entity: e.name, property: $0.property, reason: $0.reason) }
        }
        return notes
    }

    /// Sets `renamedFrom` on each property whose identifier names a differently named property of `previous`, when
    /// `taken` (the previous entity's property names) has nothing under its current name; when it has, returns the
    /// property with `reason(name, previous name, identifier)`.
    private static func renameProperties<P: ImportedElement>(
        _ properties: inout [P], from previous: [P], taken: Set<String>, reason: (String, String, String) -> String
    ) -> [(property: String, reason: String)] {
        var byIdentifier: [String: String] = [:]
        for p in previous where byIdentifier[p.identifier] == nil { byIdentifier[p.identifier] = p.name }
        var uncarried: [(property: String, reason: String)] = []
        for j in properties.indices {
            let p = properties[j]
            guard let match = byIdentifier[p.identifier], match != p.name else { continue }
            if taken.contains(p.name) {
                uncarried.append((p.name, reason(p.name, match, p.identifier)))
            } else {
                properties[j].renamedFrom = match
            }
        }
        return uncarried
    }

    /// The step a rename note is about, and its words.
    private struct Step {
        var from: Int
        var to: Int

        var mappingFile: String {
            "the mapping file of v\(from) → v\(to) (`strata mapping \(from) \(to) > migrations/v\(to)-mapping.yaml` prints a skeleton)"
        }

        /// `renaming ID 'first' matches v1's attribute 'first', but v1 has a 'last' too: …`
        func uncarried(_ identifier: String, old: String, name: String, kind: String, what: String, carry: String?) -> String {
            "renaming ID '\(identifier)' matches v\(from)'s \(kind) '\(old)', but v\(from) has a '\(name)' too: not carried "
                + "(renamedFrom cannot swap names or take over one the previous version has; Strata keeps the \(what) under their names)"
                + (carry.map { "; to move them as Core Data does, \($0)" } ?? "; a mapping file cannot move links between relationships")
        }
    }
}
