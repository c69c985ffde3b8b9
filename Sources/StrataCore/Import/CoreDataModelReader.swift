import Foundation

/// One Core Data model XML tree → the values Strata writes, plus everything it cannot carry.
///
/// Semantics follow the XML Xcode writes (every Xcode since 4): a boolean XML attribute that is absent
/// is `NO` (Xcode writes `optional="YES"` on optional properties and nothing on mandatory ones), the
/// delete rule defaults to Nullify, the "Renaming ID" is `elementID`, `maxCount` is unbounded when absent or 0, and dates are seconds
/// since 2001-01-01T00:00:00Z.
struct CoreDataModelReader {
    struct Note: Sendable {
        var entity: String?
        var property: String?
        var reason: String
    }

    /// What Xcode's model compiler refuses (an entity without a name, two properties of one name, a destination
    /// that is not in the model, …): exit 2 at the element, nothing written.
    struct Problem: Sendable {
        var line: Int
        var column: Int
        var message: String
    }

    private(set) var notes: [Note] = []
    private(set) var problems: [Problem] = []

    static let modelAttributes: Set<String> = [
        "name", "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion",
        "sourceLanguage", "userDefinedModelVersionIdentifier", "iOSVersion", "macOSVersion", "usedWithCloudKit",
        "usedWithSwiftData",
    ]
    static let entityAttributes: Set<String> = [
        "name", "representedClassName", "parentEntity", "isAbstract", "syncable", "codeGenerationType",
        "versionHashModifier", "renamingIdentifier", "elementID", "className",
    ]
    static let attributeAttributes: Set<String> = [
        "name", "optional", "attributeType", "defaultValueString", "defaultDateTimeInterval", "minValueString",
        "maxValueString", "minDateTimeInterval", "maxDateTimeInterval", "regularExpressionString", "indexed",
        "transient", "derived", "derivationExpression", "valueTransformerName", "customClassName", "renamingIdentifier",
        "versionHashModifier", "usesScalarValueType", "allowsExternalBinaryDataStorage", "preserveAfterDeletion",
        "preserveValueOnDeletionInPersistentHistory", "syncable", "spotlightIndexingEnabled", "storedInTruthFile",
        "elementID", "allowsCloudEncryption", "composite",
    ]
    static let relationshipAttributes: Set<String> = [
        "name", "optional", "toMany", "ordered", "minCount", "maxCount", "deletionRule", "destinationEntity",
        "inverseName", "inverseEntity", "renamingIdentifier", "versionHashModifier", "syncable", "transient",
        "elementID", "spotlightIndexingEnabled", "storedInTruthFile", "indexed",
    ]
    /// Core Data's attribute type names → Strata's types (Transformable is binary, see `readAttribute`).
    static let types: [String: AttributeType] = [
        "Integer 16": .int16, "Integer 32": .int32, "Integer 64": .int64, "Decimal": .decimal, "Double": .double,
        "Float": .float, "String": .string, "Boolean": .bool, "Date": .date, "Binary": .binary, "Binary Data": .binary,
        "UUID": .uuid, "URI": .uri, "Transformable": .binary,
    ]
    /// Seconds from 1970-01-01 to Core Data's reference date, 2001-01-01T00:00:00Z.
    static let referenceDate: Double = 978_307_200

    mutating func read(_ root: XMLNode) -> ImportedModel {
        var model = ImportedModel()
        unknownAttributes(root, known: Self.modelAttributes, nil, nil, what: "<model>")
        var entityLines: [String: Int] = [:]
        for child in root.children {
            switch child.name {
            case "entity":
                if let entity = readEntity(child) {
                    if let first = entityLines[entity.name] {
                        refuse(child, "a second entity named '\(entity.name)' (the first is at line \(first))")
                    } else {
                        entityLines[entity.name] = child.line
                        model.entities.append(entity)
                    }
                }
            case "elements": break   // Xcode's diagram layout
            case "fetchRequest":
                note(child["entity"], nil, "fetch request '\(child["name"] ?? "?")' is not carried (fetch requests are application code)")
            case "configuration":
                note(nil, nil, "configuration '\(child["name"] ?? "?")' is not carried (every entity is imported into one store)")
            case "composite":
                note(nil, child["name"], "composite type '\(child["name"] ?? "?")' is not carried (composite attributes are not supported)")
            default:
                note(nil, nil, "unknown element <\(child.name)> at line \(child.line): skipped")
            }
        }
        resolveConstraints(&model)
        separateCaseClashes(&model)
        return model
    }

