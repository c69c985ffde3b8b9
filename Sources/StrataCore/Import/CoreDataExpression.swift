import Foundation

/// The NSExpression texts of a Core Data mapping model, translated into Strata's mapping-file terms
/// (SPEC §12): `$source.<key>` is the expression `<key>`, the migration manager's
/// `destinationInstancesFor…` functions re-link a relationship (or link the object made from the same
/// source row), and `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", E, P), …)`
/// is the source entity E with the filter P. Anything else is not translated.
enum CoreDataExpression {
    enum Translation: Equatable {
        /// `$source.title` → `title` (a to-one key path stays a key path: `author.name`).
        case keyPath(String)
        /// An expression over the source row (`price * 100`), to be checked against the models.
        case expression(String)
        /// `FUNCTION($manager, "destinationInstancesFor…:sourceInstances:", "M", $source.r)`: the objects that
        /// the source relationship `r` reached, as carried.
        case relink(String)
        /// The same function over `$source` itself: the object made from the same source row.
        case sameSource
        /// Not translated (the reason).
        case untranslatable(String)
    }

    static let relinkSelectors: Set<String> = [
        "destinationInstancesForEntityMappingNamed:sourceInstances:", "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
    ]
    static let fetchSelector = "fetchRequestForSourceEntityNamed:predicateString:"

    /// A property mapping's value expression.
    static func translate(_ text: String) -> Translation {
        let tokens = Token.scan(text)
        guard let tokens else { return .untranslatable("the expression cannot be read (an unclosed string)") }
        // FUNCTION($manager, "destinationInstancesFor…", "M", $source[.r])
        if tokens.count >= 9, tokens[0] == .word("FUNCTION"), tokens[1] == .symbol("("), tokens[2] == .variable("manager"),
           case .string(let selector) = tokens[4], relinkSelectors.contains(selector), tokens.last == .symbol(")") {
            let argument = Array(tokens[7..<(tokens.count - 1)])
            guard tokens[5] == .symbol(","), tokens[6].isString, argument.first == .symbol(",") else {
                return .untranslatable("an unexpected call of \(selector)")
            }
            let value = Array(argument.dropFirst())
            if value == [.variable("source")] { return .sameSource }
            if value.count == 3, value[0] == .variable("source"), value[1] == .symbol("."), case .word(let r) = value[2] { return .relink(r) }
            return .untranslatable("\(selector) over something other than $source or a relationship of it")
        }
        if tokens.count == 3, tokens[0] == .variable("source"), tokens[1] == .symbol("."), case .word(let key) = tokens[2] {
            return .keyPath(key)
        }
        var out = ""
        var index = 0
        var previous: Token?
        while index < tokens.count {
            let token = tokens[index]
            defer { previous = token }
            if let p = previous, p.isOperand || p == .variable("source"), token.isOperand || token == .variable("source") { out += " " }
            switch token {
            case .variable("source"):
                guard index + 2 < tokens.count, tokens[index + 1] == .symbol("."), case .word(let key) = tokens[index + 2] else {
                    return .untranslatable("$source is used as a value")
                }
                out += key
                index += 3
                continue
            case .variable(let name): return .untranslatable("$\(name) has no equivalent in a mapping file")
            case .word(let w) where ["FUNCTION", "FETCH", "SUBQUERY", "SELF", "CAST"].contains(w.uppercased()):
                return .untranslatable("\(w) has no equivalent in a mapping file")
            case .symbol(let s) where [":", "@", "{", "}", "[", "]", "%", "#"].contains(s):
                return .untranslatable("'\(s)' (a Foundation function, aggregate or format argument) has no equivalent in a mapping file")
            default: out += token.text
            }
            index += 1
        }
        return out.isEmpty ? .untranslatable("an empty expression") : .expression(out)
    }

    /// An entity mapping's source fetch: the entity and the predicate (nil for `TRUEPREDICATE`), or nil when
    /// it is not the fetch Xcode writes.
    static func sourceFetch(_ text: String) -> (entity: String, predicate: String?)? {
        guard let tokens = Token.scan(text), let at = tokens.firstIndex(of: .string(fetchSelector)),
              at + 4 < tokens.count, tokens[at + 1] == .symbol(","), case .string(let entity) = tokens[at + 2],
              tokens[at + 3] == .symbol(","), case .string(let text) = tokens[at + 4] else { return nil }
        return (entity, predicate(text))
    }

    /// A filter predicate: nil when it keeps every row.
    static func predicate(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty || trimmed.uppercased() == "TRUEPREDICATE" ? nil : trimmed
    }

    /// The pieces of NSExpression's text form, enough to recognise the shapes above.
    enum Token: Equatable {
        case word(String)
        case variable(String)
        case string(String)
        case number(String)
        case symbol(String)
        /// The token as written back (strings in double quotes).
        var text: String {
            switch self {
            case .word(let w), .number(let w): return w
            case .variable(let v): return "$" + v
            case .symbol(let s): return s == "," ? ", " : ["+", "-", "*", "/", "==", "!=", "<", ">", "<=", ">="].contains(s) ? " \(s) " : s
            case .string(let s):
                // Scalar by scalar: a quote or backslash a combining mark follows is one `Character` with it.
                var text = "\""
                for scalar in s.unicodeScalars {
                    if scalar == "\"" || scalar == "\\" { text += "\\" }
                    text.unicodeScalars.append(scalar)
                }
                return text + "\""
            }
        }
        var isString: Bool { if case .string = self { return true } else { return false } }
        var isOperand: Bool {
            switch self {
            case .word, .string, .number: return true
            default: return false
            }
        }

        /// nil when a string is not closed.
        static func scan(_ text: String) -> [Token]? {
            var tokens: [Token] = []
            let chars = Array(text.unicodeScalars)
            var i = 0
            func isName(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || c == "_" || ("0"..."9").contains(c) }
            while i < chars.count {
                let c = chars[i]
                if c.properties.isWhitespace { i += 1; continue }
                if c == "\"" || c == "'" {
                    var s = String.UnicodeScalarView()
                    i += 1
                    while i < chars.count, chars[i] != c {
                        if chars[i] == "\\", i + 1 < chars.count { i += 1 }
                        s.append(chars[i]); i += 1
                    }
                    guard i < chars.count else { return nil }
                    tokens.append(.string(String(s))); i += 1
                } else if c == "$" {
                    var j = i + 1
                    while j < chars.count, isName(chars[j]) { j += 1 }
                    tokens.append(.variable(String(String.UnicodeScalarView(chars[(i + 1)..<j])))); i = j
                } else if ("0"..."9").contains(c) {
                    var j = i
                    while j < chars.count, ("0"..."9").contains(chars[j]) || chars[j] == "." { j += 1 }
                    tokens.append(.number(String(String.UnicodeScalarView(chars[i..<j])))); i = j
                } else if isName(c) {
                    var j = i
                    while j < chars.count, isName(chars[j]) { j += 1 }
                    tokens.append(.word(String(String.UnicodeScalarView(chars[i..<j])))); i = j
                } else {
                    let two = i + 1 < chars.count ? String(String.UnicodeScalarView([c, chars[i + 1]])) : ""
                    if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) { tokens.append(.symbol(two)); i += 2 }
                    else { tokens.append(.symbol(String(c))); i += 1 }
                }
            }
            return tokens
        }
    }
}
