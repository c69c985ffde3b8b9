import Foundation
import Strata
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// Integer arithmetic in predicates and expressions computes in 64 bits on PostgreSQL as on SQLite (SPEC
/// §11.4): an `integer` or `smallint` column does not overflow at its own width (`count * 2` with `count`
/// 2,147,483,647 stopped the statement: "integer out of range"), and a result that leaves the 64-bit range
/// is nil in an assignment and compared as a number in a predicate, where PostgreSQL's bigint arithmetic
/// stopped the statement. Checked against the same requests on SQLite (`PostgresLibraryTests.withStores`:
/// items with counts 3, -7, 2147483647, 0 and a `Special` with level 4).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresIntegerArithmeticTests {
    static let context = PredicateContext(now: 1_716_249_600)

    /// The primary keys `predicate` selects among the items, on both engines.
    static func matches(_ predicate: String, _ sqlite: Store, _ postgres: PostgresStore) async throws -> (sqlite: [Int64], postgres: [Int64]) {
        var request = BatchUpdateRequest(entity: "Item", predicate: predicate, propertiesToUpdate: ["tag": .literal("hit")])
        request.resultType = .updatedObjectIDs
        let onSQLite = try await sqlite.execute(request, context: context)
        let onPostgres = try await postgres.execute(request, context: context)
        return ((onSQLite.objectIDs ?? []).map(\.primaryKey).sorted(), (onPostgres.objectIDs ?? []).map(\.primaryKey).sorted())
    }

    @Test(arguments: [
        ("count * 2 > 0", [1, 3, 5] as [Int64]),
        ("count + count = 4294967294", [3]),
        ("-count < -2147483646", [3]),
        ("abs(count) * 2 > 10", [3, 2]),
        ("count * count * count * count > 1", [1, 2, 3]),
        ("count * 4294967296 * 4294967296 > 0", [1, 3, 5]),
    ])
    func aPredicateMatchesWhatSQLiteMatches(predicate: String, expected: [Int64]) async throws {
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            let found = try await Self.matches(predicate, sqlite, postgres)
            #expect(found.sqlite == expected.sorted())
            #expect(found.postgres == expected.sorted())
        }
    }

    @Test func aResultOutsideTheIntegerRangeIsNilOnBothEngines() async throws {
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            let request = BatchUpdateRequest(entity: "Item", predicate: "count != nil",
                                             propertiesToUpdate: ["tag": .expression("string(count * 4294967296 * 4294967296)")])
            _ = try await sqlite.execute(request, context: Self.context)
            _ = try await postgres.execute(request, context: Self.context)
            let onPostgres = try await postgres.fetchAll("Item").map { $0.values["tag"] }
            let onSQLite = try sqlite.fetchAll("Item").map { $0.values["tag"] }
            #expect(onPostgres == [.null, .null, .null, .text("0"), .null])
            #expect(onSQLite == onPostgres)
        }
    }

    /// `int64(x / y)` of integers truncates exactly toward zero on both engines, past 2^53 too (through a double
    /// 9007205692997629 was …628); a zero divisor is nil. The items' counts: 3, -7, 2147483647, 0 and 1.
    @Test(arguments: [
        ("string(int64(count / 2))", [Value.text("1"), .text("-3"), .text("1073741823"), .text("0"), .text("0")]),
        ("string(int64(count * 4194307 / 1))", [.text("12582921"), .text("-29360149"), .text("9007205692997629"), .text("0"), .text("4194307")]),
        ("string(int64((count * 4194307) / (count - count)))", [.null, .null, .null, .null, .null]),
    ])
    func anIntegerQuotientIsExactOnBothEngines(expression: String, expected: [Value]) async throws {
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            let request = BatchUpdateRequest(entity: "Item", predicate: nil, propertiesToUpdate: ["tag": .expression(expression)])
            _ = try await sqlite.execute(request, context: Self.context)
            _ = try await postgres.execute(request, context: Self.context)
            let onSQLite = try sqlite.fetchAll("Item").map { $0.values["tag"] }
            let onPostgres = try await postgres.fetchAll("Item").map { $0.values["tag"] }
            #expect(onSQLite == expected, "\(onSQLite)")
            #expect(onPostgres == expected, "\(onPostgres)")
        }
    }

    /// A result an `integer` column cannot hold: SQLite stores it and its audit reports 1610 (exit 3); PostgreSQL
    /// refuses the statement, which is exit 3 too, with nothing written.
    @Test func aValueItsColumnCannotHoldIsExit3() async throws {
        try await PostgresLibraryTests.withStores { _, postgres in
            let request = BatchUpdateRequest(entity: "Item", predicate: "count > 1000", propertiesToUpdate: ["count": .expression("count * 2")])
            await #expect {
                _ = try await postgres.execute(request, context: Self.context)
            } throws: { error in
                guard case PostgresStoreError.server(_, "22003", _, _) = error else { return false }
                return (error as? StrataError)?.exitCode == .validationViolations
                    && (error as? StrataError)?.diagnostics.first?.hint?.hasSuffix("(1610/1620 on SQLite); its transaction was rolled back") == true
            }
            let counts = try await postgres.fetchAll("Item").map { $0.values["count"] }
            #expect(counts == [.integer(3), .integer(-7), .integer(2147483647), .integer(0), .integer(1)])
        }
    }
}
