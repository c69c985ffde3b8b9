import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct BatchUpdateTests {
    let now = PredicateFixture.now

    func names(_ ids: [ObjectID]?) -> [String] { (ids ?? []).map { "\($0.entity)/p\($0.primaryKey)" } }

    func column<T: DatabaseValueConvertible>(_ f: PredicateFixture.Fixture, _ sql: String, as: T.Type = T.self) throws -> [T?] {
        try f.store.queue.read { db in try Row.fetchAll(db, sql: sql).map { $0[0] as T? } }
    }

    @Test func updatesMatchingRowsAndReturnsObjectIDs() async throws {
        let f = try PredicateFixture.make()
        var request = BatchUpdateRequest(entity: "Recipe", predicate: "lastUsed >= $NOW - 30 days",
                                         propertiesToUpdate: ["favorite": .literal("true")])
        request.resultType = .updatedObjectIDs
        let result = try await f.store.execute(request, context: PredicateContext(now: now), model: f.model)
        #expect(result.count == 4)
        #expect(names(result.objectIDs) == ["Dessert/p6", "Recipe/p1", "Recipe/p4", "Recipe/p8"])
        let uuid = try f.store.metadata().storeUUID
        #expect(result.objectIDs?.first?.uri == "x-strata://\(uuid)/Dessert/p6")
        #expect(try column(f, "SELECT favorite FROM Recipe ORDER BY _pk", as: Int.self) == [1, 1, nil, 1, 1, 1, 0, 1])
    }

    @Test func statusOnlyIsOneUpdateAndCountsPerEntity() async throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", predicate: "rating >= 4", propertiesToUpdate: ["notes": .literal("top")])
        let result = try await f.store.execute(request, context: PredicateContext(now: now), model: f.model)
        #expect(result.count == 3)
        #expect(result.objectIDs == nil)
        #expect(result.changes.updated.isEmpty)
        #expect(result.changes.updatedCounts == ["Recipe": 1, "Dessert": 2])
    }

    @Test func planSQLIsASingleUpdate() throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", predicate: "lastUsed >= $NOW - 30 days",
                                         propertiesToUpdate: ["favorite": .literal("YES"), "rating": .expression("rating + 1")])
        let plan = try BatchPlanner(model: f.model, layout: f.layout).planUpdate(request, context: PredicateContext(now: now))
        #expect(plan.update(returning: false) == RenderedSQL(
            #"UPDATE "Recipe" AS t SET "favorite" = ?, "rating" = (t."rating" + ?) WHERE t."lastUsed" >= ?"#,
            [.integer(1), .integer(1), .real(now - 2_592_000)]))
        #expect(plan.update(returning: true).sql.hasSuffix(#" RETURNING "_pk", "_entity""#))
    }

    /// A predicate true for every row leaves the condition out, decided by the compiled condition (not by
    /// comparing its text with "1"): `NOT FALSEPREDICATE` is as unconditional as `TRUEPREDICATE`.
    @Test(arguments: ["TRUEPREDICATE", "NOT FALSEPREDICATE", "NOT NOT TRUEPREDICATE"])
    func alwaysTruePredicatesHaveNoCondition(_ predicate: String) throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Chef", predicate: predicate, propertiesToUpdate: ["name": .literal("x")])
        let plan = try BatchPlanner(model: f.model, layout: f.layout).planUpdate(request, context: PredicateContext(now: now))
        #expect(plan.condition == nil)
        #expect(plan.update(returning: false) == RenderedSQL(#"UPDATE "Chef" AS t SET "name" = ?"#, [.text("x")]))
    }

    @Test func expressionsOverTheRow() async throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", predicate: "rating != nil",
                                         propertiesToUpdate: ["rating": .expression("rating + 1"), "notes": .expression("lowercase(name)"),
                                                              "calories": .expression("calories * 2"), "lastUsed": .expression("$NOW")])
        let result = try await f.store.execute(request, context: PredicateContext(now: now), model: f.model)
        #expect(result.count == 7)
        #expect(try column(f, "SELECT rating FROM Recipe ORDER BY _pk", as: Int.self) == [4, 6, nil, 2, 3, 5, 1, 6])
        #expect(try column(f, "SELECT notes FROM Recipe WHERE _pk IN (2, 5) ORDER BY _pk", as: String.self) == ["crème brûlée", "creme"])
        #expect(try column(f, "SELECT calories FROM Recipe WHERE _pk = 1", as: Double.self) == [500])
        #expect(try column(f, "SELECT lastUsed FROM Recipe WHERE _pk = 1", as: Double.self) == [now])
    }

    @Test func subEntitiesAndIncludesSubentities() async throws {
        let f = try PredicateFixture.make()
        var request = BatchUpdateRequest(entity: "Recipe", propertiesToUpdate: ["notes": .literal("x")])
        request.includesSubentities = false
        request.resultType = .updatedObjectIDs
        let result = try await f.store.execute(request, context: PredicateContext(now: now), model: f.model)
        #expect(names(result.objectIDs) == ["Recipe/p1", "Recipe/p3", "Recipe/p4", "Recipe/p5", "Recipe/p7", "Recipe/p8"])
        var desserts = BatchUpdateRequest(entity: "Dessert", predicate: "sweetness > 6", propertiesToUpdate: ["sweetness": .value(.integer(10))])
        desserts.resultType = .updatedObjectsCount
        let dessertResult = try await f.store.execute(desserts, context: PredicateContext(now: now), model: f.model)
        #expect(dessertResult.count == 1)
        #expect(try column(f, "SELECT sweetness FROM Recipe WHERE _pk = 6", as: Int.self) == [10])
    }

    /// SPEC §11.4: an integer result goes into an int16 as is; the audit judges its range (1610) and
    /// `rollback` undoes the whole update.
    @Test func expressionOutOfRangeIsJudgedByTheAudit() async throws {
        let f = try PredicateFixture.make()
        try await f.store.queue.write { try $0.execute(sql: "UPDATE Recipe SET rating = 32767 WHERE _pk = 8") }
        let request = BatchUpdateRequest(entity: "Recipe", predicate: "rating != nil", propertiesToUpdate: ["rating": .expression("rating + 1")])
        do {
            _ = try await f.store.execute(request, context: PredicateContext(now: now), model: f.model)
            Issue.record("expected a range violation")
        } catch let error as BatchViolationError {
            let violated = error.result.audit?.violated ?? []
            #expect(violated.map(\.code) == [.tooLarge])
            #expect(violated.map(\.property) == ["rating"])
            #expect(violated.first?.samples.map(\.value) == ["32768"])
        }
        #expect(try column(f, "SELECT rating FROM Recipe ORDER BY _pk", as: Int.self) == [3, 5, nil, 1, 2, 4, 0, 32767])
    }

    @Test(arguments: [
        ("rating", UpdateValue.literal("70000"), "value:1:1: error: Recipe.rating is int16, but 70000 is out of range for int16 (-32768...32767)"),
        ("rating", .literal("five"), "value:1:1: error: Recipe.rating is int16, but 'five' is not an integer"),
        ("rating", .value(.integer(40000)), "value:1:1: error: Recipe.rating is int16, but 40000 is out of range (-32768...32767)"),
        ("rating", .expression("calories"), "value:1:1: error: Recipe.rating is int16, but calories is double"),
        ("rating", .expression("name"), "value:1:1: error: Recipe.rating is int16, but name is string"),
        ("author", .literal("1"), "value:1:1: error: 'author' is a relationship of Recipe; batch updates change attributes only"),
        ("ratng", .literal("1"), "value:1:1: error: Recipe has no attribute 'ratng' (did you mean 'rating'?)"),
        ("notes", .expression("author.nam"), "value:1:8: error: Chef has no attribute 'nam' (did you mean 'name'?)"),
        ("lastUsed", .literal("yesterday"), #"value:1:1: error: Recipe.lastUsed is date, but 'yesterday' is not an ISO 8601 date (e.g. "2024-05-01" or "2024-05-01T00:00:00Z")"#),
    ] as [(String, UpdateValue, String)])
    func rejectsBadValues(_ key: String, _ value: UpdateValue, _ headline: String) throws {
        let f = try PredicateMatchTests.fixture.get()
        let request = BatchUpdateRequest(entity: "Recipe", propertiesToUpdate: [key: value])
        do {
            _ = try BatchPlanner(model: f.model, layout: f.layout).planUpdate(request, context: PredicateContext(now: now))
            Issue.record("expected an error")
        } catch {
            guard case .invalid(let diagnostic) = error else { Issue.record("\(error)"); return }
            #expect(diagnostic.headline == headline)
        }
    }

    @Test func recordsTouchedRows() throws {
        let f = try PredicateFixture.make()
        let uuid = try f.store.metadata().storeUUID
        let request = BatchUpdateRequest(entity: "Recipe", predicate: "favorite == YES", propertiesToUpdate: ["rating": .literal("3")])
        let touched: [String] = try f.store.queue.inDatabase { db in
            try db.inTransaction {
                let result = try BatchExecutor.execute(request, in: db, model: f.model, layout: f.layout, storeUUID: uuid,
                                                       context: PredicateContext(now: now), recordTouched: true)
                #expect(result.count == 3)
                #expect(result.changes.updatedCounts == ["Recipe": 2, "Dessert": 1])
                return .commit
            }
            return try Row.fetchAll(db, sql: "SELECT \"table\", \"pk\" FROM temp.strata_touched ORDER BY 1, 2").map { "\($0[0] as String)/\($0[1] as Int)" }
        }
        #expect(touched == ["Recipe/2", "Recipe/5", "Recipe/8"])
    }

    /// The first batch on a table records its rows straight into the touched table; a later batch on the same
    /// table in the same audit scope (a hook's second step) goes through the keys table, so it updates and
    /// lists only its own rows while the touched table gathers both.
    @Test func aSecondBatchOnTheSameTableUpdatesOnlyItsOwnRows() throws {
        let f = try PredicateFixture.make()
        let uuid = try f.store.metadata().storeUUID
        let first = BatchUpdateRequest(entity: "Recipe", predicate: "favorite == YES", propertiesToUpdate: ["notes": .literal("first")])
        var second = BatchUpdateRequest(entity: "Recipe", predicate: "rating == 5", propertiesToUpdate: ["notes": .literal("second")])
        second.resultType = .updatedObjectIDs
        let (touched, notes): ([String], [String]) = try f.store.queue.inDatabase { db in
            try db.inTransaction {
                try Auditor.prepareTouched(db)
                let one = try BatchExecutor.execute(first, in: db, model: f.model, layout: f.layout, storeUUID: uuid,
                                                    context: PredicateContext(now: now), recordTouched: true, collectObjectIDs: true)
                #expect(one.count == 3)
                #expect(one.changes.updated.mapValues { $0.map(\.primaryKey) } == ["Dessert": [2], "Recipe": [5, 8]])
                let two = try BatchExecutor.execute(second, in: db, model: f.model, layout: f.layout, storeUUID: uuid,
                                                    context: PredicateContext(now: now), recordTouched: true)
                #expect(two.count == 2)
                #expect(two.objectIDs?.map(\.primaryKey) == [2, 8])
                #expect(two.changes.updated.mapValues { $0.map(\.primaryKey) } == ["Dessert": [2], "Recipe": [8]])
                return .commit
            }
            let touched = try Row.fetchAll(db, sql: "SELECT \"table\", \"pk\" FROM temp.strata_touched ORDER BY 1, 2").map { "\($0[0] as String)/\($0[1] as Int)" }
            return (touched, try String.fetchAll(db, sql: "SELECT _pk || ':' || COALESCE(notes, '-') FROM Recipe ORDER BY _pk"))
        }
        #expect(touched == ["Recipe/2", "Recipe/5", "Recipe/8"])
        #expect(notes.filter { $0.hasSuffix(":first") || $0.hasSuffix(":second") } == ["2:second", "5:first", "8:second"])
    }

    @Test func observersReceiveExactlyTheChangedIDs() async throws {
        let f = try PredicateFixture.make()
        let received = Received()
        let token = f.store.addChangeObserver { received.append($0) }
        let update = BatchUpdateRequest(entity: "Recipe", predicate: "rating == 5", propertiesToUpdate: ["notes": .literal("five")])
        _ = try await f.store.execute(update, context: PredicateContext(now: now), model: f.model)
        let delete = BatchDeleteRequest(entity: "Recipe", predicate: "name == \"Soup\"")
        _ = try await f.store.execute(delete, context: PredicateContext(now: now), model: f.model)
        let nothing = BatchUpdateRequest(entity: "Recipe", predicate: "FALSEPREDICATE", propertiesToUpdate: ["notes": .literal("x")])
        _ = try await f.store.execute(nothing, context: PredicateContext(now: now), model: f.model)
        f.store.removeChangeObserver(token)
        _ = try await f.store.execute(update, context: PredicateContext(now: now), model: f.model)

        let sets = received.sets
        #expect(sets.count == 2)
        #expect(sets[0].updated.mapValues(names) == ["Dessert": ["Dessert/p2"], "Recipe": ["Recipe/p8"]])
        #expect(sets[0].deleted.isEmpty)
        #expect(sets[1].deleted.mapValues(names) == ["Recipe": ["Recipe/p1"], "Ingredient": ["Ingredient/p1", "Ingredient/p2"]])
        #expect(sets[1].updated.isEmpty)
    }

    @Test func observersWithoutIDsGetCounts() async throws {
        let f = try PredicateFixture.make()
        let received = Received()
        f.store.addChangeObserver(wantsObjectIDs: false) { received.append($0) }
        let update = BatchUpdateRequest(entity: "Recipe", predicate: "rating == 5", propertiesToUpdate: ["notes": .literal("five")])
        _ = try await f.store.execute(update, context: PredicateContext(now: now), model: f.model)
        #expect(received.sets.count == 1)
        #expect(received.sets[0].updated.isEmpty)
        #expect(received.sets[0].hasObjectIDs == false)
        #expect(received.sets[0].updatedCounts == ["Dessert": 1, "Recipe": 1])
    }
}

final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [ChangeSet] = []
    func append(_ c: ChangeSet) { lock.lock(); storage.append(c); lock.unlock() }
    var sets: [ChangeSet] { lock.lock(); defer { lock.unlock() }; return storage }
}
