import Foundation
import Strata
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// Expression functions give SQLite's results on PostgreSQL (SPEC §11.4), where a SQLite/PostgreSQL differential
/// found them apart: decimal division to 20 fractional digits rounded half-even (PostgreSQL's own division kept
/// 16 significant digits and rounded ties away from zero), full Unicode case mapping whatever the database's
/// ctype (`C` on the test server maps ASCII only), and a float's shortest text (`0.1`, not the
/// 0.10000000149011612 of the double it is held in). The same requests on both engines
/// (`PostgresLibraryTests.withStores`: items named Émile, apple, Zebra, nil and special, priced 12.50, 0.10,
/// nil, 99999999999999.99 and nil).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresExpressionParityTests {
    @Test(arguments: [
        ("string(price / 3)", [.text("4.16666666666666666667"), .text("0.03333333333333333333"), .null, .text("33333333333333.33"), .null] as [Value]),
        // Ties at the 21st digit go to the even neighbour: 2.5 units of 10^-20 to 2, 1.5 to 2.
        (#"string((price * 0 + decimal("0.00000000000000000005")) / 2)"#,
         [.text("0.00000000000000000002"), .text("0.00000000000000000002"), .null, .text("0.00000000000000000002"), .null]),
        (#"string((price * 0 + decimal("0.00000000000000000003")) / -2)"#,
         [.text("-0.00000000000000000002"), .text("-0.00000000000000000002"), .null, .text("-0.00000000000000000002"), .null]),
        (#"uppercase(name + "ß")"#, [.text("ÉMILESS"), .text("APPLESS"), .text("ZEBRASS"), .null, .text("SPECIALSS")]),
        (#"lowercase(name + "İ")"#, [.text("émilei̇"), .text("applei̇"), .text("zebrai̇"), .null, .text("speciali̇")]),
        // A decimal literal beside a decimal column (coalesce, TERNARY, min, max): numeric on PostgreSQL, not text.
        ("string(coalesce(price, 0) + 1)", [.text("13.5"), .text("1.1"), .text("1"), .text("100000000000000.99"), .text("1")]),
        (#"string(TERNARY(price == nil, "7.25", price))"#, [.text("12.5"), .text("0.1"), .text("7.25"), .text("99999999999999.99"), .text("7.25")]),
        // More than 38 significant digits is nil (99999999999999.99 cubed has 48).
        ("string(price * price * price)", [.text("1953.125"), .text("0.001"), .null, .null, .null]),
        ("string(float(price))", [.text("12.5"), .text("0.1"), .null, .text("100000000000000.0"), .null]),
    ])
    func anExpressionGivesWhatSQLiteGives(expression: String, expected: [Value]) async throws {
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            let request = BatchUpdateRequest(entity: "Item", propertiesToUpdate: ["tag": .expression(expression)])
            let context = PredicateContext(now: 1_716_249_600)
            _ = try await sqlite.execute(request, context: context)
            _ = try await postgres.execute(request, context: context)
            let onPostgres = try await postgres.fetchAll("Item").map { $0.values["tag"] ?? .null }
            let onSQLite = try sqlite.fetchAll("Item").map { $0.values["tag"] ?? .null }
            #expect(onSQLite == expected)
            #expect(onPostgres == expected)
        }
    }

    /// A date past `timestamptz`'s range (count 2147483647 · 10^12 seconds): `string()` of it is nil on both engines
    /// (to_timestamp stopped the statement, exit 1; SQLite wrote one clamped date for every such value); a date
    /// computed past it cannot be stored on PostgreSQL: exit 3 (SQLSTATE 22008), rolled back.
    @Test func aDateOutsidePostgreSQLsRangeIsNilOrRefused() async throws {
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            let context = PredicateContext(now: 1_716_249_600)
            let text = BatchUpdateRequest(entity: "Item", predicate: "count > 1000", propertiesToUpdate: ["tag": .expression("string(date(count * 1000000000000))")])
            _ = try await postgres.execute(text, context: context)
            _ = try await sqlite.execute(text, context: context)
            let tags = try await postgres.fetchAll("Item").map { $0.values["tag"] ?? .null }
            #expect(tags == [.null, .text("fruit"), .null, .null, .null])
            #expect(try sqlite.fetchAll("Item").map { $0.values["tag"] ?? .null } == tags)
            // Storing one: a date that converts to nil is nil; one computed past the range is refused.
            let converted = BatchUpdateRequest(entity: "Item", predicate: "count > 1000", propertiesToUpdate: ["seen": .expression("date(count * 1000000000000)")])
            #expect(try await postgres.execute(converted, context: context).count == 1)
            #expect(try await postgres.fetchAll("Item").map { $0.values["seen"] ?? .null } == [.real(1_714_557_600), .null, .null, .null, .null])
            let shifted = BatchUpdateRequest(entity: "Item", predicate: "seen != nil", propertiesToUpdate: ["seen": .expression("seen + 100000000000 days")])
            await #expect {
                _ = try await postgres.execute(shifted, context: context)
            } throws: { error in
                guard case PostgresStoreError.server(_, "22008", _, _) = error else { return false }
                return (error as? StrataError)?.exitCode == .validationViolations
            }
            #expect(try await postgres.fetchAll("Item").map { $0.values["seen"] ?? .null } == [.real(1_714_557_600), .null, .null, .null, .null])
        }
    }
}
