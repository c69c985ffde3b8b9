/// Splits a user's PostgreSQL text (an expanded `sql:` step) into statements at top-level semicolons, and
/// names the statement classes Strata refuses there (SPEC §11.4, §14.2). Pure.
///
/// Semicolons inside string constants (`'…'`, `E'…'` with backslash escapes), quoted identifiers, dollar
/// quotes (`$$…$$`, `$tag$…$tag$`), `--` comments and nested `/* */` comments do not split. Names and bound
/// values Strata put in (identifier and value pieces) stay whole. Empty statements are dropped.
///
/// ```swift
/// let parts = PostgresStatementSplitter.split("UPDATE t SET a = ';'; SELECT $$;$$")
/// parts.map(\.sql)   // ["UPDATE t SET a = ';'", " SELECT $$;$$"]
/// ```
public enum PostgresStatementSplitter {
    /// The statements of `text`, without their terminating semicolons.
    public static func split(_ text: SQLText) -> [SQLText] {
        var statements: [SQLText] = []
        var current = SQLText()
        var state = State.normal
        for piece in text.pieces {
            guard case .text(let string) = piece else { current.append(piece); continue }
            var chunk = ""
            let characters = Array(string.unicodeScalars)
            var i = 0
            while i < characters.count {
                let c = characters[i]
                let next: Unicode.Scalar? = i + 1 < characters.count ? characters[i + 1] : nil
                switch state {
                case .normal:
                    if c == ";" {
                        current.append(.text(chunk))
                        chunk = ""
                        statements.append(current)
                        current = SQLText()
                        i += 1
                        continue
                    }
                    if c == "'" {
                        let previous = chunk.unicodeScalars.last
                        state = (previous == "E" || previous == "e") && !(chunk.unicodeScalars.dropLast().last.map(isWord) ?? false)
                            ? .escapedString : .string
                    } else if c == "\"" {
                        state = .identifier
                    } else if c == "-", next == "-" {
                        state = .lineComment
                    } else if c == "/", next == "*" {
                        state = .blockComment(depth: 1)
                        chunk.unicodeScalars.append(contentsOf: [c, next!])
                        i += 2
                        continue
                    } else if c == "$", !(chunk.unicodeScalars.last.map(isWord) ?? false), let tag = dollarTag(characters, at: i) {
                        state = .dollar(tag: tag)
                        chunk += tag
                        i += tag.unicodeScalars.count
                        continue
                    }
                case .string:
                    if c == "'" { if next == "'" { chunk += "''"; i += 2; continue } else { state = .normal } }
                case .escapedString:
                    if c == "\\", let next { chunk.unicodeScalars.append(contentsOf: [c, next]); i += 2; continue }
                    if c == "'" { if next == "'" { chunk += "''"; i += 2; continue } else { state = .normal } }
                case .identifier:
                    if c == "\"" { state = .normal }
                case .lineComment:
                    if c == "\n" { state = .normal }
                case .blockComment(let depth):
                    if c == "*", next == "/" {
                        state = depth == 1 ? .normal : .blockComment(depth: depth - 1)
                        chunk += "*/"
                        i += 2
                        continue
                    }
                    if c == "/", next == "*" {
                        state = .blockComment(depth: depth + 1)
                        chunk += "/*"
                        i += 2
                        continue
                    }
                case .dollar(let tag):
                    if c == "$", let closing = dollarTag(characters, at: i), closing == tag {
                        state = .normal
                        chunk += tag
                        i += tag.unicodeScalars.count
                        continue
                    }
                }
                chunk.unicodeScalars.append(c)
                i += 1
            }
            current.append(.text(chunk))
        }
        statements.append(current)
        return statements.filter { leadingKeyword($0) != nil }
    }

    enum State: Equatable {
        case normal, string, escapedString, identifier, lineComment
        case blockComment(depth: Int)
        case dollar(tag: String)
    }

    static func isWord(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic || ("0"..."9").contains(c) }

    /// `$tag$` starting at `i` (the tag may be empty), or nil.
    static func dollarTag(_ characters: [Unicode.Scalar], at i: Int) -> String? {
        var j = i + 1
        while j < characters.count, characters[j] != "$" {
            guard isWord(characters[j]), !(j == i + 1 && ("0"..."9").contains(characters[j])) else { return nil }
            j += 1
        }
        guard j < characters.count else { return nil }
        return String(String.UnicodeScalarView(characters[i...j]))
    }

    /// The statement's first word, upper-cased, after white space and comments; nil for an empty statement.
    public static func leadingKeyword(_ statement: SQLText) -> String? {
        var text = ""
        for piece in statement.pieces {
            guard case .text(let string) = piece else { text += " x"; break }
            text += string
        }
        let utf8 = text.utf8
        let start = SQLStep.skippingSpaceAndComments(in: utf8, from: utf8.startIndex)
        let word = text[start...].prefix { $0.isLetter || $0 == "_" }
        if word.isEmpty { return start == text.endIndex ? nil : "" }
        return word.uppercased()
    }

    /// Leading keywords refused in a PostgreSQL `sql:` step, with the class they belong to (SPEC §11.4):
    /// transaction control and savepoints, session settings (PostgreSQL's pragmas), maintenance and loading code.
    public static let refused: [String: String] = [
        "BEGIN": "transaction control", "START": "transaction control", "COMMIT": "transaction control",
        "END": "transaction control", "ROLLBACK": "transaction control", "ABORT": "transaction control",
        "PREPARE": "transaction control", "SAVEPOINT": "a savepoint", "RELEASE": "a savepoint",
        "SET": "a session setting", "RESET": "a session setting", "DISCARD": "a session setting",
        "VACUUM": "VACUUM", "CHECKPOINT": "maintenance", "CLUSTER": "maintenance", "LOAD": "loading code",
    ]
}
