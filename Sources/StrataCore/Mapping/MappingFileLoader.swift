import Foundation
import Yams

/// Reads mapping files (SPEC §11.3) with located errors. Names and expressions are checked against
/// the two models separately (`MappingFileChecker`).
public enum MappingFileLoader {
    static let fileKeys = ["mapping", "entities", "onViolation", "description", "variables"]
    static let entityKeys = ["source", "filter", "attributes", "relationships"]

    /// Whether a YAML text of `migrations/` is a mapping file (its top level has `mapping:`), not a hook.
    public static func isMappingFile(_ yaml: String) -> Bool {
        guard let root = try? Yams.compose(yaml: yaml, .basic, .default, .utf8), case .mapping(let m) = root else { return false }
        return m.keys.contains { $0.string == "mapping" }
    }

    /// Reads one mapping file from disk.
    /// - Throws: `DiagnosticList` with every error, located in the file (exit 2).
    public static func load(path: String) throws(DiagnosticList) -> MappingFile {
        try load(data: FileManager.default.contents(atPath: path), path: path)
    }

    /// A mapping file's bytes as read from `path` (nil: it could not be read).
    static func load(data: Data?, path: String) throws(DiagnosticList) -> MappingFile {
        guard let data else {
            throw DiagnosticList([.error("cannot read mapping file", at: SourceLocation(file: path, line: 1, column: 1))])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw DiagnosticList([.error("mapping file is not UTF-8 text", at: SourceLocation.firstInvalidUTF8(in: data, file: path)
                                            ?? SourceLocation(file: path, line: 1, column: 1), hint: "save the file as UTF-8")])
        }
        var mapping = try load(yaml: text, file: path)
        mapping.checksum = SHA256.hex(Array(data))
        return mapping
    }

    public static func load(yaml: String, file: String) throws(DiagnosticList) -> MappingFile {
        var r = YAMLReader(file: file, text: yaml)
        let mapping = parse(&r, yaml: yaml)
        let diagnostics = r.finished()
        if let mapping, !diagnostics.contains(where: { $0.severity == .error }) { return mapping }
        throw DiagnosticList(diagnostics)
    }

    static func parse(_ r: inout YAMLReader, yaml: String) -> MappingFile? {
        guard let root = r.compose() else { return nil }
        guard let entries = r.entries(of: root, what: "a mapping file", allowed: fileKeys) else { return nil }
        var from: Int?, to: Int?
        var location = r.location(root)
        var entities: [EntityMapping] = []
        var todos: [MappingFile.Todo] = []
        var policy = ViolationPolicy.rollback
        var sawEntities = false
        var variables: [String: String] = [:]
        for (key, _, value) in entries {
            switch key {
            case "mapping":
                location = r.location(value)
                guard let step = r.entries(of: value, what: "mapping", allowed: ["from", "to"]) else { continue }
                for (k, _, v) in step { if k == "from" { from = r.int(v, what: "from", minimum: 1) } else { to = r.int(v, what: "to", minimum: 1) } }
                if !step.contains(where: { $0.key == "from" }) || !step.contains(where: { $0.key == "to" }) {
                    r.error("mapping needs both 'from' and 'to'", at: value, hint: "e.g. mapping: { from: 4, to: 5 }")
                }
            case "onViolation":
                if let p = r.violationPolicy(value) { policy = p }
            case "variables":
                variables = r.variables(value) ?? [:]
            case "entities":
                sawEntities = true
                guard let list = r.entries(of: value, what: "entities", allowed: []) else { continue }
                for (name, keyNode, body) in list {
                    if let e = parseEntity(name, keyNode: keyNode, body: body, &r, todos: &todos) { entities.append(e) }
                }
            default: break
            }
        }
        if !sawEntities { r.error("missing 'entities'", at: root, hint: "name the destination entities the step maps (`strata mapping FROM TO` prints a skeleton)") }
        guard let from, let to else { return nil }
        var file = MappingFile(from: from, to: to, location: location, entities: entities, file: r.file,
                               checksum: SHA256.hex(yaml), source: yaml)
        file.onViolation = policy
        file.todos = todos
        file.variables = variables
        return file
    }

    /// Whether `node` is a `TODO` marker: an unquoted value that is the word `TODO`, alone or followed by a space
    /// or a colon and a note (`TODO`, `TODO: check the cast`). A quoted `"TODO"` is an expression (it names a
    /// property called TODO, as the skeleton writes it), and `TODO` inside an expression (`'TODO: review'`,
    /// `trim(TODO)`) is text or a name like any other.
    static func isTodo(_ node: Node) -> Bool {
        guard case .scalar(let s) = node, s.style == .plain || s.style == .any else { return false }
        let text = s.string
        guard text.hasPrefix("TODO") else { return false }
        let rest = text.dropFirst(4)
        return rest.isEmpty || rest.first == " " || rest.first == ":"
    }

    /// The names `source:` gives (nil when it is absent or not a name or a list of names).
    static func sourceNames(_ node: Node?) -> [String]? {
        switch node {
        case .scalar(let s)?: return [s.string]
        case .sequence(let list)?: return list.compactMap(\.string)
        default: return nil
        }
    }

