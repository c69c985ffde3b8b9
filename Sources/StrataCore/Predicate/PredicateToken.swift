/// One token of a predicate string.
struct PredicateToken: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// A name: a key, a keyword (matched case-insensitively by the parser), or a `#`-escaped name.
        case identifier(String, escaped: Bool)
        /// A run of digits: its exact magnitude (up to 2^63, which only a leading minus makes an int64).
        case integer(UInt64, text: String)
        case real(Double, text: String)
        case string(String)
        /// `$NAME`
        case variable(String)
        /// `%@`
        case valueArgument
        /// `%K`
        case keyArgument
        /// `@count`, `@sum`, … (without the `@`)
        case aggregate(String)
        /// Punctuation and operators: `==`, `!=`, `<=`, `&&`, `(`, `{`, `[`, `.`, `,`, `+`, …
        case symbol(String)
        case end
    }

    var kind: Kind
    /// 0-based offset of the token's first character, in Unicode scalars.
    var offset: Int
    /// How many scalars the token spans in the source.
    var length: Int

    var isEnd: Bool { kind == .end }

    /// How the token reads in a message.
    var display: String {
        switch kind {
        case .identifier(let name, let escaped): return escaped ? "#" + name : name
        case .integer(_, let text), .real(_, let text): return text
        case .string(let s): return "\"" + s + "\""
        case .variable(let name): return "$" + name
        case .valueArgument: return "%@"
        case .keyArgument: return "%K"
        case .aggregate(let name): return "@" + name
        case .symbol(let s): return s
        case .end: return "end of predicate"
        }
    }

    /// The identifier's name in upper case when it is an unescaped identifier (for keyword tests).
    var keyword: String? {
        if case .identifier(let name, false) = kind { return name.uppercased() }
        return nil
    }

    func isSymbol(_ s: String) -> Bool { kind == .symbol(s) }
}
