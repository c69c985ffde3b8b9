import Foundation

/// A Core Data mapping model → the mapping file of one step (SPEC §11.3, §12). It names only what inference
/// would not do by itself: identity property mappings (`$source.<same name>`) and the default re-links of
/// relationships are left out; custom migration policies and expressions that do not translate are TODOs
/// carrying the original. The file is checked against the imported models, and an item the checker refuses
/// becomes a TODO giving the checker's message.
enum CoreDataMappingImport {
    struct Note: Error, Sendable {
        var entity: String?
        var property: String?
        var reason: String
    }

    /// A model path Xcode recorded (`App/Model.xcdatamodeld/Model 2.xcdatamodel`): the bundle it names (`Model`),
    /// when it names one, and the version (`Model 2`).
    static func recorded(_ path: String) -> (bundle: String?, version: String?) {
        let parts = PathText.components(path)
        guard let last = parts.last else { return (nil, nil) }
        if last.hasSuffix(".xcdatamodeld") { return (CoreDataBundle.stem(last), nil) }
        let bundle = parts.dropLast().last { $0.hasSuffix(".xcdatamodeld") }.map(CoreDataBundle.stem)
        return (bundle, CoreDataBundle.stem(last))
    }

    /// Why `mapping` is not a mapping model of the bundle named `bundle` with the versions `versions`, or nil when it
    /// is (or records no models). Core Data picks a mapping model by the entity version hashes it holds, so it
    /// never applies one made for other models; the model paths Xcode records beside those hashes name the same
    /// two models, and they are what is compared here (Strata does not compute Core Data's hash bytes).
    static func foreign(_ mapping: CoreDataMappingModel, bundle: String, versions: [String]) -> String? {
        let paths = [mapping.sourceModelPath, mapping.destinationModelPath].compactMap { $0 }
        guard !paths.isEmpty else { return nil }
        let shown = "'" + paths.joined(separator: "' → '") + "'"
        let read = paths.map(recorded)
        if let other = read.compactMap(\.bundle).first(where: { $0 != bundle }) {
            return "it maps \(shown), models of \(other).xcdatamodeld"
        }
        if let missing = read.first(where: { $0.version.map { !versions.contains($0) } ?? true }) {
            let what = missing.version.map { "no version '\($0)'" } ?? "no version named"
            return "it maps \(shown), and \(bundle).xcdatamodeld has \(what) (its versions: \(versions.joined(separator: ", ")))"
        }
        return nil
    }

    /// The step a mapping model maps, or why it cannot be told.
    ///
    /// The model paths Xcode records (`sourcemodelpath`, `destinationmodelpath`, checked by ``foreign(_:bundle:versions:)``
    /// to name versions of the bundle) are the step. A mapping model that records neither is matched by its
    /// entities: the step is the one adjacent pair of versions whose source model has every source entity and
    /// whose destination has every destination entity and property the mapping names (with one path recorded,
    /// among the pairs it names); when several pairs fit, the numbers ending the mapping model's name
    /// (`Model2to3`) decide.
    static func step(of mapping: CoreDataMappingModel, versions: [(name: String, number: Int)],
                     model: (Int) -> Model?) -> Result<(from: Int, to: Int), Note> {
        let numbers = versions.map(\.number)
        func number(_ path: String?) -> Int? {
            guard let name = path.flatMap({ recorded($0).version }) else { return nil }
            return versions.first { $0.name == name }?.number
        }
        let (source, destination) = (number(mapping.sourceModelPath), number(mapping.destinationModelPath))
        if let from = source, let to = destination {
            guard let index = numbers.firstIndex(of: to), index > 0, numbers[index - 1] == from else {
                return .failure(Note(reason: "it maps v\(from) → v\(to), which is not one step: a Strata mapping file maps adjacent versions; write one per step"))
            }
            return .success((from, to))
        }
        let pairs = zip(numbers, numbers.dropFirst()).filter {
            (source ?? $0.0) == $0.0 && (destination ?? $0.1) == $0.1 && fits(mapping, source: model($0.0), destination: model($0.1))
        }
        if pairs.count == 1 { return .success((pairs[0].0, pairs[0].1)) }
        let digits = mapping.name.split { !$0.isASCIIDigit }.compactMap { Int($0) }
        if digits.count >= 2, let pair = pairs.first(where: { $0.0 == digits[digits.count - 2] && $0.1 == digits[digits.count - 1] }) {
            return .success((pair.0, pair.1))
        }
        if pairs.isEmpty {
            return .failure(Note(reason: "no two adjacent versions have the entities and properties it names (and its model paths name no version of the bundle)"))
        }
        return .failure(Note(reason: "it fits several steps (\(pairs.map { "v\($0.0) → v\($0.1)" }.joined(separator: ", "))) and its model paths name no version of the bundle: rename it to end in the two version numbers (Model3to4)"))
    }

    static func fits(_ mapping: CoreDataMappingModel, source: Model?, destination: Model?) -> Bool {
        guard let source, let destination else { return false }
        return mapping.entities.allSatisfy { e in
            if let s = e.source, source.entity(s) == nil { return false }
            guard let d = e.destination else { return true }
            guard destination.entity(d) != nil else { return false }
            return (e.attributes + e.relationships).allSatisfy {
                destination.attribute($0.name, of: d) != nil || destination.relationship($0.name, of: d) != nil
            }
        }
    }

