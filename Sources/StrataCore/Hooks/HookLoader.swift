import Foundation
import Yams

/// Reads hook files (SPEC §5) into `Hook` values, with located errors.
public enum HookLoader {
    static let hookKeys = ["id", "after", "before", "description", "steps", "onViolation", "variables"] + swiftStageKeys
    static let updateKeys = ["entity", "predicate", "arguments", "propertiesToUpdate", "includesSubentities", "resultType"]
    static let deleteKeys = ["entity", "predicate", "arguments", "includesSubentities", "resultType"]

    /// Parses one hook file. Entities, attributes and predicates are checked against the model
    /// separately (`HookChecker`), since that needs the model of version `after`.
    /// - Throws: `DiagnosticList` with every error.
    public static func load(yaml: String, file: String) throws(DiagnosticList) -> Hook {
        var r = YAMLReader(file: file, text: yaml)
        let hook = parse(&r, yaml: yaml)
        let diagnostics = r.finished()
        if let hook, !diagnostics.contains(where: { $0.severity == .error }) { return hook }
        throw DiagnosticList(diagnostics)
    }

    /// Reads a hook file from disk.
    public static func load(path: String) throws(DiagnosticList) -> Hook {
        try load(data: FileManager.default.contents(atPath: path), path: path)
    }

    /// A hook file's bytes as read from `path` (nil: it could not be read).
    static func load(data: Data?, path: String) throws(DiagnosticList) -> Hook {
        guard let data else {
            throw DiagnosticList([.error("cannot read hook file", at: SourceLocation(file: path, line: 1, column: 1))])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw DiagnosticList([.error("hook file is not UTF-8 text", at: SourceLocation.firstInvalidUTF8(in: data, file: path)
                                            ?? SourceLocation(file: path, line: 1, column: 1),
                                         hint: "save the file as UTF-8")])
        }
        var hook = try load(yaml: text, file: path)
        if hook.swiftStage == nil { hook.checksum = SHA256.hex(Array(data)) }   // a Swift stage's is over its id and revision
        return hook
    }

