import Foundation
import Strata
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// A long chain of decimal operations (20, about the most SQLite's parser takes nested) runs on PostgreSQL with
/// SQLite's exact result (SPEC §11.4). Each operation's result was read twice in a sub-select the planner pulled up
/// (copying the previous operation into both reads, 2^n sub-plans for n operations), and a division wrote its
/// operands into nine places (9^n in text: 918 MB of SQL for 8 divisions). Each is now computed once (`OFFSET 0`),
/// as double arithmetic is.
@Suite struct PostgresDecimalChainRenderingTests {
    /// The rendered text grows linearly: 20 operations of each kind.
    @Test(arguments: [" + 1.5", " - 1.5", " * 1.5", " / 1.5", " + 1"])
    func aChainOf20IsLinearInText(operation: String) throws {
        let short = try PostgresPredicateRenderingTests.compile("price" + String(repeating: operation, count: 10) + " > 0")
        let long = try PostgresPredicateRenderingTests.compile("price" + String(repeating: operation, count: 20) + " > 0")
        let (a, b) = (try PostgresRenderer().rendering(short), try PostgresRenderer().rendering(long))
        #expect(b.arguments.count == 21)
        #expect(b.sql.count < 2 * a.sql.count + 200, "\(a.sql.count) for 10, \(b.sql.count) for 20")
        #expect(b.sql.count < 20 * 1_200)
    }
}

@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresDecimalChainTests {
    static let context = PredicateContext(now: 1_716_249_600)

    /// `price` after `expression` on both engines (`PostgresLibraryTests.withStores`: items priced 12.5, 0.1, nil,
    /// 99999999999999.99 and nil), by `_pk`.
    static func assigned(_ expression: String) async throws -> (sqlite: [Value?], postgres: [Value?]) {
        var result: (sqlite: [Value?], postgres: [Value?]) = ([], [])
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            let request = BatchUpdateRequest(entity: "Item", propertiesToUpdate: ["price": .expression(expression)])
            _ = try await sqlite.execute(request, context: Self.context)
            _ = try await postgres.execute(request, context: Self.context)
            result = (try sqlite.fetchAll("Item").map { $0.values["price"] }, try await postgres.fetchAll("Item").map { $0.values["price"] })
        }
        return result
    }

    static let additions: String = "price" + String(repeating: " + 1.5", count: 20)
    static let halvings: String = "price" + String(repeating: " * 2 / 4", count: 10)
    static let mixed: String = "price" + String(repeating: " - 0.25", count: 12) + String(repeating: " + count", count: 8)
    static let chains: [(String, [String?])] = [
        // 20 additions of 1.5: + 30.
        (additions, ["42.5", "30.1", nil, "100000000000029.99", nil]),
        // 10 times (· 2 / 4): / 1024, exact within 20 fractional digits.
        (halvings, ["0.01220703125", "0.00009765625", nil, "97656249999.999990234375", nil]),
        // 12 subtractions and 8 additions of an integer attribute (counts 3, -7, 2147483647, 0, 1).
        (mixed, ["33.5", "-58.9", nil, "99999999999996.99", nil]),
    ]

    @Test(arguments: chains)
    func aChainOf20GivesTheExactResultOnBothEngines(expression: String, expected: [String?]) async throws {
        let found = try await Self.assigned(expression)
        let values: [Value?] = expected.map { $0.map { .text($0) } ?? .null }
        #expect(found.sqlite == values)
        #expect(found.postgres == values)
    }

    /// 9 times (/ 1.5 · 1.5): the quotients' rounding leaves 12.5 and 0.1 a few units of the 20th fractional digit
    /// off; 99999999999999.99 comes back exactly.
    @Test func aChainOf18InAPredicateMatchesOnBothEngines() async throws {
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            var request = BatchUpdateRequest(entity: "Item", predicate: "price != nil AND price" + String(repeating: " / 1.5 * 1.5", count: 9) + " == price",
                                             propertiesToUpdate: ["tag": .literal("hit")])
            request.resultType = .updatedObjectIDs
            let onSQLite = try await sqlite.execute(request, context: Self.context)
            let onPostgres = try await postgres.execute(request, context: Self.context)
            #expect((onSQLite.objectIDs ?? []).map(\.primaryKey).sorted() == [4])
            #expect((onPostgres.objectIDs ?? []).map(\.primaryKey).sorted() == [4])
        }
    }
}
