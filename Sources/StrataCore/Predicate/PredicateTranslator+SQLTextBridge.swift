/// The boundary between the expression functions (built as `SQLText`) and the translator's
/// `SQLFragment`s, until the predicate code itself is `SQLText` (issue 13 item 1).
extension PredicateTranslator {
    static func fragment(_ text: SQLText) -> SQLFragment { SQLFragment(text.sql, text.arguments) }

    static func text(_ typed: Typed) -> SQLText { text(typed.fragment) }

    /// A fragment's text split at its `?` placeholders (outside quoted names and string literals),
    /// each bound to its value in order.
    static func text(_ fragment: SQLFragment) -> SQLText {
        var pieces: [SQLText.Piece] = []
        var current = ""
        var quote: Character?
        var values = fragment.arguments.makeIterator()
        for c in fragment.sql {
            if let q = quote {
                current.append(c)
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
                current.append(c)
            } else if c == "?", let value = values.next() {
                pieces.append(.text(current))
                pieces.append(.value(value))
                current = ""
            } else {
                current.append(c)
            }
        }
        pieces.append(.text(current))
        return SQLText(pieces: pieces)
    }
}
