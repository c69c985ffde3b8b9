import Foundation
import GRDB
import Testing
@testable import Strata
@testable import StrataCore

/// Issue 12 (predicate part): empty predicates, exact int64, deep nesting, flat SQL, long IN lists,
/// regexes and dates checked at compile time, variables as duration counts.
@Suite struct PredicateHardeningTests {
    static let now = PredicateFixture.now

    /// An int64 attribute with values at and around the limits (and 2^53 + 1, which a Double rounds).
    static let int64Yaml = """
    version: 1
    entities:
      Food:
        attributes:
          name:     { type: string }
          calories: { type: int64 }
          rating:   { type: int16 }
          lastUsed: { type: date }
    """
    static let int64Rows = """
    INSERT INTO "Food" ("_pk", "name", "calories", "rating", "lastUsed") VALUES
      (1, 'max', 9223372036854775807, 1, 1716249600), (2, 'two53', 9007199254740992, 2, 1716163200),
      (3, 'two53+1', 9007199254740993, 3, NULL), (4, 'min', -9223372036854775808, 4, 1700000000), (5, 'small', 5, 5, 1716249000);
    """
    static let foods = Result { try PredicateFixture.make(yaml: int64Yaml, rows: int64Rows) }

    func headline(_ f: PredicateFixture.Fixture, _ predicate: String, entity: String = "Recipe",
                  variables: [String: String] = [:], arguments: [PredicateArgument] = []) -> String? {
        do {
            _ = try f.compiler.compile(predicate, entity: entity,
                                       context: PredicateContext(arguments: arguments, variables: variables, now: Self.now))
            return nil
        } catch {
            return error.diagnostic.headline
        }
    }

    func foodMatches(_ predicate: String, arguments: [PredicateArgument] = [], variables: [String: String] = [:]) throws -> [Int64] {
        try PredicateFixture.matches(try Self.foods.get(), predicate, entity: "Food", arguments: arguments, variables: variables)
    }

    // MARK: 4. Empty predicates