    static func parse(_ r: inout YAMLReader, yaml: String) -> Hook? {
        guard let root = r.compose() else {
            if r.diagnostics.isEmpty { r.error("the hook file is empty", at: nil, hint: "start with `after: N` and `steps:`") }
            return nil
        }
        guard let entries = r.entries(of: root, what: "a hook file", allowed: hookKeys) else { return nil }
        let defaultID = ((r.file as NSString).lastPathComponent as NSString).deletingPathExtension
        var id = defaultID, idLocation = SourceLocation(file: r.file, line: 1, column: 1)
        var after: Int?, afterLocation = r.location(root)
        var timing = HookTiming.after
        var description: String?
        var steps: [HookStep] = []
        var stepLocations: [SourceLocation] = []
        var plainLiterals: [Int: Set<String>] = [:]
        var variables: [String: String] = [:]
        var policy = ViolationPolicy.rollback
        var sawSteps = false
        for (key, _, value) in entries {
            switch key {
            case "id":
                id = r.string(value, what: "id") ?? id
                idLocation = r.location(value)
                if id.isEmpty { r.error("id cannot be empty", at: value) }
            case "after", "before":
                if key == "before" { timing = .before }
                after = r.int(value, what: key, minimum: 1)
                afterLocation = r.location(value)
            case "description": description = r.string(value, what: "description")
            case "variables": variables = r.variables(value) ?? [:]
            case "onViolation":
                if let p = r.violationPolicy(value) { policy = p }
            case "steps":
                sawSteps = true
                guard case .sequence(let list) = value, !list.isEmpty else {
                    r.error("steps must be a non-empty list", at: value, hint: "e.g. - batchUpdate: { entity: Recipe, … }")
                    continue
                }
                for item in list {
                    if let (step, location, plain) = parseStep(item, &r) {
                        if !plain.isEmpty { plainLiterals[steps.count] = plain }
                        steps.append(step)
                        stepLocations.append(location)
                    }
                }
            default: break
            }
        }
        let places = entries.filter { $0.key == "after" || $0.key == "before" }
        if places.isEmpty {
            r.error("missing 'after'", at: root, hint: "add `after: N` (runs after the step reaching version N) or `before: N` (before its schema changes)")
        } else if places.count > 1 {
            r.error("a hook has either 'after' or 'before', not both", at: places[1].value,
                    hint: "`before: N` runs before the schema changes of the step reaching N, `after: N` after them")
        }
        let swiftStage = parseSwiftStage(entries, sawSteps: sawSteps, root: root, &r)
        let declaresSwift = entries.contains { $0.key == "swift" && ["true", "yes"].contains($0.value.string?.lowercased() ?? "") }
        if !sawSteps && !declaresSwift {
            r.error("missing 'steps'", at: root, hint: "add a list of batchUpdate / batchDelete steps")
        }
        var writes: [(String, SourceLocation)] = []
        if swiftStage == nil, !declaresSwift, let entry = entries.first(where: { $0.key == "writes" }) {
            // What `sql:` steps write beyond what the authorizer sees them write (SPEC §11.4): audited in full.
            if steps.contains(where: \.isSQL) {
                writes = names(entry.value, what: "writes", &r).map { ($0.0, r.location($0.1)) }
            } else {
                r.error("'writes' declares what sql: steps or a Swift stage write; this hook has no sql: step", at: entry.keyNode,
                        hint: "remove 'writes' (batch steps audit what they change), or add `swift: true` to declare a Swift stage")
            }
        }
        if let swiftStage { steps = [.swiftStage(swiftStage)] }
        guard let after else { return nil }
        var hook = Hook(id: id, after: after, description: description, steps: steps, variables: variables, onViolation: policy,
                        file: r.file, checksum: SHA256.hex(yaml), source: yaml, afterLocation: afterLocation, idLocation: idLocation)
        hook.timing = timing
        hook.stepLocations = stepLocations
        hook.writes = writes.map(\.0)
        hook.writeLocations = writes.map(\.1)
        hook.plainLiterals = plainLiterals
        if let swiftStage { hook.checksum = SwiftStageDeclaration.checksum(id: id, revision: swiftStage.revision) }
        return hook
    }

