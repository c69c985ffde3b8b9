/// A recognizer of plain regular expressions that ICU certainly accepts, so that checking a model's `pattern`
/// or a hook's `MATCHES` literal need not compile it.
///
/// The first ICU regular expression a process compiles builds ICU's static sets first: 7.8 M instructions, about
/// 2 ms of every command whose models have a `pattern` (callgrind and `Benchmarks/small_command.py` on the
/// example, whose `Chef.email` has one: 15.2 → 13.1 ms over `strata --version`, Docs/performance.md). A
/// command that never matches a value (a migration without an audit, `status`, `diff`) then pays for the check
/// alone. This grammar is a strict subset of ICU's: literals, `.`, `^`, `$`, the escapes `\d \D \w \W \s \S` and
/// escaped metacharacters, bracket classes of single characters and ranges, groups `(…)` and `(?:…)`,
/// alternation, and the quantifiers `* + ? {n} {n,} {n,m}` with an optional lazy `?` or possessive `+`. Anything
/// else (non-ASCII, flags, look-around, Unicode properties, nested sets, empty branches…) is left to ICU, so a
/// pattern this does not recognize is compiled exactly as before. `PlainRegexTests` checks every pattern it
/// accepts among 50,000 random ones against ICU, whole and wrapped as `MatchesRegex.compile` wraps it.
enum PlainRegex {
    /// Whether `pattern` is in the plain subset (and so valid for ICU alone and wrapped in `\A(?:…)\z`).
    static func isCertainlyValid(_ pattern: String) -> Bool {
        var scanner = Scanner(bytes: Array(pattern.utf8))
        guard scanner.bytes.count <= 1_000, scanner.alternation(depth: 0) else { return false }
        return scanner.index == scanner.bytes.count
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// `seq ('|' seq)*`, each branch non-empty.
        mutating func alternation(depth: Int) -> Bool {
            guard depth <= 32 else { return false }
            repeat {
                guard sequence(depth: depth) else { return false }
            } while take(ascii: "|")
            return true
        }

        /// One or more items, stopping before `|` or `)`.
        mutating func sequence(depth: Int) -> Bool {
            var items = 0
            while let byte = peek, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
                if byte == UInt8(ascii: "^") || byte == UInt8(ascii: "$") {
                    index += 1   // an anchor takes no quantifier
                    if let next = peek, Self.quantifierStarts.contains(next) { return false }
                } else {
                    guard atom(depth: depth) else { return false }
                    if let next = peek, Self.quantifierStarts.contains(next) {
                        guard quantifier() else { return false }
                        if let after = peek, Self.quantifierStarts.contains(after) { return false }
                    }
                }
                items += 1
            }
            return items > 0
        }

        mutating func atom(depth: Int) -> Bool {
            guard let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "("):
                index += 1
                if take(ascii: "?") {
                    guard take(ascii: ":") else { return false }
                }
                return alternation(depth: depth + 1) && take(ascii: ")")
            case UInt8(ascii: "["):
                index += 1
                return bracketClass()
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = peek, Self.escapes.contains(escaped) else { return false }
                index += 1
                return true
            case UInt8(ascii: "."):
                index += 1
                return true
            default:
                guard Self.isLiteral(byte) else { return false }
                index += 1
                return true
            }
        }

        /// `* + ? {n} {n,} {n,m}` (n ≤ m ≤ 1000), then an optional `?` or `+`.
        mutating func quantifier() -> Bool {
            if take(ascii: "{") {
                guard let low = number() else { return false }
                if take(ascii: ",") {
                    if let high = number(), high < low { return false }
                }
                guard take(ascii: "}") else { return false }
            } else {
                index += 1   // `*`, `+` or `?`
            }
            _ = take(ascii: "?") || take(ascii: "+")
            return true
        }

        mutating func number() -> Int? {
            var value = 0, digits = 0
            while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 4 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            return digits > 0 && value <= 1_000 ? value : nil
        }

        /// After `[`: an optional `^`, then single characters, ranges `a-z` (low ≤ high) and the class escapes,
        /// with `-` allowed first or last; `]`.
        mutating func bracketClass() -> Bool {
            _ = take(ascii: "^")
            var items = 0
            if take(ascii: "-") { items += 1 }
            while let byte = peek, byte != UInt8(ascii: "]") {
                if byte == UInt8(ascii: "-") {
                    index += 1
                    guard peek == UInt8(ascii: "]") else { return false }   // a trailing `-`
                    items += 1
                    continue
                }
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    guard let escaped = peek, Self.classEscapes.contains(escaped) else { return false }
                    index += 1
                    items += 1
                    continue
                }
                guard Self.isClassCharacter(byte) else { return false }
                index += 1
                if peek == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "]") {
                    let high = bytes[index + 1]
                    guard Self.isClassCharacter(high), high >= byte else { return false }
                    index += 2
                }
                items += 1
            }
            return items > 0 && take(ascii: "]")
        }

        mutating func take(ascii: Unicode.Scalar) -> Bool {
            guard peek == UInt8(ascii: ascii) else { return false }
            index += 1
            return true
        }

        static let quantifierStarts: Set<UInt8> = Set("*+?{".utf8)
        static let escapes: Set<UInt8> = Set("dDwWsS.\\/-^$|?*+()[]{}tnr".utf8)
        static let classEscapes: Set<UInt8> = Set("dDwWs\\]-.tnr".utf8)

        /// Printable ASCII that stands for itself outside a class.
        static func isLiteral(_ byte: UInt8) -> Bool {
            byte >= 0x20 && byte < 0x7F && !"\\^$.|?*+()[]{}#".utf8.contains(byte)
        }

        /// Printable ASCII that stands for itself inside a class (ICU's set syntax gives `[ ] - ^ & $ : { }` and
        /// `\` meanings there).
        static func isClassCharacter(_ byte: UInt8) -> Bool {
            byte >= 0x20 && byte < 0x7F && !"\\[]-^&$:{}#".utf8.contains(byte)
        }
    }
}
