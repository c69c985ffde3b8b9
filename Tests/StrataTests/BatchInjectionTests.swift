import Foundation
import GRDB
import Testing
@testable import Strata

/// SQL-injection attempts in values, `%K`, attribute and entity names and `--set` values: none executes anything.
@Suite struct BatchInjectionTests {
    static let payload = "x'); DROP TABLE \"Chef\"; --"

    func chefCount(_ f: PredicateFixture.Fixture) throws -> Int {
        try f.store.queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \"Chef\"") ?? -1 }
    }

    func update(_ f: PredicateFixture.Fixture, _ request: BatchUpdateRequest) async -> Error? {
        do { _ = try await f.store.execute(request, context: PredicateContext(now: 0), model: f.model); return nil } catch { return error }
    }

    @Test(arguments: [
        "name == \"\(payload)\"",
        "name == '\(payload)'",
        "name CONTAINS \"'; DELETE FROM Recipe; --\"",
        "name LIKE \"*\\\"; DROP TABLE Chef; --\"",
        "name MATCHES \".*'); DROP TABLE Chef; --\"",
        "name IN {\"a\", \"b'); DROP TABLE Chef; --\"}",
    ])
    func valuesInPredicatesAreBound(_ predicate: String) async throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", predicate: predicate, propertiesToUpdate: ["notes": .literal("hit")])
        // Either the text is a bound value that matches nothing, or the predicate is rejected: never executed as SQL.
        if let failure = await update(f, request) {
            switch failure as? BatchError {
            case .invalid?, .database?: break
            default: Issue.record("unexpected \(failure)")
            }
        }
        #expect(try chefCount(f) == 4)
        let hits = try await f.store.queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM Recipe WHERE notes = 'hit'") }
        #expect(hits == 0)
    }

    @Test func argumentValuesAreBound() async throws {
        let f = try PredicateFixture.make()
        var request = BatchUpdateRequest(entity: "Recipe", predicate: "name == %@", arguments: [.text(Self.payload)],
                                         propertiesToUpdate: ["notes": .literal("hit")])
        request.resultType = .updatedObjectsCount
        let failure = await update(f, request)
        #expect(failure == nil)
        #expect(try chefCount(f) == 4)
    }

    @Test(arguments: ["name\" = 'x' OR 1=1; --", "name; DROP TABLE Chef", "\"name\"", "author.name\"; DROP TABLE Chef; --"])
    func keysInPercentKAreLookedUpNotPasted(_ key: String) async throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", predicate: "%K == 1", arguments: [.key(key)],
                                         propertiesToUpdate: ["notes": .literal("hit")])
        let error = await update(f, request)
        guard case .invalid(let diagnostic) = error as? BatchError else { Issue.record("expected invalid, got \(String(describing: error))"); return }
        #expect(diagnostic.message.contains("has no attribute"))
        #expect(try chefCount(f) == 4)
    }

    @Test func attributeNamesInPropertiesToUpdateAreValidated() async throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", propertiesToUpdate: ["notes\" = 'x'; DROP TABLE \"Chef": .literal("1")])
        guard case .invalid = await update(f, request) as? BatchError else { Issue.record("expected invalid"); return }
        #expect(try chefCount(f) == 4)
    }

    @Test func entityNamesAreValidated() async throws {
        let f = try PredicateFixture.make()
        let request = BatchDeleteRequest(entity: "Chef\"; DROP TABLE \"Recipe")
        do {
            _ = try await f.store.execute(request, context: PredicateContext(now: 0), model: f.model)
            Issue.record("expected invalid")
        } catch let error as BatchError {
            guard case .invalid = error else { Issue.record("\(error)"); return }
        }
        #expect(try chefCount(f) == 4)
    }

    @Test func setValuesAreStoredVerbatim() async throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", predicate: "name == \"Soup\"", propertiesToUpdate: ["notes": .literal(Self.payload)])
        let failure = await update(f, request)
        #expect(failure == nil)
        let notes = try await f.store.queue.read { try String.fetchOne($0, sql: "SELECT notes FROM Recipe WHERE _pk = 1") }
        #expect(notes == Self.payload)
        #expect(try chefCount(f) == 4)
    }

    @Test func setExpressionsCannotSmuggleSQL() async throws {
        let f = try PredicateFixture.make()
        let request = BatchUpdateRequest(entity: "Recipe", propertiesToUpdate: ["notes": .expression("name); DROP TABLE Chef; --")])
        guard case .invalid = await update(f, request) as? BatchError else { Issue.record("expected invalid"); return }
        #expect(try chefCount(f) == 4)
    }
}
