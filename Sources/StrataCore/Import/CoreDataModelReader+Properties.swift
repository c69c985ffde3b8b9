import Foundation

/// Attributes and relationships of one entity: types, optionality, defaults and bounds (dates from Core Data's
/// 2001 reference date), patterns, counts, delete rules, renaming identifiers, user info.
extension CoreDataModelReader {
    // MARK: - Attributes

    mutating func readAttribute(_ node: XMLNode, entity: String) -> ImportedAttribute? {
        guard let name = nonEmpty(node["name"]) else {
            refuse(node, "an <attribute> of entity '\(entity)' has no name")
            return nil
        }
        unknownAttributes(node, known: Self.attributeAttributes, entity, name, what: "<attribute>")
        let typeName = node["attributeType"] ?? "Undefined"
        if flag(node, "transient", entity, name) {
            note(entity, name, "transient attribute is not carried (it is never stored)")
            return nil
        }
        if flag(node, "derived", entity, name) {
            note(entity, name, "derived attribute is not carried (its value is computed by Core Data"
                 + (node["derivationExpression"].map { " from \($0)" } ?? "") + ")")
            return nil
        }
        if typeName == "Composite" {
            note(entity, name, "composite attribute is not carried (composite attributes are not supported)")
            return nil
        }
        guard let type = Self.types[typeName] else {
            // Undefined (only valid on transients) and ObjectID (fetched ObjectIDs) are types Core Data has; any other
            // name is one Xcode's model compiler refuses, or a newer Xcode's that Strata does not know.
            if typeName == "Undefined" || typeName == "ObjectID" {
                note(entity, name, "attribute type '\(typeName)' is not carried (Strata has no such stored type)")
            } else {
                refuse(node, "attribute '\(entity).\(name)' has an unknown attributeType '\(typeName)'")
            }
            return nil
        }
        var a = ImportedAttribute(name: name, type: type)
        a.isOptional = flag(node, "optional", entity, name)
        a.isIndexed = flag(node, "indexed", entity, name)
        a.renamingIdentifier = renamingIdentifier(node)
        a.versionHashModifier = nonEmpty(node["versionHashModifier"])
        for child in node.children {
            if child.name == "userInfo" { a.userInfo = readUserInfo(child) }
            else { note(entity, name, "unknown element <\(child.name)> at line \(child.line): skipped") }
        }
        if typeName == "Transformable" {
            addUserInfo(&a.userInfo, "attributeType", "Transformable", entity, name)
            if let t = nonEmpty(node["valueTransformerName"]) { addUserInfo(&a.userInfo, "valueTransformerName", t, entity, name) }
        }
        if let c = nonEmpty(node["customClassName"]) { addUserInfo(&a.userInfo, "customClassName", c, entity, name) }
        if flag(node, "allowsExternalBinaryDataStorage", entity, name) {
            note(entity, name, "allowsExternalBinaryDataStorage is not carried (Strata stores binary data in the row)")
        }
        readBounds(node, into: &a, entity: entity)
        if let regex = node["regularExpressionString"], !regex.isEmpty {
            if !type.isTextual {
                note(entity, name, "regular expression on a \(typeName) attribute is not carried (patterns apply to strings)")
            } else if (try? MatchesRegex.check(regex, caseInsensitive: false)) == nil {
                note(entity, name, "regular expression '\(regex)' is not carried (invalid pattern)")
            } else {
                a.pattern = regex
            }
        }
        readDefault(node, typeName: typeName, into: &a, entity: entity)
        return a
    }

    mutating func readBounds(_ node: XMLNode, into a: inout ImportedAttribute, entity: String) {
        let minText = node["minDateTimeInterval"] ?? node["minValueString"]
        let maxText = node["maxDateTimeInterval"] ?? node["maxValueString"]
        guard minText?.isEmpty == false || maxText?.isEmpty == false else { return }
        if a.type.isTextual || a.type == .binary {
            func length(_ text: String?, _ what: String) -> Int? {
                guard let text, !text.isEmpty else { return nil }
                guard let n = Int(text.trimmingCharacters(in: .whitespaces)), n >= 0 else {
                    note(entity, a.name, "\(what) length '\(text)' is not carried (not a length)")
                    return nil
                }
                return n
            }
            a.minLength = length(minText, "minimum")
            a.maxLength = length(maxText, "maximum")
            if let lo = a.minLength, let hi = a.maxLength, lo > hi {
                note(entity, a.name, "length bounds \(lo)…\(hi) are not carried (minimum above maximum)")
                a.minLength = nil; a.maxLength = nil
            }
        } else if a.type.isOrdered {
            a.minValue = minText.flatMap { literal($0, a.type, entity, a.name, what: "minimum") }
            a.maxValue = maxText.flatMap { literal($0, a.type, entity, a.name, what: "maximum") }
            if let lo = a.minValue, let hi = a.maxValue, AttributeRules.order(lo, hi) == 1 {
                note(entity, a.name, "bounds \(shown(a.minValue!, a.type))…\(shown(a.maxValue!, a.type)) are not carried (minimum above maximum)")
                a.minValue = nil; a.maxValue = nil
            }
        } else {
            note(entity, a.name, "minimum/maximum on a \(node["attributeType"] ?? "?") attribute is not carried")
        }
    }

