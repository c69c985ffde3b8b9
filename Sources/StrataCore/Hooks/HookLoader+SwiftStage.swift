import Yams

extension HookLoader {
    /// The keys of a Swift stage's declaration (`writes` is also a key of a hook with `sql:` steps).
    static let swiftStageKeys = ["swift", "revision", "writes", "engines"]
    static let engineNames = ["sqlite", "postgresql"]

    /// Reads a Swift stage's declaration (SPEC §11.2: `swift: true`, `revision:`, optional `writes:` and
    /// `engines:`, no `steps:`); nil for an ordinary hook, which may use none of these keys.
    static func parseSwiftStage(_ entries: [(key: String, keyNode: Node, value: Node)], sawSteps: Bool, root: Node,
                                _ r: inout YAMLReader) -> SwiftStageDeclaration? {
        let fields = Dictionary(entries.filter { swiftStageKeys.contains($0.key) }.map { ($0.key, ($0.keyNode, $0.value)) },
                                uniquingKeysWith: { a, _ in a })
        guard let (_, swiftNode) = fields["swift"], r.bool(swiftNode, what: "swift") == true else {
            for key in ["revision", "engines"] {   // `writes:` also declares what a hook's sql: steps write
                guard let (keyNode, _) = fields[key] else { continue }
                r.error("'\(key)' belongs to a Swift stage's declaration", at: keyNode,
                        hint: "add `swift: true` to declare a Swift stage, or remove '\(key)'")
            }
            return nil
        }
        if sawSteps, let steps = entries.first(where: { $0.key == "steps" }) {
            r.error("a Swift stage has no 'steps'", at: steps.keyNode,
                    hint: "its work is the closure the application registers with `stages.register(id, revision:)`")
        }
        guard let (_, revisionNode) = fields["revision"] else {
            r.error("a Swift stage needs a 'revision'", at: root,
                    hint: "add `revision: \"1\"`, the revision the application registers the stage with")
            return nil
        }
        guard let revision = r.string(revisionNode, what: "revision") else { return nil }
        if revision.isEmpty { r.error("revision cannot be empty", at: revisionNode) }
        var declaration = SwiftStageDeclaration(revision: revision)
        declaration.revisionLocation = r.location(revisionNode)
        if let (_, node) = fields["writes"] {
            for (name, item) in names(node, what: "writes", &r) {
                declaration.writes.append(name)
                declaration.writeLocations.append(r.location(item))
            }
        }
        if let (_, node) = fields["engines"] {
            var engines: [String] = []
            for (name, item) in names(node, what: "engines", &r) {
                guard engineNames.contains(name) else {
                    r.error("unknown engine '\(name)'", at: item, hint: NameSuggestion.hint(for: name, in: engineNames) ?? "use sqlite or postgresql")
                    continue
                }
                engines.append(name)
            }
            declaration.engines = engines
        }
        return declaration
    }

    /// A list of names (`[Recipe, Tag]`), each with its node.
    static func names(_ node: Node, what: String, _ r: inout YAMLReader) -> [(String, Node)] {
        guard case .sequence(let list) = node else {
            r.error("\(what) must be a list of names", at: node, hint: "e.g. [Recipe, Tag]")
            return []
        }
        return list.compactMap { item in
            guard let name = r.string(item, what: "an entry of \(what)") else { return nil }
            if name.isEmpty { r.error("an entry of \(what) cannot be empty", at: item); return nil }
            return (name, item)
        }
    }
}