    /// Core Data names are case-sensitive, SQLite's are not: a property whose column would equal another's
    /// ignoring case (`URL` and `url`) gets `column: url_2`; a root entity whose table would, `table: Name_2`.
    func separateCaseClashes(_ model: inout ImportedModel) {
        func free(_ base: String, _ taken: inout Set<String>) -> String {
            var n = 2
            while taken.contains("\(base)_\(n)".lowercased()) { n += 1 }
            taken.insert("\(base)_\(n)".lowercased())
            return "\(base)_\(n)"
        }
        var tables = Set(model.entities.filter { $0.parent == nil }.map { $0.name.lowercased() })
        var seenTables: Set<String> = []
        for i in model.entities.indices {
            var e = model.entities[i]
            if e.parent == nil, !seenTables.insert(e.name.lowercased()).inserted { e.table = free(e.name, &tables) }
            var taken = Set(e.attributes.map { $0.name.lowercased() } + e.relationships.filter { !$0.isToMany }.map { $0.name.lowercased() })
            var seen: Set<String> = []
            for j in e.attributes.indices where !seen.insert(e.attributes[j].name.lowercased()).inserted {
                e.attributes[j].column = free(e.attributes[j].name, &taken)
            }
            for j in e.relationships.indices where !e.relationships[j].isToMany && !seen.insert(e.relationships[j].name.lowercased()).inserted {
                e.relationships[j].column = free(e.relationships[j].name, &taken)
            }
            model.entities[i] = e
        }
    }

    // MARK: - Entities

    mutating func readEntity(_ node: XMLNode) -> ImportedEntity? {
        guard let name = node["name"], !name.isEmpty else {
            refuse(node, "an <entity> has no name")
            return nil
        }
        unknownAttributes(node, known: Self.entityAttributes, name, nil, what: "<entity>")
        var entity = ImportedEntity(name: name)
        entity.xmlLine = node.line
        entity.xmlColumn = node.column
        entity.parent = node["parentEntity"].flatMap { $0.isEmpty ? nil : $0 }
        entity.isAbstract = flag(node, "isAbstract", name, nil)
        entity.renamingIdentifier = renamingIdentifier(node)
        entity.versionHashModifier = nonEmpty(node["versionHashModifier"])
        var propertyLines: [String: Int] = [:]
        for child in node.children {
            // Two properties of one name are refused whatever they are (transient ones too), as Xcode does.
            if child.name == "attribute" || child.name == "relationship", let property = nonEmpty(child["name"]) {
                if let first = propertyLines[property] {
                    refuse(child, "a second property named '\(property)' in entity '\(name)' (the first is at line \(first))")
                    continue
                }
                propertyLines[property] = child.line
            }
            switch child.name {
            case "attribute":
                if let a = readAttribute(child, entity: name) { entity.attributes.append(a) }
            case "relationship":
                if let r = readRelationship(child, entity: name) { entity.relationships.append(r) }
            case "fetchedProperty":
                note(name, child["name"], "fetched property is not carried (it is a stored fetch request, not data)")
            case "fetchIndex":
                if let list = readFetchIndex(child, entity: name) { entity.indexes.append(list) }
            case "compoundIndexes":
                for compound in child.children where compound.name == "compoundIndex" {
                    let list = compound.children.filter { $0.name == "index" }.compactMap { $0["value"] }
                    if !list.isEmpty { entity.indexes.append(list) }
                }
            case "uniquenessConstraints":
                for constraint in child.children where constraint.name == "uniquenessConstraint" {
                    let list = constraint.children.filter { $0.name == "constraint" }.compactMap { $0["value"] }
                    if !list.isEmpty { entity.uniqueness.append(list) }
                }
            case "userInfo": entity.userInfo = readUserInfo(child)
            default:
                note(name, nil, "unknown element <\(child.name)> at line \(child.line): skipped")
            }
        }
        return entity
    }

    mutating func readFetchIndex(_ node: XMLNode, entity: String) -> [String]? {
        let indexName = node["name"] ?? "?"
        var list: [String] = []
        for element in node.children where element.name == "fetchIndexElement" {
            if (element["type"] ?? "Binary").lowercased() == "rtree" {
                note(entity, nil, "fetch index '\(indexName)' is an R-tree index: not carried (SQLite indexes are B-trees)")
                return nil
            }
            guard let property = nonEmpty(element["property"]) else {
                note(entity, nil, "fetch index '\(indexName)' indexes an expression: not carried (indexes name stored properties)")
                return nil
            }
            if element["order"]?.lowercased() == "descending" {
                note(entity, property, "descending order in fetch index '\(indexName)' is not carried (the index is kept, ascending; SQLite reads it both ways)")
            }
            list.append(property)
        }
        return list.isEmpty ? nil : list
    }

    func readUserInfo(_ node: XMLNode) -> [(key: String, value: String)] {
        node.children.filter { $0.name == "entry" }.compactMap { entry in
            guard let key = entry["key"] else { return nil }
            return (key, entry["value"] ?? "")
        }
    }

    // MARK: - Model-wide checks