    mutating func readDefault(_ node: XMLNode, typeName: String, into a: inout ImportedAttribute, entity: String) {
        guard let text = node["defaultDateTimeInterval"] ?? node["defaultValueString"] else { return }
        if a.type == .binary {
            note(entity, a.name, "default '\(text)' of a \(typeName) attribute is not carried (binary data has no default literal)")
            return
        }
        guard let value = literal(text, a.type, entity, a.name, what: "default") else { return }
        var check = Attribute(name: a.name, type: a.type, isOptional: a.isOptional)
        check.minValue = a.minValue
        check.maxValue = a.maxValue
        check.minLength = a.minLength
        check.maxLength = a.maxLength
        check.pattern = a.pattern
        var problem = AttributeRules.violation(of: check, by: value)
        if a.type == .date, let v = value.doubleValue {   // the bound as a date, not seconds since 1970
            if let min = a.minValue, let lo = min.doubleValue, v < lo { problem = "less than min \(shown(min, .date))" }
            if let max = a.maxValue, let hi = max.doubleValue, v > hi { problem = "greater than max \(shown(max, .date))" }
        }
        if let problem {
            note(entity, a.name, "default '\(text)' is not carried (it breaks the attribute's own rule: \(problem))")
            return
        }
        a.defaultValue = value
    }

    /// A literal of the attribute's type; dates are seconds since 2001. Invalid literals are noted, never fatal.
    mutating func literal(_ text: String, _ type: AttributeType, _ entity: String, _ property: String, what: String) -> Value? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if type == .date {
            guard let seconds = Double(trimmed), seconds.isFinite else {
                note(entity, property, "\(what) '\(text)' is not carried (not a date: Core Data writes seconds since 2001-01-01)")
                return nil
            }
            // ISO 8601 literals read back exactly from 1583 (the first whole Gregorian year; before it the
            // date parser switches to the Julian calendar) to 9999: other dates are listed, not carried.
            let value = seconds + Self.referenceDate
            guard value >= -12_212_553_600, value < 253_402_300_800 else {
                note(entity, property, "\(what) '\(text)' is not carried (the date is outside years 1583–9999)")
                return nil
            }
            return .real(value)
        }
        // `1e5` and `70000.0` are whole numbers too: read as the integer they name, then checked like `70000`.
        var integer: String?
        if type.isInteger, Int64(trimmed) == nil, let d = Double(trimmed), let n = Int64(exactly: d) { integer = String(n) }
        do { return try type.value(fromText: integer ?? text) } catch {
            note(entity, property, "\(what) '\(text)' is not carried (not a valid \(type.rawValue): \(error.message))")
            return nil
        }
    }

    /// A value as a note shows it: a date as ISO 8601, as the model file writes it (not seconds since 1970).
    func shown(_ value: Value, _ type: AttributeType) -> String {
        if type == .date, let seconds = value.doubleValue { return ImportYAMLWriter.iso8601(seconds) }
        return "\(value)"
    }

    // MARK: - Relationships

    mutating func readRelationship(_ node: XMLNode, entity: String) -> ImportedRelationship? {
        guard let name = nonEmpty(node["name"]) else {
            refuse(node, "a <relationship> of entity '\(entity)' has no name")
            return nil
        }
        unknownAttributes(node, known: Self.relationshipAttributes, entity, name, what: "<relationship>")
        if flag(node, "transient", entity, name) {
            note(entity, name, "transient relationship is not carried (it is never stored)")
            return nil
        }
        guard let destination = nonEmpty(node["destinationEntity"]) else {
            refuse(node, "relationship '\(entity).\(name)' has no destinationEntity")
            return nil
        }
        var r = ImportedRelationship(name: name, destination: destination)
        r.xmlLine = node.line
        r.xmlColumn = node.column
        r.inverse = nonEmpty(node["inverseName"])
        r.isToMany = flag(node, "toMany", entity, name)
        let isOrdered = flag(node, "ordered", entity, name)
        r.isOrdered = r.isToMany && isOrdered
        r.isOptional = flag(node, "optional", entity, name)
        if r.isToMany {
            let minCount = count(node, "minCount", entity, name)
            let maxCount = count(node, "maxCount", entity, name)
            r.minCount = minCount > 0 ? minCount : nil
            r.maxCount = maxCount > 0 ? maxCount : nil
            if let lo = r.minCount, let hi = r.maxCount, lo > hi {
                note(entity, name, "counts \(lo)…\(hi) are not carried (minimum above maximum)")
                r.minCount = nil; r.maxCount = nil
            }
        }
        switch (node["deletionRule"] ?? "Nullify").replacingOccurrences(of: " ", with: "").lowercased() {
        case "nullify": r.deleteRule = .nullify
        case "cascade": r.deleteRule = .cascade
        case "deny": r.deleteRule = .deny
        case "noaction": r.deleteRule = .noAction
        default: note(entity, name, "delete rule '\(node["deletionRule"] ?? "")' is unknown: imported as nullify")
        }
        if flag(node, "indexed", entity, name) && r.isToMany {
            note(entity, name, "index over a to-many relationship is not carried (a to-many has no column to index)")
        }   // a to-one's column is always indexed (its foreign-key index)
        r.renamingIdentifier = renamingIdentifier(node)
        r.versionHashModifier = nonEmpty(node["versionHashModifier"])
        for child in node.children {
            if child.name == "userInfo" { r.userInfo = readUserInfo(child) }
            else { note(entity, name, "unknown element <\(child.name)> at line \(child.line): skipped") }
        }
        return r
    }

    /// `minCount`/`maxCount` of a to-many: absent or 0 is no bound; a value that is not a whole number from 0 is
    /// listed and read as 0.
    mutating func count(_ node: XMLNode, _ key: String, _ entity: String, _ property: String) -> Int {
        guard let text = node[key] else { return 0 }
        guard let n = Int(text.trimmingCharacters(in: .whitespaces)), n >= 0 else {
            note(entity, property, "\(key)=\"\(text)\" is not a count: read as 0 (no bound)")
            return 0
        }
        return n
    }
}
