/// An SQL identifier as SQLite compares identifiers: ASCII letters ignoring case, every other
/// character exactly (SQLite folds only ASCII). A set or dictionary key that needs no lowercased copy.
struct SQLName: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    @inline(__always) private static func fold(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte | 0x20 : byte
    }

    static func == (lhs: SQLName, rhs: SQLName) -> Bool {
        let a = lhs.text.utf8, b = rhs.text.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { fold($0) == fold($1) }
    }

    func hash(into hasher: inout Hasher) {
        var word: UInt64 = 0, filled: UInt64 = 0
        for byte in text.utf8 {
            word = word << 8 | UInt64(Self.fold(byte))
            filled += 1
            if filled == 8 { hasher.combine(word); word = 0; filled = 0 }
        }
        hasher.combine(word)
        hasher.combine(filled)
    }
}
