import Yams

/// `batchInsert` and `setRelationship` steps (SPEC §11.1).
extension HookLoader {
    static let extraStepKinds = ["batchInsert", "setRelationship"]
    static let insertKeys = ["entity", "objects", "from", "values", "resultType", "onConflict"]
    static let insertSourceKeys = ["entity", "predicate", "arguments", "includesSubentities"]
    static let relationshipKeys = ["entity", "relationship", "destination", "match", "predicate", "arguments",
                                   "includesSubentities", "resultType"]

    /// `batchInsert: { entity, objects: [ {…} ] }` or `{ entity, from: { entity, predicate }, values: {…} }`.
    static func parseInsert(_ body: Node, _ r: inout YAMLReader) -> (HookStep, SourceLocation, Set<String>)? {
        guard let fields = r.entries(of: body, what: "batchInsert", allowed: insertKeys) else { return nil }
        var entity: String?, entityLocation = r.location(body)
        var objects: [[String: UpdateValue]] = []
        var objectOrigins: [[String: SourceLocation]] = []
        var keyOrigins: [String: SourceLocation] = [:]
        var source: BatchInsertSource?
        var values: [String: String] = [:]
        var valueOrigins: [String: SourceLocation] = [:]
        var resultType = BatchInsertResultType.statusOnly
        var onConflict = BatchInsertConflictPolicy.fail
        var objectsNode: Node?, valuesNode: Node?
        for (key, _, value) in fields {
            switch key {
            case "entity":
                entity = r.string(value, what: "entity")
                entityLocation = r.location(value)
            case "objects":
                objectsNode = value
                guard case .sequence(let list) = value, !list.isEmpty else {
                    r.error("objects must be a non-empty list of rows", at: value, hint: "objects: [ { name: quick }, { name: vegan } ]")
                    continue
                }
                for item in list {
                    guard let row = r.entries(of: item, what: "an object", allowed: []) else { continue }
                    var parsed: [String: UpdateValue] = [:]
                    var origins: [String: SourceLocation] = [:]
                    for (name, keyNode, v) in row {
                        keyOrigins[name] = keyOrigins[name] ?? r.location(keyNode)
                        guard let (update, origin) = parseLiteralOrExpression(v, name: name, keyNode: keyNode, &r) else { continue }
                        parsed[name] = update
                        origins[name] = origin
                    }
                    objects.append(parsed)
                    objectOrigins.append(origins)
                }
            case "from":
                guard let spec = r.entries(of: value, what: "from", allowed: insertSourceKeys) else { continue }
                var s = BatchInsertSource(entity: "")
                var named = false
                for (k, _, v) in spec {
                    switch k {
                    case "entity":
                        if let name = r.string(v, what: "from.entity") { s.entity = name; named = true }
                        s.entityOrigin = r.location(v)
                    case "predicate":
                        s.predicate = r.string(v, what: "predicate")
                        s.predicateOrigin = ModelParser.stringStart(v, &r)
                    case "arguments": s.arguments = parseArguments(v, &r)
                    case "includesSubentities": s.includesSubentities = r.bool(v, what: "includesSubentities") ?? true
                    default: break
                    }
                }
                if !named { r.error("from needs an 'entity'", at: value, hint: "from: { entity: Recipe, predicate: \"…\" }") }
                source = s
            case "values":
                valuesNode = value
                guard let list = r.entries(of: value, what: "values", allowed: []) else { continue }
                for (name, keyNode, v) in list {
                    keyOrigins[name] = r.location(keyNode)
                    // Every value is an expression over the source row; `{ expression: … }` is accepted too.
                    switch v {
                    case .scalar(let s) where isNull(s):
                        values[name] = "nil"
                        valueOrigins[name] = r.location(keyNode)
                    case .scalar:
                        values[name] = r.string(v, what: name)
                        valueOrigins[name] = ModelParser.stringStart(v, &r)
                    case .mapping:
                        guard let spec = r.entries(of: v, what: "the value of '\(name)'", allowed: ["expression"]),
                              let (_, _, inner) = spec.first, let text = r.string(inner, what: "expression") else {
                            r.error("write an expression, e.g. \"$source.name\" or { expression: \"$source.name\" }", at: v)
                            continue
                        }
                        values[name] = text
                        valueOrigins[name] = ModelParser.stringStart(inner, &r)
                    default:
                        r.error("the value of '\(name)' must be an expression", at: v, hint: "e.g. \"$source.name\"")
                    }
                }
            case "resultType":
                guard let text = r.string(value, what: "resultType") else { continue }
                guard let t = BatchInsertResultType(rawValue: text) else {
                    r.error("unknown resultType '\(text)'", at: value,
                            hint: NameSuggestion.hint(for: text, in: BatchInsertResultType.allCases.map(\.rawValue)) ?? "use objectIDs, count or statusOnly")
                    continue
                }
                resultType = t
            case "onConflict":
                guard let text = r.string(value, what: "onConflict") else { continue }
                guard let p = BatchInsertConflictPolicy(rawValue: text), p != .fail else {
                    r.error("unknown onConflict '\(text)'", at: value, hint: "use ignore (skip the row) or update (update the existing row)")
                    continue
                }
                onConflict = p
            default: break
            }
        }
        guard let entity else {
            r.error("batchInsert needs an 'entity'", at: body)
            return nil
        }
        if source != nil, let objectsNode {
            r.error("a batchInsert takes either objects or from:, not both", at: objectsNode, hint: "split it into two steps")
            return nil
        }
        if source == nil {
            if let valuesNode { r.error("values: goes with from:", at: valuesNode, hint: "for literal rows, use objects:") }
            if objectsNode == nil {
                r.error("batchInsert needs objects: or from:", at: body, hint: "objects: [ { name: quick } ] or from: { entity: Recipe } with values:")
                return nil
            }
        }
        var request: BatchInsertRequest
        if let source {
            request = BatchInsertRequest(entity: entity, from: source, values: values)
            request.valueOrigins = valueOrigins
        } else {
            request = BatchInsertRequest(entity: entity, objects: objects)
            request.objectOrigins = objectOrigins
        }
        request.keyOrigins = keyOrigins
        request.resultType = resultType
        request.onConflict = onConflict
        return (.batchInsert(request), entityLocation, [])
    }

