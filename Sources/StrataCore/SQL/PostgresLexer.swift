/// Which characters of a user's PostgreSQL text are code, and which are inside string constants (`'…'`,
/// `E'…'` with backslash escapes), quoted identifiers, dollar quotes (`$$…$$`, `$tag$…$tag$`), `--` comments
/// or nested `/* */` comments. Pure. The one reading of that text Strata has: the statement splitter cuts at
/// the semicolons it calls code, a stage's arguments are bound at the placeholders it calls code.
///
/// The state carries over from one call to the next, so a text given in pieces (an `SQLText`'s text around
/// bound values) is read as one.
///
/// ```swift
/// var lexer = PostgresLexer()
/// let text = Array("SELECT ';' ; $$;$$".unicodeScalars)
/// lexer.scan(text) { i in text[i] == ";" ? print(i) : (); return 0 }   // prints 11
/// ```
public struct PostgresLexer: Sendable {
    public enum State: Equatable, Sendable {
        case normal, string, escapedString, identifier, lineComment
        case blockComment(depth: Int)
        case dollar(tag: String)
    }

    public private(set) var state = State.normal

    public init() {}

    /// Walks `characters`, calling `code(i)` at each scalar of code (outside constants, identifiers, dollar
    /// quotes and comments, and not opening one): it returns how many scalars from `i` it takes as its own
    /// token (skipped by the lexer), or 0 to let the lexer read the scalar.
    public mutating func scan(_ characters: [Unicode.Scalar], code: (Int) throws -> Int) rethrows {
        var i = 0
        while i < characters.count {
            let c = characters[i]
            let next: Unicode.Scalar? = i + 1 < characters.count ? characters[i + 1] : nil
            switch state {
            case .normal:
                let taken = try code(i)
                if taken > 0 { i += taken; continue }
                let previous: Unicode.Scalar? = i > 0 ? characters[i - 1] : nil
                if c == "'" {
                    let beforeE = i > 1 ? characters[i - 2] : nil
                    state = (previous == "E" || previous == "e") && !(beforeE.map(Self.isWord) ?? false) ? .escapedString : .string
                } else if c == "\"" {
                    state = .identifier
                } else if c == "-", next == "-" {
                    state = .lineComment
                } else if c == "/", next == "*" {
                    state = .blockComment(depth: 1)
                    i += 2
                    continue
                } else if c == "$", !(previous.map(Self.isWord) ?? false), let tag = Self.dollarTag(characters, at: i) {
                    state = .dollar(tag: tag)
                    i += tag.unicodeScalars.count
                    continue
                }
            case .string:
                if c == "'" { if next == "'" { i += 2; continue } else { state = .normal } }
            case .escapedString:
                if c == "\\", next != nil { i += 2; continue }
                if c == "'" { if next == "'" { i += 2; continue } else { state = .normal } }
            case .identifier:
                if c == "\"" { state = .normal }
            case .lineComment:
                if c == "\n" { state = .normal }
            case .blockComment(let depth):
                if c == "*", next == "/" {
                    state = depth == 1 ? .normal : .blockComment(depth: depth - 1)
                    i += 2
                    continue
                }
                if c == "/", next == "*" {
                    state = .blockComment(depth: depth + 1)
                    i += 2
                    continue
                }
            case .dollar(let tag):
                if c == "$", let closing = Self.dollarTag(characters, at: i), closing == tag {
                    state = .normal
                    i += tag.unicodeScalars.count
                    continue
                }
            }
            i += 1
        }
    }

    /// A letter, digit or `_`: a character of an identifier or keyword.
    public static func isWord(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic || ("0"..."9").contains(c) }

    /// `$tag$` starting at `i` (the tag may be empty, never starts with a digit), or nil.
    public static func dollarTag(_ characters: [Unicode.Scalar], at i: Int) -> String? {
        var j = i + 1
        while j < characters.count, characters[j] != "$" {
            guard isWord(characters[j]), !(j == i + 1 && ("0"..."9").contains(characters[j])) else { return nil }
            j += 1
        }
        guard j < characters.count else { return nil }
        return String(String.UnicodeScalarView(characters[i...j]))
    }
}
