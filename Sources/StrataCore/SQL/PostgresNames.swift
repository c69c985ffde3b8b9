/// PostgreSQL's naming rules as Strata applies them (SPEC §14.2). Pure.
///
/// PostgreSQL keeps the first 63 bytes of an identifier and silently drops the rest, so two long names
/// could become one. Strata never lets that happen: a table or column name over 63 bytes is an error
/// naming it (the model fixes it with `table:` or `column:`), and the names Strata makes itself (indexes,
/// constraints) are shortened in a way that keeps them distinct and is recorded in the layout.
///
/// ```swift
/// PostgresNames.shortened("strata_idx_Recipe_name")      // unchanged: 22 bytes
/// PostgresNames.shortened(String(repeating: "x", count: 70))   // 54 × "x" + "_" + 8 hex digits
/// ```
public enum PostgresNames {
    /// The longest identifier PostgreSQL keeps whole (`NAMEDATALEN - 1`).
    public static let maxBytes = 63

    /// Whether `name` fits PostgreSQL's identifier length.
    public static func fits(_ name: String) -> Bool { name.utf8.count <= maxBytes }

    /// An index or constraint name that fits: `name` itself when it does, else its first 54 bytes (never
    /// splitting a character) + `_` + the first 8 hex digits of SHA-256 of the full name.
    public static func shortened(_ name: String) -> String {
        guard !fits(name) else { return name }
        var prefix = ""
        var bytes = 0
        for character in name {
            let size = String(character).utf8.count
            if bytes + size > 54 { break }
            prefix.append(character)
            bytes += size
        }
        return prefix + "_" + String(SHA256.hex(name).prefix(8))
    }

    /// The key of the advisory locks a run takes on a schema: the first 8 bytes of
    /// SHA-256(`strata:` + schema), read as a big-endian signed 64-bit integer.
    public static func advisoryLockKey(schema: String) -> Int64 {
        let digest = SHA256.digest(Array(("strata:" + schema).utf8))
        var key: UInt64 = 0
        for byte in digest.prefix(8) { key = key << 8 | UInt64(byte) }
        return Int64(bitPattern: key)
    }
}
