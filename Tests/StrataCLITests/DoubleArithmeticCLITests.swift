import Foundation
import Testing
import StrataTestSupport

/// Double arithmetic that leaves the finite doubles at run time gives nil, as integer overflow does (SPEC §11.4):
/// `--set-expr 'x=x * 1e10'` on a row holding 1e300 stored Infinity (while an `inf` literal is refused and an
/// integer overflow is nil), `x / y` with y = 1e-300 stored -Infinity, and `x * 1e10 > 0` matched the 1e300 row.
/// The same SQL serves `--set-expr`, `--where` and a hook's `{ expression: }` (PredicateTranslator.arithmetic).
@Suite(.serialized) struct DoubleArithmeticCLITests {
    static let model1 = """
    version: 1
    entities:
      Item:
        attributes:
          name: { type: string }
          x:    { type: double }
          y:    { type: double }
          req:  { type: double, optional: false, default: 1 }
    """

    struct Project {
        var dir: String
        var store: String
        func run(_ args: [String]) throws -> CLI.Result { try CLI.run(args + ["--store", store], in: dir) }
        func rows(_ sql: String = "SELECT _pk, x, y, req FROM Item ORDER BY _pk") throws -> [String] { try E2E.rows(store, sql) }
    }

    /// A store at version 1 holding four items: 1e300 over 0, 2 over 4, -1e300 over 1e-300, nil over 2.
    static func project(models: [String: String] = ["1.yaml": model1], hook: String? = nil) throws -> Project {
        let dir = try CLI.project("double", models: models)
        if let hook { try hook.write(toFile: dir + "/migrations/h.yaml", atomically: true, encoding: .utf8) }
        let p = Project(dir: dir, store: dir + "/s.sqlite")
        let created = try p.run(["migrate", "--create", "--to", "1"])
        #expect(created.status == 0, "\(created.stderr)")
        try E2E.execute(p.store, """
            INSERT INTO Item (_pk, name, x, y, req) VALUES
              (1, 'huge', 1e300, 0, 1e300), (2, 'small', 2, 4, 2), (3, 'negative', -1e300, 1e-300, 3), (4, 'none', NULL, 2, 4);
            """)
        return p
    }

    @Test func anOverflowingResultIsStoredAsNil() throws {
        let p = try Self.project()
        let run = try p.run(["batch", "update", "--entity", "Item", "--set-expr", "x=x * 1e10"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "4\n")
        #expect(try p.rows() == ["1|NULL|0.0|1e+300", "2|20000000000.0|4.0|2.0", "3|NULL|1e-300|3.0", "4|NULL|2.0|4.0"])
        // Nothing infinite was ever stored.
        #expect(try p.rows("SELECT count(*) FROM Item WHERE abs(x) > 1.7976931348623157e308 OR abs(y) > 1.7976931348623157e308") == ["0"])
    }

    /// `/` by a stored 0 is nil (SQLite's own rule), and a quotient past the doubles is nil too.
    @Test func aQuotientPastTheDoublesIsNil() throws {
        let p = try Self.project()
        let run = try p.run(["batch", "update", "--entity", "Item", "--set-expr", "x=x / y", "--set-expr", "y=1 / (y * 1e308)"])
        #expect(run.status == 0, "\(run.stderr)")
        // y · 1e308: 0, 4e308 (past: nil, so 1 / nil), 1e8, 2e308 (past); 1 / 0 is nil.
        #expect(try p.rows() == ["1|NULL|NULL|1e+300", "2|0.5|NULL|2.0", "3|NULL|1e-08|3.0", "4|NULL|NULL|4.0"])
    }

    /// In a predicate an overflowing double is nil: compared, it is false (and NOT of it true).
    @Test func anOverflowingValueIsNilInAPredicate() throws {
        let p = try Self.project()
        let update = ["batch", "update", "--entity", "Item", "--set", "name=hit", "--audit", "none", "--result", "ids", "--where"]
        for (predicate, pks) in [("x * 1e10 > 0", [2]), ("x * 1e10 == nil", [1, 3, 4]), ("NOT (x * 1e10 < 0)", [1, 2, 3, 4]),
                                 ("x * 1e10 * 0 == 0", [2]), ("x / y > 0", [2])] {
            let run = try p.run(update + [predicate])
            #expect(run.status == 0, "\(predicate): \(run.stderr)")
            let found = run.stdout.split(separator: "\n").map { Int($0.split(separator: "/").last!.dropFirst())! }
            #expect(found == pks, "\(predicate): \(run.stdout)")
        }
        #expect(try p.rows("SELECT count(*) FROM Item WHERE name = 'hit'") == ["4"])
    }

    /// A non-optional attribute computed past the doubles is nil, which the audit reports (1570): exit 3, rolled back.
    @Test func anOverflowIntoANonOptionalAttributeIsAViolation() throws {
        let p = try Self.project()
        let run = try p.run(["batch", "update", "--entity", "Item", "--set-expr", "req=req * req", "--on-violation", "rollback"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stdout.contains("1570") || run.stderr.contains("1570"), "\(run.stdout)\(run.stderr)")
        #expect(try p.rows() == ["1|1e+300|0.0|1e+300", "2|2.0|4.0|2.0", "3|-1e+300|1e-300|3.0", "4|NULL|2.0|4.0"])
    }

    /// A hook's `{ expression: }` goes through the same SQL.
    @Test func aHookExpressionGivesNilToo() throws {
        let model2 = Self.model1.replacingOccurrences(of: "version: 1", with: "version: 2")
        let hook = """
            id: square
            after: 2
            steps:
              - batchUpdate: { entity: Item, propertiesToUpdate: { y: { expression: "x * x" }, x: { expression: "-x / 1e-10" } } }
            """
        let p = try Self.project(models: ["1.yaml": Self.model1, "2.yaml": model2], hook: hook)
        let run = try p.run(["migrate"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try p.rows() == ["1|NULL|NULL|1e+300", "2|-20000000000.0|4.0|2.0", "3|NULL|NULL|3.0", "4|NULL|NULL|4.0"])
    }
}
