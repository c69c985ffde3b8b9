import Foundation

/// Expressions a mapping model stores archived (`valueexpressiondata`, `sourceexpressiondata`: base64 of a keyed
/// archive of an NSExpression) written back in NSExpression's text form, so they translate like the text ones.
extension CoreDataExpression {
    /// The text form of an archived expression, or nil when the archive cannot be read.
    static func archivedText(base64: String) -> String? {
        let compact = base64.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact),
              let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any],
              let objects = plist["$objects"] as? [Any], let top = plist["$top"] as? [String: Any],
              let root = top["root"].flatMap(uid) else { return nil }
        var archive = Archive(objects: objects)
        return archive.expression(root)
    }

    /// An archive's reference to an object of `$objects`.
    static func uid(_ value: Any) -> Int? {
        if let d = value as? [String: Any], let n = d["CF$UID"] as? Int { return n }
        // swift-corelibs-foundation: `_NSKeyedArchiverUID` with a stored `value`.
        for child in Mirror(reflecting: value).children where child.label == "value" {
            if let n = child.value as? UInt32 { return Int(n) }
            if let n = child.value as? Int { return n }
            if let n = child.value as? UInt64 { return Int(exactly: n) }
        }
        // Apple's Foundation: the UID prints as `<CFKeyedArchiverUID …>{value = N}`.
        let text = String(describing: value)
        guard text.contains("UID"), let r = text.range(of: "value = ") else { return nil }
        return Int(text[r.upperBound...].prefix { $0.isASCIIDigit })
    }

    struct Archive {
        var objects: [Any]
        /// Nesting left (a hostile archive cannot recurse without end).
        var depth = 64

        func object(_ reference: Any?) -> Any? {
            guard let reference, let n = CoreDataExpression.uid(reference), n > 0, n < objects.count else { return nil }
            return objects[n]
        }

        func string(_ reference: Any?) -> String? { object(reference) as? String }

        func array(_ reference: Any?) -> [Any]? {
            (object(reference) as? [String: Any])?["NS.objects"] as? [Any]
        }

        mutating func expression(_ index: Int) -> String? {
            guard index > 0, index < objects.count, let o = objects[index] as? [String: Any] else { return nil }
            return expression(o)
        }

        mutating func expression(reference: Any?) -> String? {
            guard let reference, let n = CoreDataExpression.uid(reference) else { return nil }
            return expression(n)
        }

        static let operators = ["add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/"]

        mutating func expression(_ o: [String: Any]) -> String? {
            guard depth > 0 else { return nil }
            depth -= 1
            defer { depth += 1 }
            switch o["NSExpressionType"] as? Int {
            case 0:
                guard let value = object(o["NSConstantValue"]) else { return "nil" }
                if let s = value as? String { return Token.string(s).text }
                if let n = value as? NSNumber { return n.stringValue }
                if let d = value as? [String: Any], let s = d["NS.string"] as? String { return Token.string(s).text }
                return nil
            case 1: return "SELF"
            case 2: return string(o["NSVariable"]).map { "$" + $0 }
            case 3: return string(o["NSKeyPath"])
            case 4:
                guard let selector = string(o["NSSelectorName"]) else { return nil }
                var arguments: [String] = []
                for a in array(o["NSArguments"]) ?? [] {
                    guard let text = expression(reference: a) else { return nil }
                    arguments.append(text)
                }
                let operand = o["NSOperand"].flatMap { expression(reference: $0) }
                if selector == "valueForKeyPath:", let operand, arguments.count == 1 { return operand + "." + arguments[0] }
                if let symbol = Self.operators[selector], arguments.count == 2 { return "(\(arguments[0]) \(symbol) \(arguments[1]))" }
                if let operand, operand.hasPrefix("$") {
                    return "FUNCTION(\(([operand, Token.string(selector).text] + arguments).joined(separator: ", ")))"
                }
                return selector + "(" + arguments.joined(separator: ", ") + ")"
            case 50:
                guard let request = expression(reference: o["NSFRExpression"]) else { return nil }
                let context = expression(reference: o["NSMOCExpression"]) ?? "$manager.sourceContext"
                return "FETCH(\(request), \(context), NO)"
            default: return nil
            }
        }
    }
}
