import Foundation

/// Attributes and relationships of one entity: types, optionality, defaults and bounds (dates from Core Data's
/// 2001 reference date), patterns, counts, delete rules, renaming identifiers, user info.
extension CoreDataModelReader {
    // MARK: - Attributes

    mutating func readAttribute(_ node: XMLNode, entity: String) -> ImportedAttribute? {
        guard let name = nonEmpty(node["name"]) else {
            note(entity, nil, "an <attribute> without a name at line \(node.line): skipped")
            return nil
        }
        unknownAttributes(node, known: Self.attributeAttributes, entity, name, what: "<attribute>")
        let typeName = node["attributeType"] ?? "Undefined"
        if node.flag("transient") == true {
            note(entity, name, "transient attribute is not carried (it is never stored)")
            return nil
        }
        if node.flag("derived") == true {
            note(entity, name, "derived attribute is not carried (its value is computed by Core Data"
                 + (node["derivationExpression"].map { " from \($0)" } ?? "") + ")")
            return nil
        }
        if typeName == "Composite" {
            note(entity, name, "composite attribute is not carried (composite attributes are not supported)")
            return nil
        }
        guard let type = Self.types[typeName] else {
            note(entity, name, "attribute type '\(typeName)' is not carried (Strata has no such stored type)")
            return nil
        }
        var a = ImportedAttribute(name: name, type: type)
        a.isOptional = node.flag("optional") ?? false
        a.isIndexed = node.flag("indexed") ?? false
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
        if node.flag("allowsExternalBinaryDataStorage") == true {
            note(entity, name, "allowsExternalBinaryDataStorage is not carried (Strata stores binary data in the row)")
        }
        readBounds(node, into: &a, entity: entity)
        if let regex = node["regularExpressionString"], !regex.isEmpty {
            if !type.isTextual {
                note(entity, name, "regular expression on a \(typeName) attribute is not carried (patterns apply to strings)")
            } else if (try? NSRegularExpression(pattern: regex)) == nil {
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
            if let lo = a.minValue?.doubleValue, let hi = a.maxValue?.doubleValue, lo > hi {
                note(entity, a.name, "bounds \(a.minValue!)…\(a.maxValue!) are not carried (minimum above maximum)")
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
        if let problem = AttributeRules.violation(of: check, by: value) {
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
        if type.isInteger, Int64(trimmed) == nil, let d = Double(trimmed), d == d.rounded(), abs(d) < 9e18 {
            return try? type.value(fromText: String(Int64(d)))
        }
        do { return try type.value(fromText: text) } catch {
            note(entity, property, "\(what) '\(text)' is not carried (not a valid \(type.rawValue): \(error.message))")
            return nil
        }
    }

    // MARK: - Relationships

    mutating func readRelationship(_ node: XMLNode, entity: String) -> ImportedRelationship? {
        guard let name = nonEmpty(node["name"]) else {
            note(entity, nil, "a <relationship> without a name at line \(node.line): skipped")
            return nil
        }
        unknownAttributes(node, known: Self.relationshipAttributes, entity, name, what: "<relationship>")
        if node.flag("transient") == true {
            note(entity, name, "transient relationship is not carried (it is never stored)")
            return nil
        }
        guard let destination = nonEmpty(node["destinationEntity"]) else {
            note(entity, name, "relationship without a destination entity is not carried")
            return nil
        }
        var r = ImportedRelationship(name: name, destination: destination)
        r.inverse = nonEmpty(node["inverseName"])
        r.isToMany = node.flag("toMany") ?? false
        r.isOrdered = r.isToMany && (node.flag("ordered") ?? false)
        r.isOptional = node.flag("optional") ?? false
        if r.isToMany {
            let minCount = Int(node["minCount"] ?? "") ?? 0
            let maxCount = Int(node["maxCount"] ?? "") ?? 0
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
        if node.flag("indexed") == true && r.isToMany {
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
}