    @Test(arguments: ["", "   ", "\t\n "])
    func emptyPredicateIsAnError(_ text: String) throws {
        let f = try PredicateMatchTests.fixture.get()
        #expect(headline(f, text) == "predicate:1:1: error: empty predicate")
        let planner = BatchPlanner(model: f.model, layout: f.layout)
        #expect(throws: BatchError.self) {
            _ = try planner.planDelete(BatchDeleteRequest(entity: "Recipe", predicate: text), context: PredicateContext(now: Self.now))
        }
        #expect(throws: BatchError.self) {
            _ = try planner.planUpdate(BatchUpdateRequest(entity: "Recipe", predicate: text, propertiesToUpdate: ["rating": .literal("1")]),
                                       context: PredicateContext(now: Self.now))
        }
    }

    // MARK: 9. Exact integers

    @Test func int64LiteralsAreExact() throws {
        #expect(try foodMatches("calories == 9223372036854775807") == [1])
        #expect(try foodMatches("calories == 9007199254740993") == [3])
        #expect(try foodMatches("calories == 9007199254740992") == [2])
        #expect(try foodMatches("calories == -9223372036854775808") == [4])
        #expect(try foodMatches("calories IN {9007199254740993, 5}") == [3, 5])
        #expect(try foodMatches("calories BETWEEN {9007199254740993, 9223372036854775807}") == [1, 3])
        #expect(try foodMatches("calories > 9007199254740992") == [1, 3])
        #expect(try foodMatches("calories == %@", arguments: [.text("9007199254740993")]) == [3])
        #expect(try foodMatches("calories == $C", variables: ["C": "9007199254740993"]) == [3])
        #expect(try foodMatches("calories == 9007199254740992 + 1") == [3])
        #expect(try foodMatches("calories == -(-9223372036854775807)") == [1])
        let f = try Self.foods.get()
        let statement = try f.compiler.compile("calories == 9007199254740993", entity: "Food", context: PredicateContext(now: Self.now))
        #expect(statement.arguments == [.integer(9_007_199_254_740_993)])
        // The largest int64 is a duration's largest count.
        let longest = try f.compiler.compile("lastUsed > $NOW - 9223372036854775807 seconds", entity: "Food", context: PredicateContext(now: Self.now))
        #expect(longest.arguments == [.real(Self.now - 9_223_372_036_854_775_807)])
    }

    @Test(arguments: [
        ("calories == 9223372036854775808", "predicate:1:13: error: integer 9223372036854775808 is out of the 64-bit range"),
        ("calories == 99999999999999999999", "predicate:1:13: error: integer 99999999999999999999 is out of the 64-bit range"),
        ("calories == 9223372036854775807 + 1", "predicate:1:33: error: integer overflow: 9223372036854775807 + 1 is outside the 64-bit range"),
        ("calories == -9223372036854775808 - 1", "predicate:1:34: error: integer overflow: -9223372036854775808 - 1 is outside the 64-bit range"),
        ("calories == 4611686018427387904 * 2", "predicate:1:33: error: integer overflow: 4611686018427387904 * 2 is outside the 64-bit range"),
        ("calories == -(-9223372036854775808)", "predicate:1:13: error: integer overflow: -(-9223372036854775808) is outside the 64-bit range"),
        ("calories IN {1, 9223372036854775808}", "predicate:1:17: error: integer 9223372036854775808 is out of the 64-bit range"),
        // A duration's count: 2^63 days was taken (a double), where every other integer literal is refused.
        ("lastUsed > $NOW - 9223372036854775808 days", "predicate:1:19: error: integer 9223372036854775808 is out of the 64-bit range"),
        ("lastUsed > $NOW + 9223372036854775808 seconds", "predicate:1:19: error: integer 9223372036854775808 is out of the 64-bit range"),
        ("lastUsed > $NOW - -9223372036854775808 days", "predicate:1:20: error: integer 9223372036854775808 is out of the 64-bit range"),
    ])
    func int64OverflowIsLocated(_ predicate: String, _ expected: String) throws {
        #expect(headline(try Self.foods.get(), predicate, entity: "Food") == expected)
    }

    /// SPEC §11.4: an int64 overflow gives nil (never a REAL in the int64 column, never wrapped); the
    /// rows that do not overflow get their exact result.
    @Test(arguments: [
        ("calories + 1", [nil, "9007199254740993", "9007199254740994", "-9223372036854775807", "6"]),
        ("calories * 3", [nil, "27021597764222976", "27021597764222979", nil, "15"]),
        ("-calories", ["-9223372036854775807", "-9007199254740992", "-9007199254740993", nil, "-5"]),
        ("calories - 9223372036854775807 - 9223372036854775807", ["-9223372036854775807", nil, nil, nil, nil]),
        ("abs(calories)", ["9223372036854775807", "9007199254740992", "9007199254740993", nil, "5"]),
        ("int64(calories * 2 / 2)", [nil, "9007199254740992", "9007199254740993", nil, "5"]),   // exact, not through a double
    ] as [(String, [String?])])
    func int64AssignmentThatOverflowsGivesNil(_ expression: String, _ expected: [String?]) async throws {
        let f = try PredicateFixture.make(yaml: Self.int64Yaml, rows: Self.int64Rows)
        let request = BatchUpdateRequest(entity: "Food", propertiesToUpdate: ["calories": .expression(expression)])
        _ = try await f.store.execute(request, context: PredicateContext(now: Self.now), model: f.model)
        let rows = try await f.store.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT calories, typeof(calories) FROM Food ORDER BY _pk").map { row -> String? in
                (row[0] as Int64?).map { "\($0)" }.map { $0 + ((row[1] as String) == "integer" ? "" : "/not an integer") }
            }
        }
        #expect(rows == expected, "\(expression)")
    }

    @Test func int64ArithmeticWithinRangeIsExact() async throws {
        let f = try PredicateFixture.make(yaml: Self.int64Yaml, rows: Self.int64Rows)
        // Within range, the same expressions run (the check costs nothing when nothing overflows).
        let ok = BatchUpdateRequest(entity: "Food", predicate: "rating == 5", propertiesToUpdate: ["calories": .expression("calories * 3 + 9007199254740978")])
        _ = try await f.store.execute(ok, context: PredicateContext(now: Self.now), model: f.model)
        #expect(try await f.store.queue.read { try Int64.fetchOne($0, sql: "SELECT calories FROM Food WHERE _pk = 5") } == 9_007_199_254_740_993)
        // abs() of the smallest int64 compares as a real instead of failing.
        #expect(try PredicateFixture.matches(f, "abs(calories) > 9223372036854775806", entity: "Food") == [1, 4])
    }

    @Test func int64ValueExpressionsAreExact() throws {
        let f = try Self.foods.get()
        let (statement, _) = try f.compiler.compileValue("9007199254740992 + 1", for: "calories", of: "Food", context: PredicateContext(now: Self.now))
        #expect(statement.arguments == [.integer(9_007_199_254_740_993)])
        let (checked, _) = try f.compiler.compileValue("calories + 1", for: "calories", of: "Food", context: PredicateContext(now: Self.now))
        #expect(checked.sql == #"strata_int64((t."calories" + ?))"#)
        // int16/int32 operands cannot leave int64 in one operation: no check; a second one can.
        let (small, _) = try f.compiler.compileValue("rating * 2147483647", for: "calories", of: "Food", context: PredicateContext(now: Self.now))
        #expect(small.sql == #"(t."rating" * ?)"#)
        let (chained, _) = try f.compiler.compileValue("rating * rating * rating * rating", for: "calories", of: "Food", context: PredicateContext(now: Self.now))
        #expect(chained.sql == #"strata_int64((((t."rating" * t."rating") * t."rating") * t."rating"))"#)
        let (plain, _) = try f.compiler.compileValue("rating", for: "calories", of: "Food", context: PredicateContext(now: Self.now))
        #expect(plain.sql == #"t."rating""#)
    }

    // MARK: 10. Deep nesting

    static func repeated(_ s: String, _ n: Int) -> String { String(repeating: s, count: n) }

    /// Each shape far past the limit, and the column of the 101st level.
    static let deepShapes: [(name: String, predicate: String, column: Int)] = [
        ("15,000 parentheses", repeated("(", 15_000) + "rating > 3" + repeated(")", 15_000), 101),
        ("30,000 NOT", repeated("NOT ", 30_000) + "rating > 3", 401),
        ("60,000 !", repeated("!", 60_000) + "rating > 3", 101),
        ("20,000 unary minus", "rating == " + repeated("-", 20_000) + "1", 111),
        ("5,000 nested calls", "rating == " + repeated("abs(", 5_000) + "1" + repeated(")", 5_000), 414),
        ("5,000 nested lists", "rating IN " + repeated("{", 5_000) + "1" + repeated("}", 5_000), 111),
        ("NOT and parentheses", repeated("NOT (", 10_000) + "rating > 3" + repeated(")", 10_000), 251),
    ]

    @Test(arguments: 0..<deepShapes.count)
    func deepNestingIsLocated(_ index: Int) throws {
        let f = try PredicateMatchTests.fixture.get()
        let shape = Self.deepShapes[index]
        #expect(headline(f, shape.predicate) == "predicate:1:\(shape.column): error: nested too deeply: more than 100 levels", "\(shape.name)")
        #expect(throws: (any Error).self, "\(shape.name)") {
            _ = try f.compiler.compileValue(shape.predicate.replacingOccurrences(of: "rating == ", with: ""), for: "rating", of: "Recipe",
                                            context: PredicateContext(now: Self.now))
        }
    }

    @Test func longArithmeticChainsAreRefusedNotCrashed() throws {
        let f = try PredicateMatchTests.fixture.get()
        let chain = "rating" + Self.repeated(" + 1", 40_000)
        let where_ = headline(f, chain + " > 3")
        #expect(where_?.hasPrefix("predicate:1:") == true)
        #expect(where_?.hasSuffix("error: arithmetic chain too long: more than 500 operations on stored values") == true)
        #expect(throws: (any Error).self) {
            _ = try f.compiler.compileValue(chain, for: "rating", of: "Recipe", context: PredicateContext(now: Self.now))
        }
        // Constants fold without limit, exactly.
        let (folded, _) = try f.compiler.compileValue("0" + Self.repeated(" + 1", 40_000) + " - 39995", for: "rating", of: "Recipe",
                                                      context: PredicateContext(now: Self.now))
        #expect(folded.arguments == [.integer(5)])
        #expect(try PredicateFixture.matches(f, "rating == 0" + Self.repeated(" + 1", 10_000) + " - 9995") == [2, 8])
    }

    /// Each operation on a stored value nests (its overflow check), so SQLite's parser bounds a chain:
    /// 69 run (the documented figure), 70 are refused before SQLite sees them.
    @Test func arithmeticChainsRunUpToTheParsersDepth() throws {
        let f = try PredicateMatchTests.fixture.get()
        #expect(try PredicateFixture.matches(f, "rating" + Self.repeated(" + 1", 69) + " > 72") == [2, 6, 8])
        let refused = headline(f, "rating" + Self.repeated(" + 1", 70) + " > 73")
        #expect(refused?.hasPrefix("predicate:1:1: error: too deeply nested for SQLite once translated") == true, "\(refused ?? "")")
    }

    @Test func nestedFunctionsStayLinear() throws {
        let f = try PredicateMatchTests.fixture.get()
        let nested = Self.repeated("abs(", 20) + "rating" + Self.repeated(")", 20)
        let clock = ContinuousClock()
        var ids: [Int64] = []
        let elapsed = try clock.measure { ids = try PredicateFixture.matches(f, "rating == " + nested) }
        #expect(ids == [1, 2, 3, 4, 5, 6, 7, 8])  // two stored values compare with IS: nil == nil
        // Linear shows in the SQL's size; the time bound only catches an exponential blow-up (it would take
        // minutes), generous because the machine may be shared.
        #expect(elapsed < .seconds(20), "\(elapsed)")
        let statement = try f.compiler.compile("rating == " + nested, entity: "Recipe", context: PredicateContext(now: Self.now))
        #expect(statement.sql.utf8.count < 2_000)
    }

    @Test func nestingAtTheLimitRuns() throws {
        let f = try PredicateMatchTests.fixture.get()
        let parens = Self.repeated("(", 100) + "rating > 3" + Self.repeated(")", 100)
        #expect(try PredicateFixture.matches(f, parens) == [2, 6, 8])
        let ninetyNine = Self.repeated("(", 99) + "rating > 3" + Self.repeated(")", 99)
        #expect(try PredicateFixture.matches(f, "(" + ninetyNine + ")" + " OR rating == 0") == [2, 6, 7, 8])
        #expect(try PredicateFixture.matches(f, Self.repeated("NOT ", 100) + "rating > 3") == [2, 6, 8])
        #expect(try PredicateFixture.matches(f, Self.repeated("NOT ", 99) + "rating > 3") == [1, 3, 4, 5, 7])
        var sum = "rating"
        for _ in 0..<50 { sum = "(\(sum) + 1)" }
        #expect(try PredicateFixture.matches(f, sum + " > 53") == [2, 6, 8])
        // Shapes that stay nested in SQL are measured: what SQLite's parser could not take is refused, located.
        for _ in 50..<99 { sum = "(\(sum) + 1)" }
        #expect(headline(f, sum + " > 102")?.hasPrefix("predicate:1:1: error: too deeply nested for SQLite once translated") == true)
    }

    // MARK: 15. Flat SQL

    @Test func longOrChainsRun() throws {
        let f = try PredicateMatchTests.fixture.get()
        let terms = (0..<10_000).map { "rating == \($0 % 7 + 100)" } + ["name == \"Soup\""]
        #expect(try PredicateFixture.matches(f, terms.joined(separator: " OR ")) == [1])
        #expect(try PredicateFixture.matches(f, terms.joined(separator: " || ")) == [1])
        let ands = (0..<10_000).map { _ in "rating >= 1" }.joined(separator: " AND ")
        #expect(try PredicateFixture.matches(f, ands) == [1, 2, 4, 5, 6, 8])
        // Equalities on one key merge into one bound list: 100,000 terms run (one value per term would not bind).
        let many = (0..<100_000).map { "rating == \($0 % 20_000 + 100)" } + ["name == \"Soup\"", "rating == 4"]
        let merged = try f.compiler.compile(many.joined(separator: " OR "), entity: "Recipe", context: PredicateContext(now: Self.now))
        #expect(merged.arguments.count == 2)
        #expect(try PredicateFixture.matches(f, many.joined(separator: " OR ")) == [1, 6])
        #expect(try PredicateFixture.matches(f, "NOT (" + many.joined(separator: " OR ") + ")") == [2, 3, 4, 5, 7, 8])
        // 90 ORs nested to the right, each in its own parentheses.
        var nested = "rating == 5"
        for i in 0..<90 { nested = "rating == \(i + 100) OR (\(nested))" }
        #expect(try PredicateFixture.matches(f, nested) == [2, 8])
        let statement = try f.compiler.compile("rating == 1 OR (rating == 2 OR (rating == 3 OR rating == 4))", entity: "Recipe",
                                               context: PredicateContext(now: Self.now))
        #expect(statement.sql == #"(t."rating" = ? OR t."rating" = ? OR t."rating" = ? OR t."rating" = ?)"#)
    }

    @Test func mixedChainsKeepPrecedence() throws {
        let f = try PredicateMatchTests.fixture.get()
        let predicate = "rating > 1 AND (name BEGINSWITH 'S' OR name BEGINSWITH 'C') AND NOT (rating == 3 OR rating == nil)"
        #expect(try PredicateFixture.matches(f, predicate) == [2, 5])
        #expect(try PredicateFixture.matches(f, "rating == 3 OR rating == 4 AND name BEGINSWITH 'I' OR name == 'CREME'") == [1, 5, 6])
        let statement = try f.compiler.compile(predicate, entity: "Recipe", context: PredicateContext(now: Self.now))
        #expect(statement.sql == #"(t."rating" > ? AND (strata_beginswith(t."name", ?) OR strata_beginswith(t."name", ?)) AND NOT COALESCE(t."rating" = ? OR t."rating" IS NULL, 0))"#)
    }

    @Test func notChainsRunWithoutNestedParentheses() throws {
        let f = try PredicateMatchTests.fixture.get()
        var nested = "rating > 3"
        for _ in 0..<48 { nested = "NOT (\(nested))" }
        #expect(try PredicateFixture.matches(f, nested) == [2, 6, 8])
        let statement = try f.compiler.compile(nested, entity: "Recipe", context: PredicateContext(now: Self.now))
        #expect(statement.sql == #"t."rating" > ?"#)
        // Two-valued logic: an odd count is NOT, and nil ratings match it.
        #expect(try PredicateFixture.matches(f, "NOT (" + nested + ")") == [1, 3, 4, 5, 7])
        var alternating = "rating > 3"
        for i in 0..<10 { alternating = "NOT (rating == \(i + 100) AND \(alternating))" }
        #expect(try PredicateFixture.matches(f, alternating) == [1, 2, 3, 4, 5, 6, 7, 8])
        for i in 10..<45 { alternating = "NOT (rating == \(i + 100) AND \(alternating))" }
        #expect(headline(f, alternating)?.hasPrefix("predicate:1:1: error: too deeply nested for SQLite once translated") == true)
    }

    // MARK: 16. IN lists

    @Test func hugeInListsAreLinearAndBoundOnce() throws {
        let f = try PredicateMatchTests.fixture.get()
        let list = (0..<100_000).map { String($0 % 30_000) }.joined(separator: ", ")
        let clock = ContinuousClock()
        var ids: [Int64] = []
        let elapsed = try clock.measure {
            ids = try PredicateFixture.matches(f, "rating IN {\(list)}")
        }
        #expect(ids == [1, 2, 4, 5, 6, 7, 8])
        // One bound argument (below) is the linear shape; the time bound only catches a quadratic blow-up
        // (minutes at 100,000 items), generous because the machine may be shared.
        #expect(elapsed < .seconds(30), "\(elapsed)")
        let statement = try f.compiler.compile("rating IN {\(list)}", entity: "Recipe", context: PredicateContext(now: Self.now))
        #expect(statement.arguments.count == 1)
        #expect(statement.sql == #"t."rating" IN (SELECT value FROM json_each(?))"#)
        let names = (0..<300_000).map { "n\($0)" } + ["Soup", "Crème brûlée", "quote\"back\\slash\u{1}"]
        #expect(try PredicateFixture.matches(f, "name IN %@", arguments: [.list(names)]) == [1, 2])
        #expect(try PredicateFixture.matches(f, "name IN[c] %@", arguments: [.list(names + ["ice cream"])]) == [1, 2, 6])
        let dates = (0..<1_000).map { "2020-01-\(String(format: "%02d", $0 % 28 + 1))" } + ["2024-05-20T00:00:00Z"]
        #expect(try PredicateFixture.matches(f, "lastUsed IN %@", arguments: [.list(dates)]) == [6])
        let prices = (0..<100).map { "\($0).75" } + ["12.50"]
        #expect(try PredicateFixture.matches(f, "price IN %@", arguments: [.list(prices)]) == [1, 8])
    }

    // MARK: 14. Regular expressions

    @Test(arguments: [
        ("name MATCHES \"(unclosed\"", [PredicateArgument](), [String: String](), 14),
        ("name MATCHES %@", [.text("[a-")], [:], 14),
        ("name MATCHES $P", [], ["P": "a)(b"], 14),
        ("name MATCHES[cd] \"*x\"", [], [:], 18),
        ("NOT name MATCHES \"a{2,1}\"", [], [:], 18),
    ])
    func invalidRegexIsLocatedAtCompileTime(_ predicate: String, _ arguments: [PredicateArgument], _ variables: [String: String], _ column: Int) throws {
        let f = try PredicateMatchTests.fixture.get()
        let h = headline(f, predicate, variables: variables, arguments: arguments)
        #expect(h?.hasPrefix("predicate:1:\(column): error: invalid regular expression ") == true, "\(h ?? "nil")")
    }

    @Test func validRegexStillMatches() throws {
        let f = try PredicateMatchTests.fixture.get()
        #expect(try PredicateFixture.matches(f, "name MATCHES \"S.*\"") == [1, 3])
        #expect(try PredicateFixture.matches(f, "name MATCHES[c] \"s(oup|traße salad)\"") == [1, 3])
    }

    // MARK: 17. Dates

    @Test(arguments: [
        ("2024-02-29", 1_709_164_800.0), ("2024-05-01T00:00:00Z", 1_714_521_600), ("2024-05-01T02:00:00+02:00", 1_714_521_600),
        ("2024-04-30T20:30:00-03:30", 1_714_521_600), ("2024-05-01T18:00:00+18:00", 1_714_521_600), ("2024-05-01T00:00:00.25Z", 1_714_521_600.25),
        ("1969-12-31T23:59:59Z", -1), ("2000-02-29", 951_782_400),
    ])
    func validDates(_ text: String, _ seconds: Double) {
        #expect(DateText.parse(text) == seconds)
    }

    @Test(arguments: ["2023-02-29", "2024-02-30", "2024-04-31", "2024-13-01", "2024-00-10", "2024-01-00", "1900-02-29",
                      "2024-05-01T00:00:00+99:00", "2024-05-01T00:00:00+18:01", "2024-05-01T00:00:00+05:60", "2024-05-01T24:00:00Z",
                      "2024-05-01T10:60:00Z", "2024-05-01T10:00:60Z", "2024-05-01T10:00:00", "2024-5-1", "2024-05-01T10:00Z",
                      "2024-05-01 10:00:00Z", "2024-05-01T10:00:00.Z", "2024-05-01T10:00:00Zjunk", "yesterday", ""])
    func invalidDates(_ text: String) {
        #expect(DateText.parse(text) == nil)
        #expect(throws: CoercionError.self) { _ = try AttributeType.date.value(fromText: text) }
    }

    @Test func invalidDateLiteralsAreLocated() throws {
        let f = try PredicateMatchTests.fixture.get()
        #expect(headline(f, "lastUsed > \"2024-02-30\"")
                == "predicate:1:12: error: lastUsed is date, but '2024-02-30' is not a valid ISO 8601 date: day 30 does not exist in 2024-02, which has 29 days")
        #expect(headline(f, "lastUsed > \"2024-05-01T00:00:00+99:00\"")
                == "predicate:1:12: error: lastUsed is date, but '2024-05-01T00:00:00+99:00' is not a valid ISO 8601 date: the offset must lie within ±18:00")
        #expect(headline(f, "lastUsed IN %@", arguments: [.list(["2024-01-01", "2023-02-29"])])?
            .hasPrefix("predicate:1:13: error: lastUsed is date, but '2023-02-29' is not a valid ISO 8601 date") == true)
        #expect(headline(f, "lastUsed > $D", variables: ["D": "2024-02-30"])?.hasPrefix("predicate:1:12: error: lastUsed is date") == true)
        // Just outside the dates Strata holds (4713 BC to 294276 AD); the extremes themselves are read.
        #expect(headline(f, "lastUsed > \"294277-01-01\"")
                == "predicate:1:12: error: lastUsed is date, but '294277-01-01' is not a valid ISO 8601 date: it is outside the dates Strata holds, -4713-11-24T00:00:00Z (4713 BC) to 294276-12-31T23:59:59Z")
        #expect(headline(f, "lastUsed < \"-4713-11-23T23:59:59Z\"")
                == "predicate:1:12: error: lastUsed is date, but '-4713-11-23T23:59:59Z' is not a valid ISO 8601 date: it is outside the dates Strata holds, -4713-11-24T00:00:00Z (4713 BC) to 294276-12-31T23:59:59Z")
        #expect(headline(f, "lastUsed > \"-4713-11-24T00:00:00Z\" AND lastUsed < \"294276-12-31T23:59:59Z\"") == nil)
    }

    @Test func decimalExponentsAtTheIntLimitsAreRefused() {
        #expect(DecimalText.canonical("1e-9223372036854775808") == nil)
        #expect(DecimalText.canonical("1e9223372036854775807") == nil)
        #expect(throws: CoercionError.self) { _ = try AttributeType.decimal.value(fromText: "1e-9223372036854775808") }
        #expect(DecimalText.canonical("1.5e2") == "150")
    }

    // MARK: 25. Variables as duration counts

    @Test func variablesCountDurations() throws {
        let f = try PredicateMatchTests.fixture.get()
        let expected = try PredicateFixture.matches(f, "lastUsed >= $NOW - 30 days")
        #expect(try PredicateFixture.matches(f, "lastUsed >= $NOW - $DAYS days", variables: ["DAYS": "30"]) == expected)
        #expect(try PredicateFixture.matches(f, "lastUsed >= $NOW - $H hours", variables: ["H": "720"]) == expected)
        #expect(try PredicateFixture.matches(f, "lastUsed >= $NOW - $W week", variables: ["W": "1"])
                == PredicateFixture.matches(f, "lastUsed >= $NOW - 7 days"))
        #expect(headline(f, "lastUsed >= $NOW - $DAYS days", variables: ["DAYS": "thirty"])
                == "predicate:1:20: error: $DAYS counts a duration, but its value 'thirty' is not an integer")
        #expect(headline(f, "lastUsed >= $NOW - $DAYS days", variables: ["DAYS": "1.5"])
                == "predicate:1:20: error: $DAYS counts a duration, but its value '1.5' is not an integer")
        #expect(headline(f, "lastUsed >= $NOW - $DAYS days") == "predicate:1:20: error: unknown variable $DAYS")
        #expect(headline(f, "lastUsed >= $NOW - $NOW days") == "predicate:1:20: error: $NOW cannot count a duration")
    }

    /// The size check counts the statement from its pieces, without rendering it: the count is the
    /// rendered text's, quotes doubled inside names and qualifiers included.
    @Test func sizeIsCountedFromThePiecesAsRendered() throws {
        let f = try PredicateMatchTests.fixture.get()
        let compiled = try f.compiler.compile("ANY ingredients.name IN {'a', 'b'} AND author.name ==[c] 'Ana' AND rating + 1 > 2",
                                              entity: "Recipe", context: PredicateContext(now: Self.now))
        let odd: SQLText = "SELECT \(ColumnName("we\"ird", qualifier: "t")) FROM \(TableName("x\"\"y", schema: "temp")) WHERE 1 = \(7)"
        for text in [compiled, odd] {
            let size = SQLComplexity.size(text)
            #expect(size.length == text.sql.utf8.count)
            #expect(size.values == text.arguments.count)
        }
    }
}
