/// Splits a predicate string into tokens. Offsets count Unicode scalars, as `SourceLocation` columns do.
struct PredicateLexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// All tokens, ending with `.end`.
    static func tokenize(_ text: String) throws(PredicateSyntaxError) -> [PredicateToken] {
        var lexer = PredicateLexer(text)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.isEnd { return tokens }
        }
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic
    }

    private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        isIdentifierStart(c) || ("0"..."9").contains(c)
    }

    private static func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { ("0"..."9").contains($0) } ?? false }

    private mutating func next() throws(PredicateSyntaxError) -> PredicateToken {
        while let c = peek(), c.properties.isWhitespace { position += 1 }
        let start = position
        guard let c = peek() else { return PredicateToken(kind: .end, offset: start, length: 0) }
        func token(_ kind: PredicateToken.Kind) -> PredicateToken {
            PredicateToken(kind: kind, offset: start, length: position - start)
        }

        if Self.isIdentifierStart(c) {
            let name = readName()
            return token(.identifier(name, escaped: false))
        }
        if Self.isDigit(c) || (c == "." && Self.isDigit(peek(1))) {
            return try readNumber(start: start)
        }
        switch c {
        case "\"", "'":
            return token(.string(try readString(quote: c, start: start)))
        case "$":
            position += 1
            guard let n = peek(), Self.isIdentifierStart(n) else {
                throw PredicateSyntaxError("expected a variable name after '$'", offset: start, length: 1,
                                           hint: "variables look like $NOW or $CUTOFF")
            }
            return token(.variable(readName()))
        case "#":
            position += 1
            guard let n = peek(), Self.isIdentifierStart(n) else {
                throw PredicateSyntaxError("expected a key after '#'", offset: start, length: 1,
                                           hint: "'#' escapes a key that is a reserved word, as in #index")
            }
            return token(.identifier(readName(), escaped: true))
        case "@":
            position += 1
            guard let n = peek(), Self.isIdentifierStart(n) else {
                throw PredicateSyntaxError("expected an aggregate after '@'", offset: start, length: 1,
                                           hint: "use @count, @sum, @avg, @min or @max")
            }
            return token(.aggregate(readName().lowercased()))
        case "%":
            position += 1
            switch peek() {
            case "@": position += 1; return token(.valueArgument)
            case "K", "k": position += 1; return token(.keyArgument)
            default:
                throw PredicateSyntaxError("unknown format specifier", offset: start, length: 1,
                                           hint: "use %@ for a value or %K for a key path")
            }
        default:
            break
        }
        let two = peek(1).map { String(c) + String($0) }
        if let two, ["==", "!=", "<>", "<=", ">=", "=>", "=<", "&&", "||"].contains(two) {
            position += 2
            return token(.symbol(two))
        }
        if "=<>!(){}[],.+-*/".unicodeScalars.contains(c) {
            position += 1
            return token(.symbol(String(c)))
        }
        throw PredicateSyntaxError("unexpected character '\(c)'", offset: start, length: 1,
                                   hint: "strings need quotes, as in name == \"Soup\"")
    }

    private mutating func readName() -> String {
        var name = ""
        while let c = peek(), Self.isIdentifierPart(c) { name.unicodeScalars.append(c); position += 1 }
        return name
    }

    private mutating func readNumber(start: Int) throws(PredicateSyntaxError) -> PredicateToken {
        var text = ""
        var isReal = false
        while let c = peek(), Self.isDigit(c) { text.unicodeScalars.append(c); position += 1 }
        if peek() == ".", Self.isDigit(peek(1)) {
            isReal = true
            text += "."
            position += 1
            while let c = peek(), Self.isDigit(c) { text.unicodeScalars.append(c); position += 1 }
        }
        if let e = peek(), e == "e" || e == "E",
           Self.isDigit(peek(1)) || ((peek(1) == "-" || peek(1) == "+") && Self.isDigit(peek(2))) {
            isReal = true
            text.unicodeScalars.append(e)
            position += 1
            if let sign = peek(), sign == "-" || sign == "+" { text.unicodeScalars.append(sign); position += 1 }
            while let c = peek(), Self.isDigit(c) { text.unicodeScalars.append(c); position += 1 }
        }
        let length = position - start
        if !isReal {
            // Integers stay exact: never read through a Double. 2^63 is kept for `-9223372036854775808`.
            guard let magnitude = UInt64(text), magnitude <= UInt64(Int64.max) + 1 else {
                throw PredicateSyntaxError("integer \(text) is out of the 64-bit range", offset: start, length: length,
                                           hint: "integers run from -9223372036854775808 to 9223372036854775807; write \(text).0 for a real number")
            }
            return PredicateToken(kind: .integer(magnitude, text: text), offset: start, length: length)
        }
        guard let d = Double(text), d.isFinite else {
            throw PredicateSyntaxError("number '\(text)' is out of range", offset: start, length: length)
        }
        return PredicateToken(kind: .real(d, text: text), offset: start, length: length)
    }

    private mutating func readString(quote: Unicode.Scalar, start: Int) throws(PredicateSyntaxError) -> String {
        position += 1
        var value = ""
        while true {
            guard let c = peek() else {
                throw PredicateSyntaxError("unterminated string", offset: start, length: 1,
                                           hint: "close the string with \(quote)")
            }
            position += 1
            if c == quote { return value }
            if c == "\\" {
                guard let escaped = peek() else { continue }
                position += 1
                switch escaped {
                case "n": value += "\n"
                case "t": value += "\t"
                case "r": value += "\r"
                case "0": value += "\0"
                default: value.unicodeScalars.append(escaped)
                }
            } else {
                value.unicodeScalars.append(c)
            }
        }
    }
}

/// A syntax or type error before it is placed in a file: a message at an offset inside the predicate.
struct PredicateSyntaxError: Error, Sendable {
    var message: String
    var offset: Int
    var length: Int
    var hint: String?

    init(_ message: String, offset: Int, length: Int = 1, hint: String? = nil) {
        self.message = message
        self.offset = offset
        self.length = length
        self.hint = hint
    }
}
