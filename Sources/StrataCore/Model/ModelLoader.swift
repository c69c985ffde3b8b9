import Foundation
import Yams

/// Reads one model file (SPEC §2) into a checked `Model`.
///
/// ```swift
/// let model = try ModelLoader.load(yaml: text, file: "models/4.yaml")
/// ```
public enum ModelLoader {
    /// Parses and checks a model file. Every error is reported, not just the first.
    /// - Throws: `DiagnosticList` with each error located at `file:line:column`.
    public static func load(yaml: String, file: String) throws(DiagnosticList) -> Model {
        try loadChecked(yaml: yaml, file: file).model
    }

    /// `load`, with the layout of a store created at the model's version, which the checker builds anyway
    /// (`ModelHistory` keeps it for planning).
    static func loadChecked(yaml: String, file: String) throws(DiagnosticList) -> (model: Model, createdLayout: StoreLayout) {
        var reader = YAMLReader(file: file, text: yaml)
        if var model = ModelParser.parse(&reader) {
            model.source = yaml
            let layout = ModelChecker.check(model, into: &reader)
            if !reader.diagnostics.contains(where: { $0.severity == .error }) {
                checkValidationPredicates(model, into: &reader, layout: layout)
            }
            let diagnostics = reader.finished()
            if diagnostics.contains(where: { $0.severity == .error }) { throw DiagnosticList(diagnostics) }
            model.warnings = diagnostics.filter { $0.severity == .warning }
            return (model, layout ?? LayoutBuilder.layout(for: model))
        }
        throw DiagnosticList(reader.finished())
    }

    /// Entity validation predicates compile against the model (unknown attributes, type errors), located
    /// in the file. `$NOW` and `--var` variables are only known at audit time, so variables are not checked here.
    static func checkValidationPredicates(_ model: Model, into reader: inout YAMLReader, layout: StoreLayout?) {
        guard model.entities.contains(where: { !$0.validation.isEmpty }) else { return }
        let compiler = PredicateCompiler(model: model, layout: layout ?? LayoutBuilder.layout(for: model))
        for entity in model.entities {
            for rule in entity.validation {
                do {
                    _ = try compiler.compile(rule.predicate, entity: entity.name, context: PredicateContext(now: 0),
                                             origin: rule.location ?? SourceLocation(file: model.file, line: 1, column: 1))
                } catch {
                    if error.diagnostic.message.hasPrefix("unknown variable $") { continue }   // supplied at audit time
                    reader.add(error.diagnostic)
                }
            }
        }
    }

    /// Reads and loads a model file from disk.
    public static func load(path: String) throws(DiagnosticList) -> Model {
        try loadChecked(path: path).model
    }

    /// `load(path:)` with the created layout (see `loadChecked(yaml:file:)`).
    static func loadChecked(path: String) throws(DiagnosticList) -> (model: Model, createdLayout: StoreLayout) {
        try loadChecked(YAMLFolder.File(path: path, data: FileManager.default.contents(atPath: path)))
    }

    /// ``loadChecked(path:)`` of a file already read.
    static func loadChecked(_ file: YAMLFolder.File) throws(DiagnosticList) -> (model: Model, createdLayout: StoreLayout) {
        guard let data = file.data else {
            throw DiagnosticList([.error("cannot read model file", at: SourceLocation(file: file.path, line: 1, column: 1))])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw DiagnosticList([.error("model file is not UTF-8 text", at: SourceLocation.firstInvalidUTF8(in: data, file: file.path)
                                            ?? SourceLocation(file: file.path, line: 1, column: 1), hint: "save the file as UTF-8")])
        }
        return try loadChecked(yaml: text, file: file.path)
    }
}

/// YAML nodes → model values, checking each value against its attribute's type as it goes.
enum ModelParser {
    static let modelKeys = ["version", "entities"]
    static let entityKeys = ["renamedFrom", "table", "parent", "abstract", "attributes", "relationships", "uniqueness",
                             "indexes", "versionHashModifier", "userInfo", "validation"]
    static let attributeKeys = ["type", "optional", "default", "min", "max", "minLength", "maxLength", "pattern",
                                "renamedFrom", "indexed", "column", "versionHashModifier", "userInfo"]
    static let relationshipKeys = ["destination", "inverse", "toMany", "ordered", "deleteRule", "minCount", "maxCount",
                                   "optional", "renamedFrom", "column", "versionHashModifier", "userInfo"]

