import Foundation
import GRDB
import Testing
@testable import Strata

/// SPEC §11.1 Functions and §11.4 Expression typing, on a real store: each function and typing rule
/// assigned by a batch update, with the exact stored values (storage class included) of three rows:
/// Soup (1), Crème brûlée (2) and Straße Salad (3, every attribute nil).
@Suite struct ExpressionFunctionTests {
    static let now = PredicateFixture.now

    /// `nil`, an integer (`3`), a real (`r250.0`) or text (`'Soup'`), as stored.
    static func stored(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "nil"
        case .int64(let i): return String(i)
        case .double(let d): return "r\(d)"
        case .string(let s): return "'\(s)'"
        case .blob: return "blob"
        }
    }

    /// Assigns `expression` to `attribute` on every Recipe (audited like any batch), then reads rows 1-3.
    static func assign(_ attribute: String, _ expression: String) async throws -> [String] {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", propertiesToUpdate: [attribute: .expression(expression)])
        _ = try await f.store.execute(request, context: PredicateContext(now: now), model: f.model)
        return try await f.store.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT \(SQLDialect.sqlite.quote(attribute)) FROM Recipe WHERE _pk <= 3 ORDER BY _pk").map { stored($0[0]) }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var attribute: String
        var expression: String
        var expected: [String]
        init(_ attribute: String, _ expression: String, _ expected: [String]) {
            self.attribute = attribute
            self.expression = expression
            self.expected = expected
        }
        var testDescription: String { "\(attribute) = \(expression)" }
    }

    static let casts: [Case] = [
        .init("notes", "string(rating)", ["'3'", "'5'", "nil"]),
        .init("notes", "string(calories)", ["'250.0'", "'420.5'", "nil"]),
        .init("notes", "string(calories / 1000000000000)", ["'0.00000000025'", "'0.0000000004205'", "nil"]),
        .init("notes", "string(lastUsed)", ["'2024-05-10T00:00:00Z'", "'2024-04-01T00:00:00Z'", "nil"]),
        .init("notes", "string(favorite)", ["'false'", "'true'", "nil"]),
        .init("notes", "string(price)", ["'12.5'", "'7.25'", "nil"]),
        .init("notes", "string(code)", ["'6f1c0d2a-8b3e-4c5d-9e7f-0a1b2c3d4e5f'", "nil", "nil"]),
        .init("notes", "string(\"x\")", ["'x'", "'x'", "'x'"]),
        .init("rating", "int16(calories)", ["250", "420", "nil"]),
        .init("rating", "int16(-calories)", ["-250", "-420", "nil"]),
        .init("rating", "int16(price)", ["12", "7", "nil"]),
        .init("rating", "int16(name)", ["nil", "nil", "nil"]),
        .init("rating", "int16(calories * 200)", ["nil", "nil", "nil"]),
        .init("notes", "string(int32(calories * 200))", ["'50000'", "'84100'", "nil"]),
        .init("rating", "int16(\"42\")", ["42", "42", "42"]),
        .init("rating", "int16(\" 42\")", ["nil", "nil", "nil"]),
        .init("rating", "int16(\"4.0\")", ["nil", "nil", "nil"]),
        .init("rating", "int16(\"40000\")", ["nil", "nil", "nil"]),
        .init("rating", "int64(rating / 2)", ["1", "2", "nil"]),
        .init("calories", "double(rating)", ["r3.0", "r5.0", "nil"]),
        .init("calories", "double(price)", ["r12.5", "r7.25", "nil"]),
        .init("calories", "double(\"1e3\")", ["r1000.0", "r1000.0", "r1000.0"]),
        .init("calories", "float(0.1)", ["r0.10000000149011612", "r0.10000000149011612", "r0.10000000149011612"]),
        .init("price", "decimal(calories)", ["'250'", "'420.5'", "nil"]),
        .init("price", "decimal(rating)", ["'3'", "'5'", "nil"]),
        .init("price", "decimal(\"012.50\")", ["'12.5'", "'12.5'", "'12.5'"]),
        .init("price", "decimal(name)", ["nil", "nil", "nil"]),
        .init("favorite", "bool(rating - 2)", ["1", "nil", "nil"]),
        .init("favorite", "bool(\"yes\")", ["1", "1", "1"]),
        .init("favorite", "bool(\"False\")", ["0", "0", "0"]),
        .init("favorite", "bool(\"maybe\")", ["nil", "nil", "nil"]),
        .init("lastUsed", "date(\"2024-05-01\")", ["r1714521600.0", "r1714521600.0", "r1714521600.0"]),
        .init("lastUsed", "date(rating)", ["r3.0", "r5.0", "nil"]),
        .init("lastUsed", "date(name)", ["nil", "nil", "nil"]),
        .init("lastUsed", "date(nil)", ["nil", "nil", "nil"]),
    ]

    static let functions: [Case] = [
        .init("notes", "coalesce(notes, name)", ["'Soup'", "'Crème brûlée'", "'Straße Salad'"]),
        .init("rating", "coalesce(rating, 0)", ["3", "5", "0"]),
        .init("calories", "coalesce(rating, 0.5)", ["r3.0", "r5.0", "r0.5"]),
        .init("calories", "coalesce(calories, rating, 1)", ["r250.0", "r420.5", "r1.0"]),
        .init("price", "coalesce(price, 1)", ["'12.5'", "'7.25'", "'1'"]),
        .init("lastUsed", "coalesce(lastUsed, \"2024-05-01\")", ["r1715299200.0", "r1711929600.0", "r1714521600.0"]),
        .init("notes", "name + \" x\"", ["'Soup x'", "'Crème brûlée x'", "'Straße Salad x'"]),
        .init("notes", "\"<\" + name + \">\"", ["'<Soup>'", "'<Crème brûlée>'", "'<Straße Salad>'"]),
        .init("notes", "name + notes", ["nil", "nil", "nil"]),
        .init("notes", "substring(name, 2, 3)", ["'oup'", "'rèm'", "'tra'"]),
        .init("notes", "substring(name, 0, 3)", ["'So'", "'Cr'", "'St'"]),
        .init("notes", "substring(name, 5)", ["''", "'e brûlée'", "'ße Salad'"]),
        .init("notes", "substring(name, 2, -1)", ["nil", "nil", "nil"]),
        .init("notes", "substring(\"e\u{301}t\u{E9}\", 2, 2)", ["'\u{301}t'", "'\u{301}t'", "'\u{301}t'"]),
        .init("notes", "trim(\"\u{2003} a b\u{A0}\n\")", ["'a b'", "'a b'", "'a b'"]),
        .init("notes", "trim(name)", ["'Soup'", "'Crème brûlée'", "'Straße Salad'"]),
        .init("notes", "replace(name, \"e\", \"E\")", ["'Soup'", "'CrèmE brûléE'", "'StraßE Salad'"]),
        .init("notes", "replace(name, \"e\u{301}\", \"?\")", ["'Soup'", "'Crème brûlée'", "'Straße Salad'"]),
        .init("calories", "round(calories / 7, 2)", ["r35.71", "r60.07", "nil"]),
        .init("calories", "round(2.5)", ["r3.0", "r3.0", "r3.0"]),
        .init("calories", "round(-2.5)", ["r-3.0", "r-3.0", "r-3.0"]),
        .init("calories", "round(2.675, 2)", ["r2.68", "r2.68", "r2.68"]),
        .init("rating", "round(rating * 5, -1)", ["20", "30", "nil"]),
        .init("rating", "round(rating)", ["3", "5", "nil"]),
        .init("price", "round(price)", ["'13'", "'7'", "nil"]),
        .init("price", "round(-price, 1)", ["'-12.5'", "'-7.3'", "nil"]),
        .init("price", "abs(price - 10)", ["'2.5'", "'2.75'", "nil"]),
        .init("rating", "abs(rating - 4)", ["1", "1", "nil"]),
        .init("calories", "abs(calories - 300)", ["r50.0", "r120.5", "nil"]),
        .init("rating", "min(rating, 4)", ["3", "4", "nil"]),
        .init("rating", "max(rating, 4)", ["4", "5", "nil"]),
        .init("rating", "max(rating, nil)", ["nil", "nil", "nil"]),
        .init("notes", "string(max(rating, 40000))", ["'40000'", "'40000'", "nil"]),
        .init("price", "max(price, 10)", ["'12.5'", "'10'", "nil"]),
        .init("price", "min(price, 10, 8)", ["'8'", "'7.25'", "nil"]),
        .init("lastUsed", "max(lastUsed, \"2024-05-01\")", ["r1715299200.0", "r1714521600.0", "nil"]),
        .init("notes", "min(name, \"M\")", ["'M'", "'Crème brûlée'", "'M'"]),
        .init("lastUsed", "now()", ["r1716249600.0", "r1716249600.0", "r1716249600.0"]),
        .init("notes", "TERNARY(rating > 3, \"good\", \"poor\")", ["'poor'", "'good'", "'poor'"]),
        .init("notes", "TERNARY(NOT (rating > 3), \"low\", \"high\")", ["'low'", "'high'", "'low'"]),
        .init("rating", "TERNARY(favorite == YES, rating + 1, 0)", ["0", "6", "0"]),
        .init("calories", "TERNARY(author.name BEGINSWITH \"A\", 1, calories)", ["r1.0", "r420.5", "nil"]),
        .init("notes", "author.name", ["'Ana'", "'Bjørn'", "nil"]),
        .init("notes", "lowercase(author.name) + \": \" + name", ["'ana: Soup'", "'bjørn: Crème brûlée'", "nil"]),
    ]

    static let typing: [Case] = [
        .init("rating", "rating + 1", ["4", "6", "nil"]),
        .init("rating", "rating + nil", ["nil", "nil", "nil"]),
        .init("calories", "rating / 2", ["r1.5", "r2.5", "nil"]),
        .init("calories", "rating / 0", ["nil", "nil", "nil"]),
        .init("calories", "calories / (rating - rating)", ["nil", "nil", "nil"]),
        .init("calories", "rating * 1.5", ["r4.5", "r7.5", "nil"]),
        .init("price", "price * 3", ["'37.5'", "'21.75'", "nil"]),
        .init("price", "price + 0.1", ["'12.6'", "'7.35'", "nil"]),
        .init("price", "price + 0.000000000000000000001", ["'12.500000000000000000001'", "'7.250000000000000000001'", "nil"]),
        .init("price", "price * -1.0000000000000000001", ["'-12.50000000000000000125'", "'-7.250000000000000000725'", "nil"]),
        .init("price", "coalesce(price, 1.00000000000000000001)", ["'12.5'", "'7.25'", "'1.00000000000000000001'"]),
        .init("price", "0.30000000000000000001", ["'0.30000000000000000001'", "'0.30000000000000000001'", "'0.30000000000000000001'"]),
        .init("price", "price - rating", ["'9.5'", "'2.25'", "nil"]),
        .init("price", "price / 3", ["'4.16666666666666666667'", "'2.41666666666666666667'", "nil"]),
        .init("price", "price / 0", ["nil", "nil", "nil"]),
        .init("price", "decimal(\"0.00000000000000000003\") / 2", ["'0.00000000000000000002'", "'0.00000000000000000002'", "'0.00000000000000000002'"]),
        .init("price", "decimal(\"0.00000000000000000005\") / 2", ["'0.00000000000000000002'", "'0.00000000000000000002'", "'0.00000000000000000002'"]),
        .init("price", "decimal(\"0.00000000000000000007\") / 2", ["'0.00000000000000000004'", "'0.00000000000000000004'", "'0.00000000000000000004'"]),
        .init("price", "decimal(\"99999999999999999999\") * decimal(\"9999999999999999999\")", ["nil", "nil", "nil"]),
        .init("price", "decimal(\"9999999999999999999\") * decimal(\"9999999999999999999\")", ["'99999999999999999980000000000000000001'", "'99999999999999999980000000000000000001'", "'99999999999999999980000000000000000001'"]),
        .init("price", "decimal(\"12345678901234567890\") / 7", ["nil", "nil", "nil"]),
        .init("price", "price * 1 + decimal(\"0.1\") + decimal(\"0.2\")", ["'12.8'", "'7.55'", "nil"]),
        .init("lastUsed", "lastUsed + 1 day", ["r1715385600.0", "r1712016000.0", "nil"]),
        .init("lastUsed", "lastUsed - 2 hours", ["r1715292000.0", "r1711922400.0", "nil"]),
        .init("calories", "$NOW - lastUsed", ["r950400.0", "r4320000.0", "nil"]),
        .init("calories", "rating", ["r3.0", "r5.0", "nil"]),
        .init("price", "rating", ["'3'", "'5'", "nil"]),
    ]

    @Test(arguments: casts) func cast(_ c: Case) async throws {
        #expect(try await Self.assign(c.attribute, c.expression) == c.expected)
    }

    @Test(arguments: functions) func function(_ c: Case) async throws {
        #expect(try await Self.assign(c.attribute, c.expression) == c.expected)
    }

    @Test(arguments: typing) func typingRule(_ c: Case) async throws {
        #expect(try await Self.assign(c.attribute, c.expression) == c.expected)
    }

    /// An integer result goes into an int16 as is: a value out of range is the audit's 1610/1620,
    /// never wrapped, and `rollback` leaves the store as it was.
    @Test func integerResultOutOfRangeIsJudgedByTheAudit() async throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", predicate: "rating != nil",
                                         propertiesToUpdate: ["rating": .expression("rating - 32770")])
        do {
            _ = try await f.store.execute(request, context: PredicateContext(now: Self.now), model: f.model)
            Issue.record("expected a violation")
        } catch let error as BatchViolationError {
            #expect(error.result.audit?.violated.map(\.code) == [.tooSmall])
            #expect(error.result.audit?.violated.first?.count == 2)
        }
        let ratings = try await f.store.queue.read { db in try Int.fetchAll(db, sql: "SELECT coalesce(rating, -1) FROM Recipe ORDER BY _pk") }
        #expect(ratings == [3, 5, -1, 1, 2, 4, 0, 5])
    }

    /// A value that does not convert is nil, which the audit judges: on a mandatory attribute, 1570 and
    /// the batch rolled back.
    @Test func nonConvertibleValueIsJudgedByTheAudit() async throws {
        let yaml = """
        version: 1
        entities:
          Item:
            attributes:
              code:  { type: string }
              count: { type: int32, optional: false, default: 0 }
        """
        let f = try PredicateFixture.make(yaml: yaml, rows: "INSERT INTO Item (_pk, code, count) VALUES (1, '12', 0), (2, 'x12', 0), (3, '7', 0);")
        let request = BatchUpdateRequest(entity: "Item", propertiesToUpdate: ["count": .expression("int32(code)")])
        do {
            _ = try await f.store.execute(request, context: PredicateContext(now: Self.now), model: f.model)
            Issue.record("expected a violation")
        } catch let error as BatchViolationError {
            #expect(error.result.audit?.violated.map(\.code) == [.missingMandatory])
            #expect(error.result.audit?.violated.first?.samples.map(\.objectID).count == 1)
        }
        #expect(try await f.store.queue.read { db in try Int.fetchAll(db, sql: "SELECT count FROM Item ORDER BY _pk") } == [0, 0, 0])
        // The rows that convert are fine once the one that does not is left out.
        let converting = BatchUpdateRequest(entity: "Item", predicate: "code MATCHES \"[0-9]+\"", propertiesToUpdate: ["count": .expression("int32(code)")])
        _ = try await f.store.execute(converting, context: PredicateContext(now: Self.now), model: f.model)
        #expect(try await f.store.queue.read { db in try Int.fetchAll(db, sql: "SELECT count FROM Item ORDER BY _pk") } == [12, 0, 7])
    }

    /// `--var` values are strings, read as integers where a function expects one (SPEC §10).
    @Test func variablesCountAsIntegersWhereExpected() async throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", propertiesToUpdate: ["notes": .expression("substring(name, $FROM, $LENGTH)"),
                                                                              "calories": .expression("round(calories / 7, $PLACES)")])
        _ = try await f.store.execute(request, context: PredicateContext(variables: ["FROM": "2", "LENGTH": "3", "PLACES": "1"], now: Self.now),
                                      model: f.model)
        let rows = try await f.store.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT notes, calories FROM Recipe WHERE _pk <= 2 ORDER BY _pk").map { "\($0[0] as String)|\($0[1] as Double)" }
        }
        #expect(rows == ["oup|35.7", "rèm|60.1"])
    }

    /// uuid(): a new random UUID per row, lowercase.
    @Test func uuidIsNewPerRowAndLowercase() async throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", propertiesToUpdate: ["code": .expression("uuid()"), "notes": .expression("string(uuid())")])
        _ = try await f.store.execute(request, context: PredicateContext(now: Self.now), model: f.model)
        let values = try await f.store.queue.read { db in try String.fetchAll(db, sql: "SELECT code FROM Recipe UNION ALL SELECT notes FROM Recipe") }
        #expect(values.count == 16)
        #expect(Set(values).count == 16)
        for value in values {
            #expect(UUID(uuidString: value) != nil)
            #expect(value == value.lowercased())
        }
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var attribute: String
        var expression: String
        var headline: String
        var hint: String?
        init(_ attribute: String, _ expression: String, _ headline: String, hint: String? = nil) {
            self.attribute = attribute
            self.expression = expression
            self.headline = headline
            self.hint = hint
        }
        var testDescription: String { "\(attribute) = \(expression)" }
    }

    /// Type errors are found when compiling (lint, before any write), located in the expression.
    static let refusals: [Refusal] = [
        .init("notes", "rating", "value:1:1: error: Recipe.notes is string, but rating is int16", hint: "wrap in string(): string(rating)"),
        .init("rating", "calories", "value:1:1: error: Recipe.rating is int16, but calories is double", hint: "wrap in int16(): int16(calories)"),
        .init("rating", "round(calories)", "value:1:1: error: Recipe.rating is int16, but round(calories) is double", hint: "wrap in int16(): int16(round(calories))"),
        .init("price", "calories", "value:1:1: error: Recipe.price is decimal, but calories is double", hint: "wrap in decimal(): decimal(calories)"),
        .init("notes", "uuid()", "value:1:1: error: Recipe.notes is string, but uuid() is uuid", hint: "wrap in string(): string(uuid())"),
        .init("code", "name", "value:1:1: error: Recipe.code is uuid, but name is string"),
        .init("notes", "name + 1", "value:1:8: error: + joins strings only, but 1 is an integer", hint: "quote it to join it as text: \"1\""),
        .init("notes", "name + rating", "value:1:8: error: + joins strings only, but rating is int16", hint: "wrap in string(): string(rating)"),
        .init("rating", "length(name) + \"\"", "value:1:1: error: + joins strings only, but length(name) is int64", hint: "wrap in string(): string(length(name))"),
        .init("notes", "rating + name", "value:1:1: error: + joins strings only, but rating is int16", hint: "wrap in string(): string(rating)"),
        .init("price", "price + calories", "value:1:9: error: decimal arithmetic takes decimals and integers, but calories is double",
              hint: "convert one side: decimal(calories) keeps decimal precision, double(price) gives a double"),
        .init("price", "calories * price", "value:1:1: error: decimal arithmetic takes decimals and integers, but calories is double",
              hint: "convert one side: decimal(calories) keeps decimal precision, double(price) gives a double"),
        .init("lastUsed", "lastUsed + 5", "value:1:12: error: a date moves by a duration, but 5 is an integer",
              hint: "write a duration, as in lastUsed + 30 days; or date(…) to build a date from seconds"),
        .init("lastUsed", "lastUsed * 2", "value:1:12: error: a date moves by a duration, but 2 is an integer"),
        .init("lastUsed", "lastUsed * 2 days", "value:1:10: error: a date can only be shifted with + or -"),
        .init("rating", "coalesce(rating, name)", "value:1:18: error: coalesce's values must share one type, but rating is int16 and name is string",
              hint: "wrap in int16(): int16(name)"),
        .init("price", "coalesce(price, calories)", "value:1:17: error: coalesce's values must share one type, but price is decimal and calories is double",
              hint: "wrap in decimal(): decimal(calories)"),
        .init("notes", "TERNARY(rating > 3, name, rating)", "value:1:27: error: TERNARY's values must share one type, but name is string and rating is int16",
              hint: "wrap in string(): string(rating)"),
        .init("notes", "TERNARY(rating, \"a\", \"b\")", "value:1:15: error: expected a comparison operator but found ','"),
        .init("rating", "round(name)", "value:1:7: error: round() needs a number, but name is string"),
        .init("rating", "round(rating, 1.5)", "value:1:15: error: round()'s places must be an integer, but 1.5 is double"),
        .init("notes", "substring(name, \"a\")", "value:1:17: error: expected int64, but 'a' is not an integer"),
        .init("notes", "trim(rating)", "value:1:6: error: trim() needs strings, but rating is int16", hint: "wrap in string(): string(rating)"),
        .init("notes", "min(name, rating)", "value:1:11: error: min's values must share one type, but name is string and rating is int16",
              hint: "wrap in string(): string(rating)"),
        .init("favorite", "max(favorite, favorite)", "value:1:1: error: max() compares numbers, dates or strings, but its values are bool"),
        .init("notes", "int16()", "value:1:1: error: int16() takes 1 argument, got 0"),
        .init("notes", "substring(name)", "value:1:1: error: substring() takes 2 or 3 arguments, got 1"),
        .init("notes", "min(rating)", "value:1:1: error: min() takes at least 2 arguments, got 1"),
        .init("code", "uuid(1)", "value:1:1: error: uuid() takes 0 arguments, got 1"),
        .init("notes", "concat(name)", "value:1:1: error: unknown function 'concat'"),
        .init("rating", "7 / 2", "value:1:1: error: Recipe.rating is int16, but 3.5 is not an integer"),
        .init("rating", "70000 * 1", "value:1:1: error: Recipe.rating is int16, but 70000 is out of range for int16 (-32768...32767)"),
        .init("price", "$NOW", "value:1:1: error: Recipe.price is decimal, but $NOW is date", hint: "wrap in decimal(): decimal($NOW)"),
        .init("notes", "string(author)", "value:1:8: error: 'author' is a relationship and cannot be used as a function argument",
              hint: "use one of its attributes, as in author.name"),
    ]

    @Test(arguments: refusals) func refusedWhenCompiling(_ r: Refusal) throws {
        let f = try PredicateMatchTests.fixture.get()
        do {
            _ = try f.compiler.compileValue(r.expression, for: r.attribute, of: "Recipe", context: PredicateContext(now: Self.now))
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostic.headline == r.headline)
            if let hint = r.hint { #expect(error.diagnostic.hint == hint) }
        }
    }
}

