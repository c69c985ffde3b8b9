import Foundation

/// An imported model → the text of `models/<N>.yaml` (SPEC §2): one line per property, in the XML's order,
/// defaults left out (optional: true, deleteRule: nullify), so diffs between imported versions read naturally.
enum ImportYAMLWriter {
    static func yaml(_ model: ImportedModel, version: Int, sourceName: String) -> String {
        var out = "# Imported from \(sourceName) by `strata import coredata`.\n"
        out += "version: \(version)\n"
        if model.entities.isEmpty { return out + "entities: {}\n" }
        out += "entities:\n"
        for e in model.entities {
            out += "  \(key(e.name)):"
            var lines: [String] = []
            if let p = e.parent { lines.append("parent: \(scalar(p))") }
            if e.isAbstract { lines.append("abstract: true") }
            if let r = e.renamedFrom { lines.append("renamedFrom: \(scalar(r))") }
            if let v = e.versionHashModifier { lines.append("versionHashModifier: \(quoted(v))") }
            if let t = e.table { lines.append("table: \(scalar(t))") }
            if lines.isEmpty && e.attributes.isEmpty && e.relationships.isEmpty && e.uniqueness.isEmpty
                && e.indexes.isEmpty && e.userInfo.isEmpty {
                out += " {}\n"
                continue
            }
            out += "\n"
            for line in lines { out += "    \(line)\n" }
            if !e.attributes.isEmpty {
                out += "    attributes:\n"
                for a in e.attributes { out += "      \(key(a.name)): \(flow(attributeFields(a)))\n" }
            }
            if !e.relationships.isEmpty {
                out += "    relationships:\n"
                for r in e.relationships { out += "      \(key(r.name)): \(flow(relationshipFields(r)))\n" }
            }
            if !e.uniqueness.isEmpty { out += "    uniqueness: \(lists(e.uniqueness))\n" }
            if !e.indexes.isEmpty { out += "    indexes: \(lists(e.indexes))\n" }
            if !e.userInfo.isEmpty { out += "    userInfo: \(userInfo(e.userInfo))\n" }
        }
        return out
    }

    static func attributeFields(_ a: ImportedAttribute) -> [(String, String)] {
        var f: [(String, String)] = [("type", a.type.rawValue)]
        if !a.isOptional { f.append(("optional", "false")) }
        if let d = a.defaultValue { f.append(("default", literal(d, a.type))) }
        if let v = a.minValue { f.append(("min", literal(v, a.type))) }
        if let v = a.maxValue { f.append(("max", literal(v, a.type))) }
        if let v = a.minLength { f.append(("minLength", String(v))) }
        if let v = a.maxLength { f.append(("maxLength", String(v))) }
        if let p = a.pattern { f.append(("pattern", quoted(p))) }
        if a.isIndexed { f.append(("indexed", "true")) }
        if let c = a.column { f.append(("column", scalar(c))) }
        if let r = a.renamedFrom { f.append(("renamedFrom", scalar(r))) }
        if let v = a.versionHashModifier { f.append(("versionHashModifier", quoted(v))) }
        if !a.userInfo.isEmpty { f.append(("userInfo", userInfo(a.userInfo))) }
        return f
    }

    static func relationshipFields(_ r: ImportedRelationship) -> [(String, String)] {
        var f: [(String, String)] = [("destination", scalar(r.destination))]
        if let i = r.inverse { f.append(("inverse", scalar(i))) }
        if r.isToMany { f.append(("toMany", "true")) }
        if r.isOrdered { f.append(("ordered", "true")) }
        if !r.isOptional { f.append(("optional", "false")) }
        if let v = r.minCount { f.append(("minCount", String(v))) }
        if let v = r.maxCount { f.append(("maxCount", String(v))) }
        if r.deleteRule != .nullify { f.append(("deleteRule", r.deleteRule.rawValue)) }
        if let c = r.column { f.append(("column", scalar(c))) }
        if let n = r.renamedFrom { f.append(("renamedFrom", scalar(n))) }
        if let v = r.versionHashModifier { f.append(("versionHashModifier", quoted(v))) }
        if !r.userInfo.isEmpty { f.append(("userInfo", userInfo(r.userInfo))) }
        return f
    }

    /// A value in the literal form the loader reads back for `type` (dates as ISO 8601, binary as base64).
    static func literal(_ value: Value, _ type: AttributeType) -> String {
        switch (type, value) {
        case (.bool, .integer(let i)): return i == 0 ? "false" : "true"
        case (.date, .real(let seconds)): return quoted(iso8601(seconds))
        case (_, .integer(let i)): return String(i)
        case (_, .real(let d)):
            let text = d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
            return isNumber(text) ? text : quoted(text)
        case (.decimal, .text(let s)): return isNumber(s) ? s : quoted(s)
        case (_, .text(let s)): return scalar(s)
        case (_, .blob(let b)): return quoted(Data(b).base64EncodedString())
        case (_, .null): return quoted("")
        }
    }

    /// `2024-05-05T00:00:00Z` (milliseconds when the value, to the millisecond, has a fraction): `DateText.format`, by
    /// arithmetic (a formatter per date cost 0.7 s of the 117-version benchmark).
    static func iso8601(_ seconds: Double) -> String { DateText.format((seconds * 1000).rounded() / 1000) }

    static func flow(_ fields: [(String, String)]) -> String {
        "{ " + fields.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + " }"
    }

    static func lists(_ lists: [[String]]) -> String {
        "[" + lists.map { "[" + $0.map(scalar).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
    }

    static func userInfo(_ entries: [(key: String, value: String)]) -> String {
        var seen: Set<String> = []
        let unique = entries.filter { seen.insert($0.key).inserted }
        return "{ " + unique.map { "\(scalar($0.key)): \(quoted($0.value))" }.joined(separator: ", ") + " }"
    }

    /// A mapping key: plain when it is a simple name, quoted otherwise.
    static func key(_ name: String) -> String { scalar(name) }

    /// Plain for names (`[A-Za-z][A-Za-z0-9_]*`) that YAML would not read as a boolean or null, else double-quoted.
    static func scalar(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }),
              !reservedWords.contains(text.lowercased()) else { return quoted(text) }
        return text
    }

    static let reservedWords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf"]

    static func isNumber(_ text: String) -> Bool {
        var s = Substring(text)
        if s.first == "-" { s = s.dropFirst() }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return !s.isEmpty && parts.count <= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
    }

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
