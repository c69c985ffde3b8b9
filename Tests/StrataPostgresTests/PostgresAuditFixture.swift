import Foundation
import StrataCore
@testable import StrataPostgres
import StrataTestSupport

/// One model and twelve items filled the same way into a SQLite and a PostgreSQL store, for comparing
/// their audits: lengths in Characters (combining marks, emoji with a skin tone, flags, CR LF), a
/// pattern, bounds, mandatory values, duplicates, a to-many maxCount and a validation predicate.
enum PostgresAuditFixture {
    static let modelYAML = """
        version: 1
        entities:
          Item:
            attributes:
              code:  { type: string, minLength: 2, maxLength: 3 }
              label: { type: string, pattern: "[A-Z][a-z]*" }
              size:  { type: int16, min: 1, max: 10 }
              price: { type: decimal, min: 0.5 }
              done:  { type: bool, optional: false }
              seen:  { type: date, optional: false }
            relationships:
              parts: { destination: Part, toMany: true, inverse: item, maxCount: 2 }
            uniqueness: [[code]]
            validation:
              - predicate: "size != 7"
                message: no sevens
          Part:
            attributes:
              name: { type: string, optional: false }
            relationships:
              item: { destination: Item, inverse: parts, deleteRule: nullify }
        """

    /// A directory with the model file, and the history loaded from it.
    static func models() throws -> (directory: String, history: ModelHistory) {
        let directory = Temporary.directory("pgaudit-models")
        try modelYAML.write(toFile: directory + "/1.yaml", atomically: true, encoding: .utf8)
        return (directory, try ModelHistory.load(directory: directory))
    }

    struct Item {
        var code: String?
        var label: String?
        var size: Int?
        var price: String?
        var done: Bool?
        var seen: Double?
    }

    /// Items p1…p12. Codes: p2 "a" too short (ASCII, in SQL), p3 "abcd" too long (in SQL), p4 "é" as e +
    /// combining acute (1 Character), p6 CR LF (1 Character), p7 "ab⏎c" and p8, p11, p12 (4 Characters)
    /// too long, counted in Swift; p5 👍🏽x and p10 🇫🇷🇩🇪 fit (2 Characters, 3 and 4 code points).
    static let items: [Item] = [
        Item(code: "ab", label: "Apple", size: 3, price: "1.5", done: true, seen: 1_000_000_000),
        Item(code: "a", label: "apple", size: 11, price: "0.25", done: nil, seen: nil),
        Item(code: "abcd", label: "Bé", size: 7, price: "2", done: false, seen: 1_000_000_000.5),
        Item(code: "e\u{301}", label: "Ok", size: 2, price: "2", done: true, seen: 0),
        Item(code: "👍🏽x", label: "Ok", size: 2, price: "2", done: true, seen: 0),
        Item(code: "\r\n", label: "Ok", size: 2, price: "2", done: true, seen: 0),
        Item(code: "ab\r\nc", label: "Ok", size: 2, price: "2", done: true, seen: 0),
        Item(code: "éééé", label: "Ok", size: 2, price: "2", done: true, seen: 0),
        Item(code: "ab", label: "Ok", size: 0, price: "2", done: true, seen: 0),
        Item(code: "🇫🇷🇩🇪", label: "O", size: 2, price: "2", done: true, seen: 0),
        Item(code: "a\u{301}b\u{301}c\u{301}d", label: nil, size: nil, price: nil, done: true, seen: 0),
        Item(code: "éééé", label: "Ok", size: 2, price: "2", done: true, seen: 0),
    ]

    /// Parts: three of p1 (maxCount 2), one of p2 without a name, one loose.
    static let parts: [(name: String?, item: Int?)] = [("x", 1), ("y", 1), ("z", 1), (nil, 2), ("loose", nil)]

    enum Engine { case sqlite, postgresql }

    struct Failure: Error { var reason: String }

    /// A string literal; CR and LF as `char(13)`/`chr(13)` concatenations.
    static func literal(_ s: String?, _ engine: Engine) -> String {
        guard let s else { return "NULL" }
        let chr = engine == .sqlite ? "char" : "chr"
        var parts: [String] = []
        var current = ""
        for scalar in s.unicodeScalars {
            if scalar == "\r" || scalar == "\n" {
                parts.append("'" + current.replacingOccurrences(of: "'", with: "''") + "'")
                parts.append("\(chr)(\(scalar.value))")
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        parts.append("'" + current.replacingOccurrences(of: "'", with: "''") + "'")
        return parts.joined(separator: " || ")
    }

    /// The inserts, for `engine`'s storage (SQLite: bool 0/1, date seconds, decimal text; PostgreSQL native).
    static func inserts(_ engine: Engine, schema: String? = nil) -> String {
        let q = { (table: String) in schema.map { "\"\($0)\".\"\(table)\"" } ?? "\"\(table)\"" }
        // Duplicates need the uniqueness index gone (as in a store filled before the constraint existed).
        var sql = "DROP INDEX \(schema.map { "\"\($0)\"." } ?? "")\"strata_uniq_Item_code\";\n"
        for item in items {
            let done = item.done.map { engine == .sqlite ? ($0 ? "1" : "0") : ($0 ? "true" : "false") } ?? "NULL"
            let seen = item.seen.map { engine == .sqlite ? String($0) : "to_timestamp(\($0))" } ?? "NULL"
            let price = item.price.map { engine == .sqlite ? "'\($0)'" : $0 } ?? "NULL"
            sql += """
                INSERT INTO \(q("Item")) ("code", "label", "size", "price", "done", "seen") VALUES \
                (\(literal(item.code, engine)), \(literal(item.label, engine)), \(item.size.map(String.init) ?? "NULL"), \
                \(price), \(done), \(seen));

                """
        }
        for part in parts {
            sql += "INSERT INTO \(q("Part")) (\"name\", \"item\") VALUES (\(literal(part.name, engine)), \(part.item.map(String.init) ?? "NULL"));\n"
        }
        return sql
    }

    /// Runs `sql` with the `sqlite3` shell on `path`.
    static func sqlite3(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-bail", path]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(sql.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(reason: "sqlite3 failed on \(path)") }
    }
}
