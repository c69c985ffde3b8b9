import Foundation
import StrataTestSupport

/// Seeded mutations of YAML text for the fuzz tests: lines deleted, duplicated or swapped, random keys,
/// values replaced by odd scalars or values of the wrong shape, deep nesting, huge numbers and garbage.
struct YAMLMutator {
    var generator: SeededGenerator
    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    static let oddScalars = [
        "~", "null", "\"\"", "''", "-0", "0x7f", "0o17", "1e309", "-1e309", ".nan", ".inf", "-.inf", "yes", "NO", "on",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "99999999999999999999999999999999", "0.1e-400", "2024-02-30", "2024-05-01T25:61:00+99:00", "'", "\"", "&anchor x",
        "*nowhere", "!!binary AAAA", "!!int abc", "!custom 3", "|", ">", "- x", "? x", "[", "{", "]", "}", "\"\\u0000\"",
        "\"\\xff\"", "{ a: }", "[1, [2, [3]]]", "{ type: string }", "[[a], [b]]", "%@", "$NOW", "\"$NOW - 30 days\"",
        String(repeating: "x", count: 5000), "é̃ı", "\u{202E}rtl", "#comment", "@x", "`x`",
    ]
    static let keys = ["type", "optional", "default", "min", "max", "minLength", "maxLength", "pattern", "renamedFrom",
                       "indexed", "column", "table", "parent", "abstract", "destination", "inverse", "toMany", "deleteRule",
                       "ordered", "minCount", "maxCount", "uniqueness", "indexes", "validation", "predicate", "message",
                       "version", "entities", "attributes", "relationships", "after", "steps", "batchUpdate", "batchDelete",
                       "entity", "propertiesToUpdate", "arguments", "resultType", "onViolation", "variables", "id",
                       "expression", "value", "includesSubentities", "zzz", "Recipe", "name", "_pk", "strata_x", "sqlite_x"]

    mutating func int(_ n: Int) -> Int { Int(generator.next() % UInt64(max(n, 1))) }
    mutating func pick<T>(_ list: [T]) -> T { list[int(list.count)] }

    /// One to four mutations of `text`.
    mutating func mutate(_ text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        for _ in 0...int(4) { mutateOnce(&lines) }
        return lines.joined(separator: "\n")
    }

    mutating func mutateOnce(_ lines: inout [String]) {
        guard !lines.isEmpty else { lines = [pick(Self.oddScalars)]; return }
        let i = int(lines.count)
        let indent = String(lines[i].prefix { $0 == " " })
        switch int(12) {
        case 0: lines.remove(at: i)
        case 1: lines.insert(lines[i], at: i)
        case 2: lines.swapAt(i, int(lines.count))
        case 3: lines.insert(indent + pick(Self.keys) + ": " + pick(Self.oddScalars), at: i)
        case 4, 5:   // replace a value
            if let colon = lines[i].firstIndex(of: ":") {
                lines[i] = String(lines[i][...colon]) + " " + pick(Self.oddScalars)
            } else {
                lines[i] = indent + pick(Self.oddScalars)
            }
        case 6:   // a value of the wrong shape
            if let colon = lines[i].firstIndex(of: ":") {
                lines[i] = String(lines[i][...colon]) + " " + pick(["[]", "{}", "[1, 2]", "{ a: 1 }", "- 1", "\n" + indent + "  - x"])
            }
        case 7:   // deep nesting, within and beyond libyaml's limit
            let depth = pick([10, 100, 999, 1001, 3000])
            let open = int(2) == 0 ? "[" : "{a: "
            let close = open == "[" ? "]" : "}"
            lines.insert(indent + pick(Self.keys) + ": " + String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth), at: i)
        case 8:   // huge and boundary numbers in place of any number, predicates and expressions included
            lines[i] = lines[i].replacingOccurrences(of: "[0-9]+", with: pick(["9223372036854775807", "-9223372036854775808",
                                                                                  "18446744073709551616", "0", "-1", "1e400"]),
                                                       options: .regularExpression)
        case 9:   // garbage characters
            var chars = Array(lines[i].unicodeScalars)
            for _ in 0...int(8) {
                let scalar = Unicode.Scalar(UInt32(pick([0, 1, 7, 9, 0x1B, 0x7F, 0x85, 0xA0, 0xFEFF, 0xFFFD, 0x2028, 0x1F600, 0xD7FF]))) ?? "?"
                chars.insert(scalar, at: int(chars.count + 1))
            }
            var s = String.UnicodeScalarView()
            s.append(contentsOf: chars)
            lines[i] = String(s)
        case 10:   // cut a line in the middle
            lines[i] = String(lines[i].prefix(int(lines[i].count + 1)))
        default:   // change indentation
            lines[i] = pick(["", " ", "   ", "\t", indent + "  "]) + lines[i].drop { $0 == " " }
        }
    }
}