    /// The inner node of `{ expression: "…" }` (a map whose only key is `expression`).
    static func expressionForm(_ node: Node) -> Node? {
        guard case .mapping(let m) = node, m.count == 1, let (key, value) = m.first, key.string == "expression" else { return nil }
        return value
    }

    /// Where a null value's nil is reported: the value, or its key when the value is empty.
    static func nullOrigin(_ value: Node, key: Node, _ r: inout YAMLReader) -> SourceLocation {
        if case .scalar(let s) = value, s.string.isEmpty { return r.location(key) }
        return ModelParser.stringStart(value, &r)
    }

    /// One expression: a string, YAML null (nil) or `{ expression: "…" }`.
    static func expression(_ node: Node, key: Node? = nil, _ r: inout YAMLReader) -> LocatedText? {
        if case .scalar(let s) = node, HookLoader.isNull(s) { return LocatedText("nil", at: nullOrigin(node, key: key ?? node, &r)) }
        if let inner = expressionForm(node) { return expression(inner, key: key, &r) }
        guard let text = r.string(node, what: "an expression") else { return nil }
        return LocatedText(text, at: ModelParser.stringStart(node, &r))
    }

    static func parseEntity(_ name: String, keyNode: Node, body: Node, _ r: inout YAMLReader, todos: inout [MappingFile.Todo]) -> EntityMapping? {
        var e = EntityMapping(name: name, location: r.location(keyNode))
        if case .scalar(let s) = body, s.string.isEmpty || isTodo(body) {
            if isTodo(body) { todos.append(.init(entity: name, property: nil, location: r.location(body))) }
            return e
        }
        guard let fields = r.entries(of: body, what: "entity '\(name)'", allowed: entityKeys) else { return nil }
        for (key, _, value) in fields {
            switch key {
            case "source":
                e.sourceLocation = r.location(value)
                if isTodo(value) { todos.append(.init(entity: name, property: nil, location: r.location(value))); continue }
                switch value {
                case .scalar(let s): e.sources = [s.string]
                case .sequence(let list):
                    e.sources = list.compactMap(\.string)
                    if e.sources.count != list.count || e.sources.isEmpty { r.error("source must be an entity name or a list of names", at: value) }
                    var named: Set<String> = []
                    for item in list {
                        guard let source = item.string, !named.insert(source).inserted else { continue }
                        r.error("'\(source)' is named twice in the sources of \(name)", at: item,
                                hint: "name each source entity once: its rows are carried once")
                    }
                default: r.error("source must be an entity name or a list of names", at: value)
                }
            case "filter":
                if isTodo(value) { todos.append(.init(entity: name, property: nil, location: r.location(value))); continue }
                guard let text = r.string(value, what: "filter") else { continue }
                e.filter = LocatedText(text, at: ModelParser.stringStart(value, &r))
            case "attributes":
                guard let list = r.entries(of: value, what: "attributes of '\(name)'", allowed: []) else { continue }
                // `{ expression: "…" }` is an expression unless a source entity is literally named `expression`.
                let sourceNamedExpression = sourceNames(fields.first { $0.key == "source" }?.value).map { $0.contains("expression") }
                    ?? (name == "expression")
                for (attribute, k, v) in list {
                    var a = AttributeMapping(name: attribute, location: r.location(k))
                    if isTodo(v) { todos.append(.init(entity: name, property: attribute, location: r.location(v))); continue }
                    switch v {
                    case .scalar(let s) where HookLoader.isNull(s):
                        // YAML null sets nil (SPEC §11.1), as in a hook's values.
                        a.expression = LocatedText("nil", at: nullOrigin(v, key: k, &r))
                    case .scalar(let s):
                        a.expression = LocatedText(s.string, at: ModelParser.stringStart(v, &r))
                    case .mapping where !sourceNamedExpression && expressionForm(v) != nil:
                        guard let text = expression(expressionForm(v)!, &r) else { continue }
                        a.expression = text
                    case .mapping:
                        guard let per = r.entries(of: v, what: "the expressions of '\(attribute)'", allowed: []) else { continue }
                        for (source, sk, x) in per {
                            if isTodo(x) { todos.append(.init(entity: name, property: attribute, location: r.location(x))); continue }
                            guard let text = expression(x, key: sk, &r) else { continue }
                            a.perSource[source] = text
                        }
                    default:
                        r.error("the value of '\(attribute)' must be an expression or a map of expressions per source entity", at: v)
                        continue
                    }
                    if a.expression?.text.isEmpty == true { r.error("empty expression for '\(attribute)'", at: v, hint: "write an expression over the source row, e.g. \(attribute)") }
                    e.attributes.append(a)
                }
            case "relationships":
                guard let list = r.entries(of: value, what: "relationships of '\(name)'", allowed: []) else { continue }
                for (relationship, k, v) in list {
                    if isTodo(v) { todos.append(.init(entity: name, property: relationship, location: r.location(v))); continue }
                    guard let text = r.string(v, what: "a relationship mapping") else { continue }
                    e.relationships.append(RelationshipMapping(name: relationship, location: r.location(k),
                                                               value: LocatedText(text, at: ModelParser.stringStart(v, &r))))
                }
            default: break
            }
        }
        return e
    }
}
