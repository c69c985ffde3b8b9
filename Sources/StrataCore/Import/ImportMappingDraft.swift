/// A mapping file (SPEC §11.3) being written from a Core Data mapping model: what each destination entity
/// says, with `TODO`s (and why) where the translation stops. `render()` gives its text and, per line, the
/// item written there, so a diagnostic of the checker can turn exactly that item into a TODO.
struct ImportMappingDraft: Sendable {
    enum Item: Sendable, Equatable {
        case expression(String)
        /// A `TODO` with what it stands for (the reason and the Core Data original).
        case todo(String)
    }

    struct Attribute: Sendable {
        var name: String
        /// One expression for every source, or per source (merges).
        var value: Item?
        var perSource: [(source: String, item: Item)] = []
    }

    struct Entity: Sendable {
        var name: String
        var comments: [String] = []
        var sources: [String]
        var filter: Item?
        var attributes: [Attribute] = []
        var relationships: [(name: String, item: Item)] = []
    }

    /// What a line of the rendered text holds.
    enum Place: Hashable {
        case entity(Int)
        case filter(Int)
        case attribute(Int, Int)
        case relationship(Int, Int)
    }

    var from: Int
    var to: Int
    var header: [String]
    var entities: [Entity] = []

    var todos: Int {
        var n = 0
        for e in entities {
            if case .todo = e.filter { n += 1 }
            for a in e.attributes {
                if case .todo = a.value { n += 1 }
                n += a.perSource.filter { if case .todo = $0.item { return true } else { return false } }.count
            }
            n += e.relationships.filter { if case .todo = $0.item { return true } else { return false } }.count
        }
        return n
    }

    func render() -> (yaml: String, places: [Int: Place]) {
        var lines = header.map { "# " + Self.comment($0) }
        lines.append("mapping: { from: \(from), to: \(to) }")
        lines.append("entities:")
        var places: [Int: Place] = [:]
        func add(_ line: String, _ place: Place) { lines.append(line); places[lines.count] = place }
        for (i, e) in entities.enumerated() {
            for c in e.comments { lines.append("  # " + Self.comment(c)) }
            add("  \(ImportYAMLWriter.key(e.name)):", .entity(i))
            let source = e.sources.count == 1 ? ImportYAMLWriter.scalar(e.sources[0])
                : "[" + e.sources.map(ImportYAMLWriter.scalar).joined(separator: ", ") + "]"
            add("    source: \(source)", .entity(i))
            if let f = e.filter { add("    filter: \(Self.value(f))", .filter(i)) }
            if !e.attributes.isEmpty {
                lines.append("    attributes:")
                for (j, a) in e.attributes.enumerated() {
                    if let v = a.value {
                        add("      \(ImportYAMLWriter.key(a.name)): \(Self.value(v))", .attribute(i, j))
                    } else {
                        // Per source, one line each (a TODO's reason is a comment to the end of its line).
                        add("      \(ImportYAMLWriter.key(a.name)):", .attribute(i, j))
                        for (s, item) in a.perSource { add("        \(ImportYAMLWriter.key(s)): \(Self.value(item))", .attribute(i, j)) }
                    }
                }
            }
            if !e.relationships.isEmpty {
                lines.append("    relationships:")
                for (j, r) in e.relationships.enumerated() {
                    add("      \(ImportYAMLWriter.key(r.name)): \(Self.value(r.item))", .relationship(i, j))
                }
            }
        }
        return (lines.joined(separator: "\n") + "\n", places)
    }

    /// Replaces the item at `place` with a TODO giving `reason`.
    mutating func makeTodo(_ place: Place, reason: String) {
        func todo(_ item: Item?) -> Item {
            if case .todo(let t)? = item { return .todo(t) }
            if case .expression(let x)? = item { return .todo("\(reason); translated as \(x)") }
            return .todo(reason)
        }
        switch place {
        case .entity: break
        case .filter(let i): entities[i].filter = todo(entities[i].filter)
        case .attribute(let i, let j):
            if entities[i].attributes[j].value != nil {
                entities[i].attributes[j].value = todo(entities[i].attributes[j].value)
            } else {
                entities[i].attributes[j].perSource = entities[i].attributes[j].perSource.map { ($0.source, todo($0.item)) }
            }
        case .relationship(let i, let j): entities[i].relationships[j].item = todo(entities[i].relationships[j].item)
        }
    }

    static func value(_ item: Item) -> String {
        switch item {
        case .expression(let x): return ImportYAMLWriter.quoted(x)
        case .todo(let why): return "TODO   # " + comment(why)
        }
    }

    /// One line of comment text.
    static func comment(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
