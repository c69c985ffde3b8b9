import Foundation
import Testing

/// A predicate or expression written over several lines of a hook or mapping file (SPEC §10: an error is
/// located in the file it comes from). YAML does not keep such text column for column (a block drops its
/// indentation, folding joins lines with a space, quotes decode escapes), so the error on the unknown name
/// pointed at the block's first line (`|`), past the end of the key's line (`>`) or at a column of the first
/// line (plain, quoted). It now points at the line and column where the name is written, whatever the style.
@Suite struct MultiLinePredicateCLITests {
    /// How a two-line value is written after `key: `.
    enum Style: String, CaseIterable, CustomTestStringConvertible {
        case literal, folded, plain, doubleQuoted, singleQuoted

        var testDescription: String { rawValue }

        /// The value, its second line indented by `indent` spaces, and how many lines below the key it is.
        func render(_ first: String, _ second: String, indent: Int) -> (yaml: String, secondLine: Int) {
            let pad = String(repeating: " ", count: indent)
            switch self {
            case .literal: return ("|\n\(pad)\(first)\n\(pad)\(second)", 2)
            case .folded: return (">\n\(pad)\(first)\n\(pad)\(second)", 2)
            case .plain: return ("\(first)\n\(pad)\(second)", 1)
            case .doubleQuoted:
                return ("\"\(first.replacingOccurrences(of: "\"", with: "\\\""))\n\(pad)\(second)\"", 1)
            case .singleQuoted:
                return ("'\(first.replacingOccurrences(of: "'", with: "''"))\n\(pad)\(second)'", 1)
            }
        }
    }

    static let v1 = "version: 1\nentities:\n  Item:\n    attributes:\n      name: { type: string }\n      n: { type: int64 }\n"

    /// A project with a v1 store holding two items, then `hook` in `migrations/h.yaml` (a bad hook stops every
    /// migrate, `--create` too).
    static func hookProject(_ hook: String) throws -> String {
        let dir = try CLI.project("multiline-predicate", models: ["1.yaml": v1, "2.yaml": v1.replacingOccurrences(of: "version: 1", with: "version: 2")])
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", "s.sqlite"], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        try E2E.execute(dir + "/s.sqlite", #"INSERT INTO "Item" ("name", "n") VALUES ('x', 1), ('y', 2)"#)
        try hook.write(toFile: dir + "/migrations/h.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    /// Each of `commands` is exit 2 with the error at `file:line:column`, the file's line and a caret under
    /// `column`, and the store is untouched.
    static func expectLocated(in dir: String, store: String, file: String, line: Int, column: Int, message: String,
                              _ style: Style, commands: [[String]]) throws {
        let text = try String(contentsOfFile: dir + "/" + file, encoding: .utf8)
        let sourceLine = text.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
        let expected = "\(file):\(line):\(column): error: \(message)\n    \(sourceLine)\n    "
            + String(repeating: " ", count: column - 1) + "^\n"
        let before = E2E.storeHashes(store)
        for args in commands {
            let r = try CLI.run(args, in: dir)
            #expect(r.status == 2, "\(style) \(args): \(r.stderr)")
            #expect(r.stderr.contains(expected), "\(style) \(args): expected\n\(expected)got\n\(r.stderr)")
        }
        #expect(E2E.storeHashes(store) == before, "\(style)")
    }

    static let hookCommands = [["lint"], ["migrate", "--store", "s.sqlite", "--dry-run"], ["migrate", "--store", "s.sqlite"]]

    /// `predicate:` of a batchDelete: `name == "x"` then `AND nme == 1`.
    @Test(arguments: Style.allCases)
    func aHookPredicatesErrorIsAtItsLineAndColumn(_ style: Style) throws {
        let (value, below) = style.render(#"name == "x""#, "AND nme == 1", indent: 8)
        let dir = try Self.hookProject("id: h\nafter: 2\nsteps:\n  - batchDelete:\n      entity: Item\n      predicate: \(value)\n")
        try Self.expectLocated(in: dir, store: dir + "/s.sqlite", file: "migrations/h.yaml", line: 6 + below, column: 13,
                               message: "Item has no attribute 'nme' (did you mean 'name'?)", style, commands: Self.hookCommands)
    }

    /// `{ expression: }` of a batchUpdate's property: `n` then `+ nme`.
    @Test(arguments: Style.allCases)
    func aHookExpressionsErrorIsAtItsLineAndColumn(_ style: Style) throws {
        let (value, below) = style.render("n", "+ nme", indent: 12)
        let dir = try Self.hookProject("id: h\nafter: 2\nsteps:\n  - batchUpdate:\n      entity: Item\n      predicate: name == \"x\"\n"
            + "      propertiesToUpdate:\n        n:\n          expression: \(value)\n")
        try Self.expectLocated(in: dir, store: dir + "/s.sqlite", file: "migrations/h.yaml", line: 9 + below, column: 15,
                               message: "Item has no attribute 'nme' (did you mean 'name'?)", style, commands: Self.hookCommands)
    }

    /// Escapes before the name (`\"`, `\u00e9`, an escaped line break and `\ `) are decoded, not counted as written.
    @Test func escapesInADoubleQuotedPredicateAreReadAsWritten() throws {
        let dir = try Self.hookProject("id: h\nafter: 2\nsteps:\n  - batchDelete:\n      entity: Item\n"
            + "      predicate: \"name == \\\"\\u00e9\\\" AND\\\n        \\ nme == 1\"\n")
        try Self.expectLocated(in: dir, store: dir + "/s.sqlite", file: "migrations/h.yaml", line: 7, column: 11,
                               message: "Item has no attribute 'nme' (did you mean 'name'?)", .doubleQuoted, commands: Self.hookCommands)
    }

    /// The same reading places an `sql:` step's errors (it placed only literal and folded blocks): `UPDATE {{Item}}`
    /// then `SET {{Item.nme}} = 1`.
    @Test(arguments: Style.allCases)
    func anSQLStepsErrorIsAtItsLineAndColumn(_ style: Style) throws {
        let (value, below) = style.render("UPDATE {{Item}}", "SET {{Item.nme}} = 1", indent: 6)
        let dir = try Self.hookProject("id: h\nafter: 2\nsteps:\n  - sql: \(value)\n")
        try Self.expectLocated(in: dir, store: dir + "/s.sqlite", file: "migrations/h.yaml", line: 4 + below, column: 11,
                               message: "Item has no property 'nme'", style, commands: Self.hookCommands)
    }

    static let mappingCommands = [["lint"], ["diff", "1", "2"], ["migrate", "--store", "app.sqlite", "--dry-run"], ["migrate", "--store", "app.sqlite"]]

    /// A mapping file's `filter:`: `deleted == NO` then `AND removd == NO`.
    @Test(arguments: Style.allCases)
    func aMappingFiltersErrorIsAtItsLineAndColumn(_ style: Style) throws {
        let (value, below) = style.render("deleted == NO", "AND removd == NO", indent: 6)
        let text = MappingProject.mapping.replacingOccurrences(of: "    filter: \"deleted == NO\"", with: "    filter: \(value)")
        let (dir, store) = try MappingProject.make(["v2.yaml": text])
        try Self.expectLocated(in: dir, store: store, file: "migrations/v2.yaml", line: 4 + below, column: 11,
                               message: "Order has no attribute 'removd'", style, commands: Self.mappingCommands)
    }

    /// A mapping file's attribute expression: `int16(` then `ratng)`.
    @Test(arguments: Style.allCases)
    func aMappingExpressionsErrorIsAtItsLineAndColumn(_ style: Style) throws {
        let (value, below) = style.render("int16(", "ratng)", indent: 8)
        let text = MappingProject.mapping.replacingOccurrences(of: "      rating: \"int16(rating)\"", with: "      rating: \(value)")
        let (dir, store) = try MappingProject.make(["v2.yaml": text])
        try Self.expectLocated(in: dir, store: store, file: "migrations/v2.yaml", line: 6 + below, column: 9,
                               message: "Order has no attribute 'ratng' (did you mean 'rating'?)", style, commands: Self.mappingCommands)
    }
}
