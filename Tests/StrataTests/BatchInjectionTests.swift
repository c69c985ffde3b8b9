import Foundation
import GRDB
import Testing
@testable import Strata

/// SQL-injection attempts in values, `%K`, attribute and entity names and `--set` values: a value is bound
/// (the exact SQL and arguments say so, the run is clean and changes exactly the rows it matches), a name
/// is looked up and refused with its location; nothing is ever executed as SQL.
@Suite struct BatchInjectionTests {
    static let payload = "x'); DROP TABLE \"Chef\"; --"

    /// A predicate whose strings are SQL: the condition it compiles to, the values bound, the rows it matches.
    struct Bound: Sendable, CustomTestStringConvertible {
        var predicate: String
        var arguments: [PredicateArgument] = []
        var condition: String
        var bound: [Value]
        var matched: [Int64]
        var testDescription: String { predicate }
    }

    static let bound: [Bound] = [
        Bound(predicate: #"name == "x'); DROP TABLE Chef; --""#, condition: #"t."name" = ?"#,
              bound: [.text("x'); DROP TABLE Chef; --")], matched: []),
        Bound(predicate: #"name == 'x"); DROP TABLE Chef; --'"#, condition: #"t."name" = ?"#,
              bound: [.text(#"x"); DROP TABLE Chef; --"#)], matched: []),
        Bound(predicate: #"name CONTAINS "'; DELETE FROM Recipe; --""#, condition: #"strata_contains(t."name", ?)"#,
              bound: [.text("'; DELETE FROM Recipe; --")], matched: []),
        Bound(predicate: #"name LIKE "*\"; DROP TABLE Chef; --""#, condition: #"strata_like(t."name", ?)"#,
              bound: [.text(#"*"; DROP TABLE Chef; --"#)], matched: []),
        // A value that also matches a row: the statement really ran, and changed that row only.
        Bound(predicate: #"name IN {"Soup", "b'); DROP TABLE Chef; --"}"#, condition: #"t."name" IN (?, ?)"#,
              bound: [.text("Soup"), .text("b'); DROP TABLE Chef; --")], matched: [1]),
        Bound(predicate: "name == %@ OR name == %@", arguments: [.text(payload), .text("CREME")],
              condition: #"(t."name" = ? OR t."name" = ?)"#, bound: [.text(payload), .text("CREME")], matched: [5]),
    ]

    /// The statement `Store.execute` runs for `request` (planned as `BatchExecutor` plans it).
    static func statement(_ f: PredicateFixture.Fixture, _ request: BatchUpdateRequest) throws -> SQLText {
        let context = PredicateContext(arguments: request.arguments, now: 0)
        return try BatchPlanner(model: f.model, layout: f.layout).planUpdate(request, context: context).update(returning: false)
    }

    /// Every row of the fixture's tables, to compare before and after.
    static func everything(_ f: PredicateFixture.Fixture) throws -> [String] {
        try ["Recipe", "Ingredient", "Chef", "_Recipe_tags"].flatMap { table in
            try MigrationSupport.dump(f.store, "SELECT * FROM \(quoted(table)) ORDER BY 1, 2").map { table + ": " + $0 }
        }
    }

    static func notes(_ f: PredicateFixture.Fixture) throws -> [String] {
        try MigrationSupport.dump(f.store, #"SELECT "_pk", "notes" FROM "Recipe" WHERE "notes" IS NOT NULL ORDER BY "_pk""#)
    }

    /// The diagnostic's first line when the request is refused as invalid, else a description of what happened.
    static func refusal(_ run: () async throws -> Void) async -> String {
        do {
            try await run()
            return "ran"
        } catch BatchError.invalid(let diagnostic) {
            return diagnostic.headline
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test(arguments: bound)
    func valuesInPredicatesAreBound(_ c: Bound) async throws {
        let f = try PredicateFixture.make()
        var request = BatchUpdateRequest(entity: "Recipe", predicate: c.predicate, arguments: c.arguments,
                                         propertiesToUpdate: ["notes": .literal("hit")])
        request.resultType = .updatedObjectsCount
        let statement = try Self.statement(f, request)
        #expect(statement == RenderedSQL(#"UPDATE "Recipe" AS t SET "notes" = ? WHERE "# + c.condition, [.text("hit")] + c.bound),
                "\(statement)")

        let result = try await f.store.execute(request, context: PredicateContext(now: 0), model: f.model)
        #expect(result.count == c.matched.count)
        #expect(try Self.notes(f) == c.matched.map { "\($0)|hit" })
        // Nothing else changed: every table equals a fresh fixture with just the matched rows' notes set.
        let reference = try PredicateFixture.make()
        try await reference.store.queue.write { db in
            for pk in c.matched { try db.execute(sql: #"UPDATE "Recipe" SET "notes" = 'hit' WHERE "_pk" = ?"#, arguments: [pk]) }
        }
        #expect(try Self.everything(f) == Self.everything(reference))
    }

    /// A string that ends early (leaving SQL-looking text outside it) or a regex that does not compile:
    /// a located error, nothing run.
    @Test(arguments: [
        ("name == \"\(payload)\"", "predicate:1:27: error: unexpected 'Chef'"),
        ("name == '\(payload)'", "predicate:1:13: error: unexpected character ';'"),
        (#"name MATCHES ".*'); DROP TABLE Chef; --""#, #"predicate:1:14: error: invalid regular expression ".*'); DROP TABLE Chef; --""#),
    ])
    func predicatesThatLeaveTheirStringAreRefusedWithTheirLocation(_ predicate: String, _ headline: String) async throws {
        let f = try PredicateFixture.make()
        let before = try Self.everything(f)
        let request = BatchUpdateRequest(entity: "Recipe", predicate: predicate, propertiesToUpdate: ["notes": .literal("hit")])
        #expect(await Self.refusal { _ = try await f.store.execute(request, context: PredicateContext(now: 0), model: f.model) } == headline)
        #expect(try Self.everything(f) == before)
    }

    @Test(arguments: [
        ("name\" = 'x' OR 1=1; --", "predicate:1:1: error: Recipe has no attribute 'name\" = 'x' OR 1=1; --'"),
        ("name; DROP TABLE Chef", "predicate:1:1: error: Recipe has no attribute 'name; DROP TABLE Chef'"),
        ("\"name\"", "predicate:1:1: error: Recipe has no attribute '\"name\"' (did you mean 'name'?)"),
        ("author.name\"; DROP TABLE Chef; --", "predicate:1:1: error: Chef has no attribute 'name\"; DROP TABLE Chef; --'"),
    ])
    func keysInPercentKAreLookedUpNotPasted(_ key: String, _ headline: String) async throws {
        let f = try PredicateFixture.make()
        let before = try Self.everything(f)
        let request = BatchUpdateRequest(entity: "Recipe", predicate: "%K == 1", arguments: [.key(key)],
                                         propertiesToUpdate: ["notes": .literal("hit")])
        let refusal = await Self.refusal { _ = try await f.store.execute(request, context: PredicateContext(now: 0), model: f.model) }
        #expect(refusal == headline)
        #expect(try Self.everything(f) == before)
    }

    @Test func attributeNamesInPropertiesToUpdateAreLookedUp() async throws {
        let f = try PredicateFixture.make()
        let before = try Self.everything(f)
        let request = BatchUpdateRequest(entity: "Recipe", propertiesToUpdate: ["notes\" = 'x'; DROP TABLE \"Chef": .literal("1")])
        #expect(await Self.refusal { _ = try await f.store.execute(request, context: PredicateContext(now: 0), model: f.model) }
                == #"value:1:1: error: Recipe has no attribute 'notes" = 'x'; DROP TABLE "Chef'"#)
        #expect(try Self.everything(f) == before)
    }

    @Test func entityNamesAreLookedUp() async throws {
        let f = try PredicateFixture.make()
        let before = try Self.everything(f)
        let request = BatchDeleteRequest(entity: "Chef\"; DROP TABLE \"Recipe")
        #expect(await Self.refusal { _ = try await f.store.execute(request, context: PredicateContext(now: 0), model: f.model) }
                == #"error: unknown entity 'Chef"; DROP TABLE "Recipe'"#)
        #expect(try Self.everything(f) == before)
    }

    @Test func setValuesAreBoundAndStoredVerbatim() async throws {
        let f = try PredicateFixture.make()
        var request = BatchUpdateRequest(entity: "Recipe", predicate: #"name == "Soup""#, propertiesToUpdate: ["notes": .literal(Self.payload)])
        request.resultType = .updatedObjectsCount
        #expect(try Self.statement(f, request)
                == RenderedSQL(#"UPDATE "Recipe" AS t SET "notes" = ? WHERE t."name" = ?"#, [.text(Self.payload), .text("Soup")]))
        let result = try await f.store.execute(request, context: PredicateContext(now: 0), model: f.model)
        #expect(result.count == 1)
        #expect(try Self.notes(f) == ["1|\(Self.payload)"])
        #expect(try MigrationSupport.dump(f.store, #"SELECT count(*) FROM "Chef""#) == ["4"])
    }

    @Test func setExpressionsCannotSmuggleSQL() async throws {
        let f = try PredicateFixture.make()
        let before = try Self.everything(f)
        let request = BatchUpdateRequest(entity: "Recipe", propertiesToUpdate: ["notes": .expression("name); DROP TABLE Chef; --")])
        #expect(await Self.refusal { _ = try await f.store.execute(request, context: PredicateContext(now: 0), model: f.model) }
                == "value:1:6: error: unexpected character ';'")
        #expect(try Self.everything(f) == before)
    }
}