/// The functions and exact decimals inside predicates (`--where`, hook `predicate:`), on the same rows.
@Suite struct ExpressionPredicateTests {
    @Test(arguments: [
        ("trim(name) == \"Soup\"", [1] as [Int64]),
        ("coalesce(rating, 0) == 0", [3, 7]),
        ("string(rating) == \"5\"", [2, 8]),
        ("substring(name, 1, 2) == \"Cr\"", [2]),
        ("price * 2 > 20", [1, 4, 8]),
        ("-price > 0", [7]),
        ("price / 3 == decimal(\"4.16666666666666666667\")", [1, 8]),
        ("price + 0.1 == 12.6", [1, 8]),
        ("price < 12.500000000000000000001", [1, 2, 5, 6, 7, 8]),
        ("TERNARY(rating > 3, 1, 0) == 1", [2, 6, 8]),
        ("max(rating, 4) == 4", [1, 4, 5, 6, 7]),
        ("int16(price) == 12", [1, 8]),
        ("round(calories / 7) == 36", [1]),
        ("author.name + \"!\" == \"Ana!\"", [1, 4]),
        ("NOT (substring(\"abc\", 1, -1) == \"C\")", [1, 2, 3, 4, 5, 6, 7, 8]),
    ])
    func matches(_ predicate: String, _ expected: [Int64]) throws {
        let f = try PredicateMatchTests.fixture.get()
        #expect(try PredicateFixture.matches(f, predicate) == expected)
    }
}