    static func parse(_ r: inout YAMLReader) -> Model? {
        guard let root = r.compose() else {
            if r.diagnostics.isEmpty { r.error("the model file is empty", at: nil, hint: "start with `version: 1` and `entities:`") }
            return nil
        }
        guard let entries = r.entries(of: root, what: "a model file", allowed: modelKeys) else { return nil }
        var version: Int?
        var entities: [Entity] = []
        var sawEntities = false
        for (key, _, value) in entries {
            switch key {
            case "version": version = r.int(value, what: "version", minimum: 1)
            case "entities":
                sawEntities = true
                guard let list = r.entries(of: value, what: "entities", allowed: []) else { continue }
                for (name, keyNode, body) in list {
                    if let entity = parseEntity(name, keyNode: keyNode, body: body, &r) { entities.append(entity) }
                }
            default: break
            }
        }
        if !entries.contains(where: { $0.key == "version" }) {
            r.error("missing 'version'", at: root, hint: "add `version: N` (an integer >= 1, unique across models/)")
        }
        if !sawEntities { r.error("missing 'entities'", at: root, hint: "add an `entities:` mapping") }
        guard let version else { return nil }
        return Model(version: version, entities: entities, file: r.file)
    }

    static func parseEntity(_ name: String, keyNode: Node, body: Node, _ r: inout YAMLReader) -> Entity? {
        var entity = Entity(name: name, location: r.location(keyNode))
        if case .scalar(let s) = body, s.style == .plain, isNull(s.string) { return entity }
        guard let entries = r.entries(of: body, what: "entity '\(name)'", allowed: entityKeys) else { return entity }
        for (key, _, value) in entries {
            entity.keyLocations[key] = r.location(value)
            switch key {
            case "renamedFrom": entity.renamedFrom = r.string(value, what: "renamedFrom")
            case "table": entity.table = r.string(value, what: "table")
            case "parent": entity.parent = r.string(value, what: "parent")
            case "abstract": entity.isAbstract = r.bool(value, what: "abstract") ?? false
            case "versionHashModifier": entity.versionHashModifier = r.string(value, what: "versionHashModifier")
            case "userInfo": entity.userInfo = r.stringMap(value, what: "userInfo") ?? [:]
            case "attributes":
                guard let list = r.entries(of: value, what: "attributes of '\(name)'", allowed: []) else { continue }
                for (attributeName, attributeKey, attributeBody) in list {
                    if let a = parseAttribute(attributeName, keyNode: attributeKey, body: attributeBody, &r) { entity.attributes.append(a) }
                }
            case "relationships":
                guard let list = r.entries(of: value, what: "relationships of '\(name)'", allowed: []) else { continue }
                for (relName, relKey, relBody) in list {
                    if let rel = parseRelationship(relName, keyNode: relKey, body: relBody, &r) { entity.relationships.append(rel) }
                }
            case "uniqueness", "indexes":
                let lists = r.nameLists(value, what: key) ?? []
                for (i, list) in lists.enumerated() { entity.keyLocations["\(key).\(i)"] = r.location(list.1) }
                if key == "uniqueness" { entity.uniqueness = lists.map(\.0) } else { entity.indexes = lists.map(\.0) }
            case "validation":
                guard case .sequence(let rules) = value else {
                    r.error("validation must be a list of rules", at: value, hint: "e.g. - predicate: \"rating >= 0\"")
                    continue
                }
                for rule in rules {
                    guard let fields = r.entries(of: rule, what: "a validation rule", allowed: ["predicate", "message"]) else { continue }
                    var predicate: String?, predicateNode: Node?, message: String?
                    for (k, _, v) in fields {
                        if k == "predicate" { predicate = r.string(v, what: "predicate"); predicateNode = v }
                        if k == "message" { message = r.string(v, what: "message") }
                    }
                    guard let predicate, let predicateNode else {
                        r.error("a validation rule needs a 'predicate'", at: rule)
                        continue
                    }
                    entity.validation.append(ValidationRule(predicate: predicate, message: message,
                                                            location: stringStart(predicateNode, &r)))
                }
            default: break
            }
        }
        return entity
    }