    /// The mapping file's draft for the step `source` → `destination` (two adjacent versions), checked against
    /// them, and what is not carried.
    static func draft(_ mapping: CoreDataMappingModel, source: Model, destination: Model) -> (ImportMappingDraft, [Note]) {
        let from = source.version, to = destination.version
        var notes: [Note] = []
        var draft = ImportMappingDraft(from: from, to: to, header: [
            "Imported from \(mapping.name) by `strata import coredata`: the step v\(from) → v\(to).",
            "What inference does by itself (same-name values, re-linked relationships) is left out; edit the TODOs (each is exit 4 until edited).",
        ])
        var groups: [(destination: String, mappings: [CoreDataMappingModel.EntityMapping])] = []
        for e in mapping.entities {
            guard let d = e.destination else {
                if let s = e.source, e.policy != nil || e.type?.lowercased() == "custom" {
                    notes.append(Note(entity: s, reason: "\(e.displayName) runs the custom migration policy \(e.policy ?? "?") on the removed entity: not carried (write a before-hook for what it did)"))
                }
                continue   // removed: inference drops it too
            }
            guard destination.entity(d) != nil else {
                notes.append(Note(entity: d, reason: "\(e.displayName): v\(to) has no entity '\(d)': not carried"))
                continue
            }
            if let s = e.source, source.entity(s) == nil {
                notes.append(Note(entity: d, reason: "\(e.displayName): v\(from) has no entity '\(s)': not carried"))
                continue
            }
            guard e.source != nil else {
                if e.policy != nil || e.type?.lowercased() == "custom" {
                    notes.append(Note(entity: d, reason: "\(e.displayName) makes \(d) objects in the custom migration policy \(e.policy ?? "?") from no source entity: not carried (write a hook that inserts them)"))
                }
                continue   // added: the entity starts empty, as inference has it
            }
            if let i = groups.firstIndex(where: { $0.destination == d }) { groups[i].mappings.append(e) } else { groups.append((d, [e])) }
        }
        // Core Data migrates only what an entity mapping reads; inference would carry the rest: say so, with a filter that drops them.
        var dropped: [ImportMappingDraft.Entity] = []
        let mapped = Set(mapping.entities.compactMap(\.source))
        let named = Set(groups.map(\.destination))
        for e in source.entities where !mapped.contains(e.name) && !e.isAbstract && !mapping.entities.isEmpty {
            guard let carrier = destination.entities.first(where: { $0.renamedFrom == e.name || $0.name == e.name && $0.renamedFrom == nil }),
                  !named.contains(carrier.name) else { continue }
            notes.append(Note(entity: e.name, reason: "no entity mapping of \(mapping.name) reads \(e.name), so Core Data did not migrate its objects: the mapping file drops them too (filter: FALSEPREDICATE); remove that entry to carry them"))
            var entity = ImportMappingDraft.Entity(name: carrier.name, sources: [e.name])
            entity.comments = ["Core Data: no entity mapping reads \(e.name), its objects were not migrated"]
            entity.filter = .expression("FALSEPREDICATE")
            dropped.append(entity)
        }
        let splitSources = Set(Dictionary(grouping: groups.flatMap { $0.mappings.compactMap(\.source) }, by: { $0 }).filter { $0.value.count > 1 }.keys)
        for (d, mappings) in groups {
            var seen: Set<String> = []
            var unique: [CoreDataMappingModel.EntityMapping] = []
            for m in mappings {
                if seen.insert(m.source ?? "").inserted { unique.append(m) } else {
                    notes.append(Note(entity: d, reason: "\(m.displayName) maps \(m.source ?? "nothing") into \(d) a second time: not carried"))
                }
            }
            let entity = translate(unique, into: d, source: source, destination: destination, split: splitSources)
            if let entity { draft.entities.append(entity) }
        }
        draft.entities += dropped
        check(&draft, models: ModelHistory(models: [source, destination]))
        return (draft, notes + mapping.notes.map { Note(reason: $0) })
    }

    /// Turns every item the mapping-file checker refuses into a TODO with its message (a few rounds: a fixed
    /// item can uncover the next).
    static func check(_ draft: inout ImportMappingDraft, models: ModelHistory) {
        for _ in 0..<4 {
            let (yaml, places) = draft.render()
            guard let file = try? MappingFileLoader.load(yaml: yaml, file: "mapping") else { return }
            let errors = MappingFileSet.check(file, models: models).filter { $0.severity == .error }
            var changed = false
            for e in errors {
                guard let line = e.location?.line, let place = places[line] else { continue }
                if case .entity(let i) = place {
                    draft.entities[i].filter = .todo("\(e.message)\(draft.entities[i].filter.map { "; filter: \(ImportMappingDraft.value($0))" } ?? "")")
                } else {
                    draft.makeTodo(place, reason: e.message + (e.hint.map { " (\($0))" } ?? ""))
                }
                changed = true
            }
            if !changed { return }
        }
    }
}
