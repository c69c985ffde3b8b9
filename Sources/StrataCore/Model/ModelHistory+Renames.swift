/// `renamedFrom` across versions (SPEC §4): a name that the previous version has is matched by name first, so a
/// `renamedFrom` cannot swap two names or move them round a cycle. One that tries (the previous version has the
/// element's name and the old name, this version keeps the old name, and the previous version's element of this
/// name did not already say the same `renamedFrom`) would be ignored and leave every value where it was: an error
/// at the `renamedFrom`, pointing at a mapping file, which carries a swap. A `renamedFrom` kept from an earlier
/// version (the previous version says it too) is still ignored, as SPEC §4 allows.
extension ModelHistory {
    /// Every swapped or cycled `renamedFrom` of `models` (sorted by version), each located at its value.
    static func swappedRenames(_ models: [Model]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (previous, model) in zip(models, models.dropFirst()) {
            let step = "v\(previous.version) → v\(model.version)"
            let mapping = "`strata mapping \(previous.version) \(model.version) > migrations/v\(model.version)-mapping.yaml` prints a skeleton"
            for e in model.entities {
                if let old = e.renamedFrom, old != e.name, let before = previous.entity(e.name), previous.entity(old) != nil,
                   model.entity(old) != nil, before.renamedFrom != old {
                    diagnostics.append(swapped(step, e.name, e.name, old, previous.version, model, at: e.keyLocations["renamedFrom"] ?? e.location,
                                               hint: "remove renamedFrom and carry the objects in a mapping file: \(mapping); give \(e.name) `source: \(old)`"))
                }
                let source = previous.entity(e.name) != nil ? e.name : e.renamedFrom.flatMap { previous.entity($0)?.name }
                guard let source else { continue }
                for a in e.attributes {
                    guard let old = a.renamedFrom, old != a.name, let before = previous.attribute(a.name, of: source),
                          previous.attribute(old, of: source) != nil, model.attribute(old, of: e.name) != nil,
                          before.attribute.renamedFrom != old else { continue }
                    diagnostics.append(swapped(step, "\(e.name).\(a.name)", a.name, old, previous.version, model,
                                               at: a.keyLocations["renamedFrom"] ?? a.location,
                                               hint: "remove renamedFrom and move the values in a mapping file: \(mapping); set `\(a.name): \"\(old)\"` under \(e.name)'s attributes"))
                }
                for r in e.relationships {
                    guard let old = r.renamedFrom, old != r.name, let before = previous.relationship(r.name, of: source),
                          previous.relationship(old, of: source) != nil, model.relationship(old, of: e.name) != nil,
                          before.relationship.renamedFrom != old else { continue }
                    diagnostics.append(swapped(step, "\(e.name).\(r.name)", r.name, old, previous.version, model,
                                               at: r.keyLocations["renamedFrom"] ?? r.location,
                                               hint: "remove renamedFrom, or rename through a version in between (\(old) to a free name, then to \(r.name))"))
                }
            }
        }
        return diagnostics
    }

    /// The error of one swapped `renamedFrom`: `subject` (`Person`, `Person.first`) named `name`, renamed from `old`.
    private static func swapped(_ step: String, _ subject: String, _ name: String, _ old: String, _ previous: Int, _ model: Model,
                                at location: SourceLocation?, hint: String) -> Diagnostic {
        Diagnostic(
            .error, "\(step): \(subject) is renamedFrom '\(old)', but v\(previous) has both \(name) and \(old), "
                + "and v\(model.version) keeps \(old): renamedFrom cannot swap names or move them round a cycle "
                + "(each name is matched to itself first)",
            at: location, hint: hint
        ).withSource(model.source)
    }
}