    /// Where a string scalar's first character is (after an opening quote; a block's `|` or `>` indicator), with
    /// its layout: an offset into the scalar's text is then placed where the file has it, across folded lines,
    /// block indentation and escapes (`SourceLocation.location(atScalarOffset:in:)`).
    static func stringStart(_ node: Node, _ r: inout YAMLReader) -> SourceLocation {
        var at = r.location(node)
        guard case .scalar(let s) = node, let mark = s.mark else { return at }
        let style: ScalarLayout.Style
        switch s.style {
        case .singleQuoted: style = .singleQuoted
        case .doubleQuoted: style = .doubleQuoted
        case .literal: style = .literal
        case .folded: style = .folded
        case .plain, .any: style = .plain
        }
        if style == .singleQuoted || style == .doubleQuoted { at = at.advanced(by: 1) }
        at.layout = ScalarLayout(fileText: r.text, style: style, line: mark.line, column: mark.column)
        return at
    }

    static func parseAttribute(_ name: String, keyNode: Node, body: Node, _ r: inout YAMLReader) -> Attribute? {
        guard let entries = r.entries(of: body, what: "attribute '\(name)'", allowed: attributeKeys) else { return nil }
        guard let typeEntry = entries.first(where: { $0.key == "type" }) else {
            r.error("attribute '\(name)' has no type", at: keyNode,
                    hint: "add `type:` (one of \(AttributeType.allCases.map(\.rawValue).joined(separator: ", ")))")
            return nil
        }
        guard let typeName = r.string(typeEntry.value, what: "type") else { return nil }
        guard let type = AttributeType(rawValue: typeName) else {
            r.error("unknown type '\(typeName)'", at: typeEntry.value,
                    hint: NameSuggestion.hint(for: typeName, in: AttributeType.allCases.map(\.rawValue))
                        ?? "types: \(AttributeType.allCases.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        var a = Attribute(name: name, type: type, location: r.location(keyNode))
        var minNode: Node?, minLengthNode: Node?, defaultNode: Node?
        a.keyLocations.reserveCapacity(entries.count)
        for (key, _, value) in entries {
            a.keyLocations[key] = r.location(value)
            switch key {
            case "min": minNode = value
            case "minLength": minLengthNode = value
            case "default": defaultNode = value
            default: break
            }
            switch key {
            case "optional": a.isOptional = r.bool(value, what: "optional") ?? true
            case "default": a.defaultValue = literal(value, type: type, what: "default", &r)
            case "min", "max":
                guard type.isOrdered else {
                    r.error("'\(key)' applies to numbers and dates, not \(type.rawValue)", at: value,
                            hint: type.isTextual ? "use minLength/maxLength for strings" : "remove '\(key)'")
                    continue
                }
                let v = literal(value, type: type, what: key, &r)
                if key == "min" { a.minValue = v } else { a.maxValue = v }
            case "minLength", "maxLength":
                guard type.isTextual || type == .binary else {
                    r.error("'\(key)' applies to strings and binary data, not \(type.rawValue)", at: value,
                            hint: type.isOrdered ? "use min/max for numbers and dates" : "remove '\(key)'")
                    continue
                }
                let v = r.int(value, what: key, minimum: 0)
                if key == "minLength" { a.minLength = v } else { a.maxLength = v }
            case "pattern":
                guard type.isTextual else {
                    r.error("'pattern' applies to strings, not \(type.rawValue)", at: value)
                    continue
                }
                guard let p = r.string(value, what: "pattern") else { continue }
                do { try MatchesRegex.check(p, caseInsensitive: false) } catch {
                    r.error("invalid regular expression '\(p)'", at: value, hint: "check brackets, parentheses and escapes")
                    continue
                }
                a.pattern = p
            case "renamedFrom": a.renamedFrom = r.string(value, what: "renamedFrom")
            case "indexed": a.isIndexed = r.bool(value, what: "indexed") ?? false
            case "column": a.column = r.string(value, what: "column")
            case "versionHashModifier": a.versionHashModifier = r.string(value, what: "versionHashModifier")
            case "userInfo": a.userInfo = r.stringMap(value, what: "userInfo") ?? [:]
            default: break
            }
        }
        if let lo = a.minValue, let hi = a.maxValue, AttributeRules.order(lo, hi) == 1 {
            r.error("min (\(lo)) is greater than max (\(hi))", at: minNode, hint: "swap them or fix one")
        }
        if let lo = a.minLength, let hi = a.maxLength, lo > hi {
            r.error("minLength (\(lo)) is greater than maxLength (\(hi))", at: minLengthNode, hint: "swap them or fix one")
        }
        if let d = a.defaultValue, let problem = AttributeRules.violation(of: a, by: d) {
            r.error("default \(d) breaks the attribute's own rule: \(problem)", at: defaultNode,
                    hint: "change the default or the rule")
        }
        return a
    }

    static func literal(_ node: Node, type: AttributeType, what: String, _ r: inout YAMLReader) -> Value? {
        guard case .scalar(let scalar) = node else {
            r.error("\(what) must be a single \(type.rawValue) value", at: node)
            return nil
        }
        if scalar.style == .plain && isNull(scalar.string) {
            r.error("\(what) cannot be null", at: node, hint: "remove '\(what)' for no \(what)")
            return nil
        }
        do {
            return try type.value(fromText: scalar.string)
        } catch {
            r.error("\(what) is not a valid \(type.rawValue): \(error.message)", at: node)
            return nil
        }
    }

    static func parseRelationship(_ name: String, keyNode: Node, body: Node, _ r: inout YAMLReader) -> Relationship? {
        guard let entries = r.entries(of: body, what: "relationship '\(name)'", allowed: relationshipKeys) else { return nil }
        guard let destEntry = entries.first(where: { $0.key == "destination" }),
              let destination = r.string(destEntry.value, what: "destination") else {
            if !entries.contains(where: { $0.key == "destination" }) {
                r.error("relationship '\(name)' has no destination", at: keyNode, hint: "add `destination: EntityName`")
            }
            return nil
        }
        var rel = Relationship(name: name, destination: destination, location: r.location(keyNode))
        var nodes: [String: Node] = [:]
        for (key, _, value) in entries {
            nodes[key] = value
            rel.keyLocations[key] = r.location(value)
            switch key {
            case "inverse": rel.inverse = r.string(value, what: "inverse")
            case "toMany": rel.isToMany = r.bool(value, what: "toMany") ?? false
            case "ordered": rel.isOrdered = r.bool(value, what: "ordered") ?? false
            case "deleteRule":
                guard let text = r.string(value, what: "deleteRule") else { continue }
                guard let rule = DeleteRule(rawValue: text) else {
                    r.error("unknown delete rule '\(text)'", at: value,
                            hint: NameSuggestion.hint(for: text, in: DeleteRule.allCases.map(\.rawValue))
                                ?? "delete rules: nullify, cascade, deny, noAction")
                    continue
                }
                rel.deleteRule = rule
            case "minCount": rel.minCount = r.int(value, what: "minCount", minimum: 0)
            case "maxCount": rel.maxCount = r.int(value, what: "maxCount", minimum: 0)
            case "optional": rel.isOptional = r.bool(value, what: "optional") ?? true
            case "renamedFrom": rel.renamedFrom = r.string(value, what: "renamedFrom")
            case "column": rel.column = r.string(value, what: "column")
            case "versionHashModifier": rel.versionHashModifier = r.string(value, what: "versionHashModifier")
            case "userInfo": rel.userInfo = r.stringMap(value, what: "userInfo") ?? [:]
            default: break
            }
        }
        if !rel.isToMany {
            for key in ["minCount", "maxCount", "ordered"] where nodes[key] != nil {
                r.error("'\(key)' applies to to-many relationships only", at: nodes[key], hint: "add `toMany: true` or remove '\(key)'")
            }
        } else if nodes["column"] != nil {
            r.error("'column' applies to to-one relationships only", at: nodes["column"])
        }
        if let lo = rel.minCount, let hi = rel.maxCount, lo > hi {
            r.error("minCount (\(lo)) is greater than maxCount (\(hi))", at: nodes["minCount"], hint: "swap them or fix one")
        }
        return rel
    }
}

func isNull(_ plain: String) -> Bool { ["", "~", "null", "Null", "NULL"].contains(plain) }
