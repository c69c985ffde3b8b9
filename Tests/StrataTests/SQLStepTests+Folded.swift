import Foundation
import Testing
@testable import Strata

/// Where an error in a folded `sql: >` block points (its lines are joined with spaces): at the placeholder
/// or statement itself, as in a literal `|` block; `sqlite_sequence` is refused like Strata's tables.
extension SQLStepTests {
    static func foldedHook(_ indicator: String, _ lines: [String]) throws -> Hook {
        let body = lines.map { $0.isEmpty ? "" : "      " + $0 }.joined(separator: "\n")
        return try HookLoader.load(yaml: "id: h\nafter: 1\nsteps:\n  - sql: \(indicator)\n\(body)\n", file: "m/h.yaml")
    }

    static func folded(_ indicator: String, _ lines: [String]) throws -> SQLStep { try Self.step(try foldedHook(indicator, lines)) }

    @Test(arguments: [
        (">", ["UPDATE {{Recipe}}", "SET {{Recipe.ratng}} = 2"], 6, 11),
        (">-", ["UPDATE {{Recipe}}", "SET {{Recipe.ratng}} = 2"], 6, 11),
        (">+", ["UPDATE {{Recipe}}", "SET {{Recipe.ratng}} = 2"], 6, 11),
        (">", ["UPDATE {{Recipe}} SET {{Recipe.ratng}} = 2"], 5, 29),
        (">", ["UPDATE {{Recipe}}", "SET {{Recipe.rating}} = 2,", "{{Recipe.nme}} = 'x'"], 7, 7),
        (">", ["UPDATE {{Recipe}} SET {{Recipe.rating}} = 1;", "", "UPDATE {{Recipe}}", "SET {{Recipe.ratng}} = 2"], 8, 11),
        (">", ["UPDATE {{Recipe}}", "  SET {{Recipe.ratng}} = 2"], 6, 13),
        (">", ["UPDATE {{Recipe}}   ", "SET {{Recipe.ratng}} = 2"], 6, 11),
    ])
    func aFoldedBlockLocatesAPlaceholderOnItsOwnLine(indicator: String, lines: [String], line: Int, column: Int) throws {
        let step = try Self.folded(indicator, lines)
        let layout = LayoutBuilder.layout(for: try Self.model())
        do {
            _ = try step.expanded(layout: layout, variables: [:], now: 0)
            Issue.record("expanded: \(lines)")
        } catch {
            #expect(error.location == SourceLocation(file: "m/h.yaml", line: line, column: column), "\(indicator) \(lines)")
        }
    }

    @Test func aFoldedBlocksRefusedStatementIsLocatedAtItsLine() throws {
        let hook = try Self.foldedHook(">", ["UPDATE {{Recipe}} SET {{Recipe.rating}} = 1;", "", "UPDATE sqlite_sequence", "SET seq = 0;"])
        do {
            _ = try SQLPreCheck.check([SQLPreCheck.Group(layout: LayoutBuilder.layout(for: try Self.model()), hooks: [hook])], variables: [:], now: 0)
            Issue.record("not refused")
        } catch let error as DiagnosticList {
            #expect(error.diagnostics.map(\.message) == ["refused: writes to sqlite_sequence are refused: object IDs are never reused after a delete"])
            #expect(error.diagnostics.first?.location == SourceLocation(file: "m/h.yaml", line: 7, column: 7))
        }
    }

    @Test(arguments: [
        "UPDATE sqlite_sequence SET seq = 1 WHERE name = 'Recipe'",
        "DELETE FROM sqlite_sequence",
        "INSERT INTO sqlite_sequence (name, seq) VALUES ('Step', 0)",
        "INSERT OR REPLACE INTO SQLITE_SEQUENCE (name, seq) VALUES ('Step', 0)",
        "CREATE TEMP TABLE mine (x); CREATE TEMP TRIGGER t AFTER INSERT ON mine BEGIN DELETE FROM sqlite_sequence; END; INSERT INTO mine VALUES (1)",
    ])
    func writesToSQLiteSequenceAreRefused(_ statement: String) throws {
        let layout = LayoutBuilder.layout(for: try Self.model())
        let hook = try Self.hook("UPDATE {{Recipe}} SET {{Recipe.rating}} = 1; -- first\n\(statement);")
        do {
            _ = try SQLPreCheck.check([SQLPreCheck.Group(layout: layout, hooks: [hook])], variables: [:], now: 0)
            Issue.record("not refused: \(statement)")
        } catch let error as DiagnosticList {
            #expect(error.diagnostics.map(\.message) == ["refused: writes to sqlite_sequence are refused: object IDs are never reused after a delete"], "\(statement)")
            #expect(error.diagnostics.first?.location?.line == 6, "\(statement)")
        }
        // Reading it, and inserting into an AUTOINCREMENT table (which updates it), are allowed.
        let allowed = try Self.hook("INSERT INTO {{Step}} ({{Step.text}}) SELECT name FROM sqlite_sequence;\nINSERT INTO {{Recipe}} ({{Recipe.name}}) VALUES ('x');")
        #expect(try SQLPreCheck.check([SQLPreCheck.Group(layout: layout, hooks: [allowed])], variables: [:], now: 0).isEmpty)
    }
}