    /// A step, where its `entity:` is, and the properties it sets with plain scalars (not `{ value: … }`).
    static func parseStep(_ node: Node, _ r: inout YAMLReader) -> (HookStep, SourceLocation, Set<String>)? {
        let kinds = ["batchUpdate", "batchDelete", "sql"] + extraStepKinds
        guard let entries = r.entries(of: node, what: "a step", allowed: kinds) else { return nil }
        guard entries.count == 1, let (kind, _, body) = entries.first else {
            r.error("a step is exactly one of \(kinds.joined(separator: ", "))", at: node)
            return nil
        }
        if kind == "sql" { return parseSQLStep(body, &r).map { ($0, r.location(body), []) } }
        if kind == "batchInsert" { return parseInsert(body, &r) }
        if kind == "setRelationship" { return parseSetRelationship(body, &r) }
        let allowed = kind == "batchUpdate" ? updateKeys : deleteKeys
        guard let fields = r.entries(of: body, what: kind, allowed: allowed) else { return nil }
        var entity: String?
        var entityLocation = r.location(body)
        var predicate: String?, predicateOrigin: SourceLocation?
        var arguments: [PredicateArgument] = []
        var properties: [String: UpdateValue] = [:]
        var namesProperties = false   // propertiesToUpdate names one (a bad value is its own error)
        var valueOrigins: [String: SourceLocation] = [:]
        var keyOrigins: [String: SourceLocation] = [:]
        var plainLiterals: Set<String> = []
        var includes = true
        var resultType: String?
        var resultNode: Node?
        for (key, _, value) in fields {
            switch key {
            case "entity":
                entity = r.string(value, what: "entity")
                entityLocation = r.location(value)
            case "predicate":
                predicate = r.string(value, what: "predicate")
                predicateOrigin = ModelParser.stringStart(value, &r)
            case "arguments":
                arguments += parseArguments(value, &r)
            case "propertiesToUpdate":
                guard let list = r.entries(of: value, what: "propertiesToUpdate", allowed: []) else { continue }
                namesProperties = namesProperties || !list.isEmpty
                for (name, keyNode, v) in list {
                    keyOrigins[name] = r.location(keyNode)
                    switch v {
                    case .scalar(let s) where isNull(s):
                        // YAML's null (`~`, `null`, nothing) sets nil; the planner refuses it on a non-optional attribute.
                        properties[name] = .value(.null)
                        valueOrigins[name] = s.string.isEmpty ? r.location(keyNode) : r.location(v)   // nothing to point at: the key
                    case .scalar(let s):
                        // `$VAR` and `%@` are expressions; every other scalar is a literal of the attribute's type
                        // (write `{ value: "$x" }` for a literal starting with `$`).
                        let text = s.string
                        let isReference = text.hasPrefix("$") || text == "%@"
                        properties[name] = isReference ? .expression(text) : .literal(text)
                        valueOrigins[name] = ModelParser.stringStart(v, &r)
                        if !isReference { plainLiterals.insert(name) }
                    case .mapping:
                        guard let spec = r.entries(of: v, what: "the value of '\(name)'", allowed: ["expression", "value"]),
                              spec.count == 1, let (form, _, inner) = spec.first, let text = r.string(inner, what: form) else {
                            r.error("write `{ expression: \"rating + 1\" }` or `{ value: 3 }`", at: v)
                            continue
                        }
                        if form == "value", case .scalar(let s) = inner, isNull(s) {
                            properties[name] = .value(.null)
                        } else {
                            properties[name] = form == "expression" ? .expression(text) : .literal(text)
                        }
                        valueOrigins[name] = ModelParser.stringStart(inner, &r)
                    default:
                        r.error("the value of '\(name)' must be a literal or { expression: … }", at: v)
                    }
                }
            case "includesSubentities": includes = r.bool(value, what: "includesSubentities") ?? true
            case "resultType":
                resultType = r.string(value, what: "resultType")
                resultNode = value
            default: break
            }
        }
        guard let entity else {
            r.error("\(kind) needs an 'entity'", at: body)
            return nil
        }
        if kind == "batchUpdate" {
            if properties.isEmpty && !namesProperties { r.error("batchUpdate needs 'propertiesToUpdate'", at: body) }
            var request = BatchUpdateRequest(entity: entity, predicate: predicate, arguments: arguments, propertiesToUpdate: properties)
            request.includesSubentities = includes
            request.predicateOrigin = predicateOrigin
            request.valueOrigins = valueOrigins
            request.keyOrigins = keyOrigins
            if let resultType {
                guard let t = BatchUpdateResultType(rawValue: resultType) else {
                    r.error("unknown resultType '\(resultType)'", at: resultNode,
                            hint: NameSuggestion.hint(for: resultType, in: BatchUpdateResultType.allCases.map(\.rawValue)))
                    return nil
                }
                request.resultType = t
            }
            return (.batchUpdate(request), entityLocation, plainLiterals)
        }
        var request = BatchDeleteRequest(entity: entity, predicate: predicate, arguments: arguments)
        request.includesSubentities = includes
        request.predicateOrigin = predicateOrigin
        if let resultType {
            guard let t = BatchDeleteResultType(rawValue: resultType) else {
                r.error("unknown resultType '\(resultType)'", at: resultNode,
                        hint: NameSuggestion.hint(for: resultType, in: BatchDeleteResultType.allCases.map(\.rawValue)))
                return nil
            }
            request.resultType = t
        }
        return (.batchDelete(request), entityLocation, [])
    }

    /// YAML's null: a plain `~`, `null` (`Null`, `NULL`) or an empty value; quoted text is a string.
    static func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }
}