    /// `setRelationship: { entity, relationship, destination, match: { a: b }, predicate }`.
    static func parseSetRelationship(_ body: Node, _ r: inout YAMLReader) -> (HookStep, SourceLocation, Set<String>)? {
        guard let fields = r.entries(of: body, what: "setRelationship", allowed: relationshipKeys) else { return nil }
        var entity: String?, entityLocation = r.location(body)
        var relationship: String?, relationshipOrigin: SourceLocation?
        var destination: String?, destinationOrigin: SourceLocation?
        var match: [SetRelationshipRequest.Match] = []
        var predicate: String?, predicateOrigin: SourceLocation?
        var arguments: [PredicateArgument] = []
        var includes = true
        var resultType = BatchInsertResultType.statusOnly
        var sawMatch = false
        for (key, _, value) in fields {
            switch key {
            case "entity":
                entity = r.string(value, what: "entity")
                entityLocation = r.location(value)
            case "relationship":
                relationship = r.string(value, what: "relationship")
                relationshipOrigin = r.location(value)
            case "destination":
                destination = r.string(value, what: "destination")
                destinationOrigin = r.location(value)
            case "match":
                sawMatch = true
                guard let pairs = r.entries(of: value, what: "match", allowed: []) else { continue }
                if pairs.isEmpty { r.error("match needs at least one pair", at: value, hint: "match: { authorID: userID }") }
                for (name, keyNode, v) in pairs {
                    guard let other = r.string(v, what: "match.\(name)") else { continue }
                    match.append(SetRelationshipRequest.Match(source: name, destination: other, origin: r.location(keyNode)))
                }
            case "predicate":
                predicate = r.string(value, what: "predicate")
                predicateOrigin = ModelParser.stringStart(value, &r)
            case "arguments": arguments = parseArguments(value, &r)
            case "includesSubentities": includes = r.bool(value, what: "includesSubentities") ?? true
            case "resultType":
                guard let text = r.string(value, what: "resultType") else { continue }
                guard let t = BatchInsertResultType(rawValue: text) else {
                    r.error("unknown resultType '\(text)'", at: value,
                            hint: NameSuggestion.hint(for: text, in: BatchInsertResultType.allCases.map(\.rawValue)) ?? "use objectIDs, count or statusOnly")
                    continue
                }
                resultType = t
            default: break
            }
        }
        guard let entity else { r.error("setRelationship needs an 'entity'", at: body); return nil }
        guard let relationship else { r.error("setRelationship needs a 'relationship'", at: body); return nil }
        if !sawMatch { r.error("setRelationship needs 'match'", at: body, hint: "match: { authorID: userID }"); return nil }
        var request = SetRelationshipRequest(entity: entity, relationship: relationship, destination: destination, match: [], predicate: predicate)
        request.match = match
        request.arguments = arguments
        request.includesSubentities = includes
        request.resultType = resultType
        request.predicateOrigin = predicateOrigin
        request.relationshipOrigin = relationshipOrigin
        request.destinationOrigin = destinationOrigin
        return (.setRelationship(request), entityLocation, [])
    }