    /// Indexes and uniqueness constraints keep only lists Strata can declare (stored attributes and to-one
    /// relationships of the entity or its ancestors); abstract entities need sub-entities; destinations and
    /// parents must exist (else a `Problem`).
    mutating func resolveConstraints(_ model: inout ImportedModel) {
        let byName = Dictionary(model.entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for i in model.entities.indices {
            var e = model.entities[i]
            if let parent = e.parent, byName[parent] == nil {
                refuse(line: e.xmlLine, column: e.xmlColumn, "the parent entity '\(parent)' of '\(e.name)' is not in the model")
                e.parent = nil
            }
            e.relationships.removeAll { r in
                guard byName[r.destination] == nil else { return false }
                refuse(line: r.xmlLine, column: r.xmlColumn, "the destination entity '\(r.destination)' of relationship '\(e.name).\(r.name)' is not in the model")
                return true
            }
            model.entities[i] = e
        }
        let entities = Dictionary(model.entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let parents = Set(model.entities.compactMap(\.parent))
        for i in model.entities.indices {
            var e = model.entities[i]
            var lineage: [ImportedEntity] = []
            var seen: Set<String> = []
            var current: String? = e.name
            while let c = current, let entity = entities[c], seen.insert(c).inserted { lineage.append(entity); current = entity.parent }
            let attributes = Set(lineage.flatMap { $0.attributes.map(\.name) })
            let toOnes = Set(lineage.flatMap { $0.relationships.filter { !$0.isToMany }.map(\.name) })
            let toManys = Set(lineage.flatMap { $0.relationships.filter(\.isToMany).map(\.name) })
            func keep(_ list: [String], kind: String, allowToOne: Bool) -> Bool {
                for name in list where !attributes.contains(name) && !(allowToOne && toOnes.contains(name)) {
                    let why = toManys.contains(name) ? "'\(name)' is a to-many relationship"
                        : toOnes.contains(name) ? "'\(name)' is a relationship"
                        : "'\(name)' is not a stored attribute of '\(e.name)'"
                    note(e.name, name, "\(kind) [\(list.joined(separator: ", "))] is not carried (\(why))")
                    return false
                }
                return true
            }
            var indexes: [[String]] = []
            for list in e.indexes where keep(list, kind: "index", allowToOne: true) && !indexes.contains(list) {
                if list.count == 1, e.attributes.first(where: { $0.name == list[0] })?.isIndexed == true { continue }
                indexes.append(list)
            }
            e.indexes = indexes
            var uniqueness: [[String]] = []
            for list in e.uniqueness where keep(list, kind: "uniqueness constraint", allowToOne: true) && !uniqueness.contains(list) {
                uniqueness.append(list)
            }
            e.uniqueness = uniqueness
            if e.isAbstract && !parents.contains(e.name) {
                note(e.name, nil, "abstract entity without sub-entities: imported as a concrete entity")
                e.isAbstract = false
            }
            model.entities[i] = e
        }
    }

    // MARK: - Helpers

    mutating func addUserInfo(_ info: inout [(key: String, value: String)], _ key: String, _ value: String,
                                      _ entity: String, _ property: String) {
        if info.contains(where: { $0.key == key }) {
            note(entity, property, "\(key) '\(value)' is not carried (the user info already has an entry '\(key)')")
        } else {
            info.append((key, value))
        }
    }

    mutating func unknownAttributes(_ node: XMLNode, known: Set<String>, _ entity: String?, _ property: String?, what: String) {
        for key in node.attributes.keys.sorted() where !known.contains(key) {
            note(entity, property, "unknown XML attribute \(key)=\"\(node.attributes[key]!)\" on \(what) at line \(node.line): skipped")
        }
    }

    /// A `YES`/`NO` XML attribute; absent is `NO` (as Xcode writes it), and so is a value that is neither, listed.
    mutating func flag(_ node: XMLNode, _ key: String, _ entity: String?, _ property: String?) -> Bool {
        if let flag = node.flag(key) { return flag }
        if let text = node[key] { note(entity, property, "\(key)=\"\(text)\" is not YES or NO: read as NO") }
        return false
    }

    mutating func note(_ entity: String?, _ property: String?, _ reason: String) {
        notes.append(Note(entity: entity, property: property, reason: reason))
    }

    mutating func refuse(_ node: XMLNode, _ message: String) { refuse(line: node.line, column: node.column, message) }

    mutating func refuse(line: Int, column: Int, _ message: String) {
        problems.append(Problem(line: line, column: column, message: message))
    }

    /// Xcode writes the inspector's "Renaming ID" as `elementID`; `renamingIdentifier` (the API's name) is read too.
    func renamingIdentifier(_ node: XMLNode) -> String? {
        nonEmpty(node["elementID"]) ?? nonEmpty(node["renamingIdentifier"])
    }

    func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
