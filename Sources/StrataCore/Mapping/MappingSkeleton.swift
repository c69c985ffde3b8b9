/// `strata mapping FROM TO` (SPEC §11.3): a mapping file for one step with every inferred choice written
/// out as the explicit mapping it stands for, and `TODO` where inference refuses, with the reason. Pure.
public enum MappingSkeleton {
    public struct Result: Sendable, Hashable {
        /// The mapping file's text.
        public var yaml: String
        /// How many `TODO`s it holds (each one is exit 4 until edited).
        public var todos: Int
    }

    /// - Throws: `Diagnostic` (exit 2) when a version is missing or the versions are not adjacent.
    public static func make(models: ModelHistory, from: Int, to: Int) throws(Diagnostic) -> Result {
        let versions = models.versions.map(String.init).joined(separator: ", ")
        guard let source = models.model(version: from), let destination = models.model(version: to) else {
            throw Diagnostic.error("there is no model version \(models.model(version: from) == nil ? from : to)", hint: "versions: \(versions)")
        }
        guard models.versions.filter({ $0 < to }).max() == from else {
            throw Diagnostic.error("v\(from) → v\(to) is not one step", hint: "a mapping file maps adjacent versions; versions: \(versions)")
        }
        let earlier = EarlierNames(models.models.filter { $0.version <= from })
        let corr = ModelCorrespondence(source: source, destination: destination, earlier: earlier)
        let analysis = ChangeAnalysis(corr, sourceLayout: LayoutBuilder.layout(for: source))
        let refusals = corr.refusals + analysis.refusals
        var todos = 0
        var lines = ["# Mapping of the step v\(from) → v\(to), written by `strata mapping \(from) \(to)`.",
                     "# Every choice inference makes is written out; edit the TODOs (each is exit 4 until edited),",
                     "# and remove what you do not change if you prefer: what this file leaves out is inferred.",
                     "mapping: { from: \(from), to: \(to) }",
                     "entities:"]
        for e in destination.entities {
            let entityRefusals = refusals.filter { $0.entity == e.name && $0.property == nil }
            guard let se = corr.sourceEntity[e.name], entityRefusals.isEmpty else {
                if let refusal = entityRefusals.first {
                    lines.append("  \(e.name):")
                    lines.append("    source: TODO   # \(comment(refusal.change)): name the v\(from) entity its objects come from")
                    todos += 1
                } else {
                    lines.append("  # \(e.name): new in v\(to), starts empty (or add `source: ENTITY` to fill it from v\(from))")
                }
                continue
            }
            lines.append("  \(e.name):")
            lines.append("    source: \(se)\(se == e.name ? "" : "   # renamed from \(se)")")
            var attributes: [String] = []
            for a in e.attributes {
                if let refusal = refusals.first(where: { $0.entity == e.name && $0.property == a.name }) {
                    let cast = ExpressionTyping.casts[a.type.rawValue] != nil ? ", e.g. \"\(a.type.rawValue)(\(corr.sourceAttribute(a, kind: e.name)?.name ?? a.name))\"" : ""
                    attributes.append("      \(a.name): TODO   # \(comment(refusal.change))\(cast)")
                    todos += 1
                    continue
                }
                guard let m = corr.sourceAttribute(a, kind: e.name) else {
                    attributes.append("      # \(a.name): new, \(a.defaultValue.map { "every object gets the default \($0)" } ?? (a.isOptional ? "nil" : "non-optional without default: only if there are no objects"))")
                    continue
                }
                if m.attribute.isOptional && !a.isOptional {
                    attributes.append("      # \(a.name): from \(m.name), \(a.defaultValue.map { "NULLs get the default \($0)" } ?? "no object may have nil")")
                    continue
                }
                let how = m.name != a.name ? "   # renamed from \(m.name)" : m.attribute.type != a.type ? "   # \(m.attribute.type.rawValue) → \(a.type.rawValue)" : ""
                attributes.append("      \(a.name): \(quoted(m.name))\(how)")
            }
            // An inherited attribute whose type change is refused: the parent's expression covers the parent's
            // own objects only, so the sub-entity's objects need one here too (`ChangeAnalysis`).
            for (owner, a) in destination.allAttributes(of: e.name) where owner != e.name
                && refusals.contains(where: { $0.entity == owner && $0.property == a.name }) {
                guard let m = corr.sourceAttribute(a, kind: e.name), !m.attribute.type.widens(to: a.type) else { continue }
                let cast = ExpressionTyping.casts[a.type.rawValue] != nil ? ", e.g. \"\(a.type.rawValue)(\(m.name))\"" : ""
                attributes.append("      \(a.name): TODO   # type changes from \(m.attribute.type.rawValue) to \(a.type.rawValue), inherited from \(owner)\(cast)")
                todos += 1
            }
            if !attributes.isEmpty { lines.append("    attributes:"); lines += attributes }
            for r in e.relationships {
                guard let refusal = refusals.first(where: { $0.entity == e.name && $0.property == r.name }) else { continue }
                lines.append("    # TODO: relationship \(r.name): \(comment(refusal.change)); \(comment(refusal.hint))")
            }
        }
        for s in source.entities where corr.destinationEntity[s.name] == nil {
            lines.append("  # \(s.name) (v\(from)): nothing carries it, its objects are dropped (name it as a source to keep them)")
        }
        return Result(yaml: lines.joined(separator: "\n") + "\n", todos: todos)
    }

    static func quoted(_ text: String) -> String { ImportYAMLWriter.quoted(text) }

    static func comment(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: " ") }
}