/// Insert values (`batchInsert from:` + `values:`) use the same functions and typing, over `$source`.
@Suite struct ExpressionInsertTests {
    @Test func insertValuesUseFunctions() async throws {
        let f = try LinkFixture.make()
        let source = BatchInsertSource(entity: "User", predicate: "userID != nil")
        let request = BatchInsertRequest(entity: "Article", from: source,
                                         values: ["title": ##"uppercase($source.name) + "#" + string($source.userID)"##,
                                                  "code": "$source.userID * 2 + 1"])
        _ = try await f.store.execute(request, context: LinkFixture.now, model: f.model)
        #expect(try f.rows(#"SELECT "title", "code" FROM "Content" ORDER BY "_pk""#) == ["ANN#10|21", "BOB#20|41", "CY#30|61"])
    }

    @Test func insertValuesAreTypeChecked() throws {
        let f = try LinkFixture.make()
        let request = BatchInsertRequest(entity: "Article", from: BatchInsertSource(entity: "User"), values: ["title": "$source.userID"])
        do {
            _ = try BatchInsertPlanner(model: f.model, layout: f.layout).plan(request, context: LinkFixture.now)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("Article.title is string, but $source.userID is int64"), "\(error)")
            #expect("\(error)".contains("wrap in string(): string($source.userID)"), "\(error)")
        }
    }
}