    /// `arguments: [a, [b, c]]`; YAML null (`null`, `~`) is nil, as `NSNull` in Core Data's argument arrays
    /// (it was the text "null", so `name == %@` matched the objects named "null"), in a list too; a list's
    /// elements are values (a nested list or map is an error at its location).
    static func parseArguments(_ value: Node, _ r: inout YAMLReader) -> [PredicateArgument] {
        guard case .sequence(let list) = value else { r.error("arguments must be a list", at: value); return [] }
        var arguments: [PredicateArgument] = []
        for item in list {
            switch item {
            case .scalar(let s) where isNull(s): arguments.append(.null)
            case .scalar(let s): arguments.append(.text(s.string))
            case .sequence(let inner):
                // Each element is a value: YAML null is nil, as in a literal list `{1, nil}` (it never matches IN,
                // and it counts for BETWEEN). A nested list or a map was dropped, so `[["a", ["b"]]]` matched "a" only.
                var items: [String?] = []
                for element in inner {
                    switch element {
                    case .scalar(let s) where isNull(s): items.append(nil)
                    case .scalar(let s): items.append(s.string)
                    default:
                        r.error("each element of a list argument is a value, not \(element.sequence == nil ? "a map" : "a list")", at: element,
                                hint: "write the values in one flat list, as in [[\"Soup\", \"Stew\"]]")
                    }
                }
                arguments.append(.list(items))
            default: r.error("an argument is a value or a list of values", at: item)
            }
        }
        return arguments
    }

    /// A value in `objects:`: a scalar is a literal of the property's type (`$NAME` is a variable), YAML null
    /// is nil, `{ expression: … }` an expression and `{ value: … }` a literal.
    static func parseLiteralOrExpression(_ v: Node, name: String, keyNode: Node, _ r: inout YAMLReader) -> (UpdateValue, SourceLocation)? {
        switch v {
        case .scalar(let s) where isNull(s):
            return (.value(.null), s.string.isEmpty ? r.location(keyNode) : r.location(v))
        case .scalar(let s):
            let text = s.string
            return (text.hasPrefix("$") ? .expression(text) : .literal(text), ModelParser.stringStart(v, &r))
        case .mapping:
            guard let spec = r.entries(of: v, what: "the value of '\(name)'", allowed: ["expression", "value"]),
                  spec.count == 1, let (form, _, inner) = spec.first, let text = r.string(inner, what: form) else {
                r.error("write `{ expression: \"$NOW\" }` or `{ value: 3 }`", at: v)
                return nil
            }
            if form == "value", case .scalar(let s) = inner, isNull(s) { return (.value(.null), ModelParser.stringStart(inner, &r)) }
            return (form == "expression" ? .expression(text) : .literal(text), ModelParser.stringStart(inner, &r))
        default:
            r.error("the value of '\(name)' must be a literal or { expression: … }", at: v)
            return nil
        }
    }
}
