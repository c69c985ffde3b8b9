import Foundation
import Strata
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// `round()` on PostgreSQL gives SQLite's results (SPEC §11.4, Docs/predicates.md): a double is rounded by its
/// shortest decimal digits (`CAST(x AS numeric)` kept 15, and made the largest double a numeric above it, which
/// stopped the statement, exit 3). Each double case (`SQLFunction.round(.double)`) is checked against
/// `ExpressionRuntime.round`, what `strata_round` computes on SQLite, and whole requests against SQLite
/// (`PostgresLibraryTests.withStores`: counts 3, -7, 2147483647, 0 and 1).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresRoundTests {
    static let context = PredicateContext(now: 1_716_249_600)
    static let largest = Double.greatestFiniteMagnitude

    /// Doubles and places around the edges: all 17 digits, a tie in the shortest text (2.675), the largest
    /// double (rounded up past the doubles at -293), the smallest subnormal, places at the ±999 bounds.
    static let cases: [(Double, Int64)] = [
        (1.2345678901234567, 16), (1.2345678901234567, 15), (1.2345678901234567, 2), (2.675, 2), (-2.5, 0), (2.5, 0),
        (0.30000000000000004, 17), (0.30000000000000004, 16), (123456789.98765433, -3), (-0.001, 2),
        (largest, 2), (largest, -292), (largest, -293), (largest, -308), (-largest, -308), (largest, -309),
        (.leastNonzeroMagnitude, 324), (.leastNonzeroMagnitude, 323), (1e-300, 999), (1e300, -999), (1.5, 1000), (1.5, -1000),
        (.infinity, 2), (0, 5),
    ]

    @Test func eachDoubleRoundsAsStrataRoundOnSQLite() async throws {
        let session = try await PostgresSession.connect(try PostgresStoreURL(parsing: PostgresTestServer.url()))
        defer { Task { await session.close() } }
        let x = ColumnName("x", qualifier: "v"), p = ColumnName("p", qualifier: "v")
        let values = Self.cases.enumerated().map { i, c -> SQLText in
            "(\(Int64(i)), CAST(\(Value.real(c.0)) AS double precision), CAST(\(Value.integer(c.1)) AS bigint))"
        }
        let query: SQLText = "SELECT " + .function(.round(.double), [.function(.castReal, ["\(x)"]), "\(p)"])
            + " FROM (VALUES " + values.joined(separator: ", ") + ") AS v(i, x, p) ORDER BY v.i"
        let results = try await session.rows(query).map { try PostgresSession.decode($0[0], as: Double?.self, statement: query) }
        let expected = Self.cases.map { c -> Double? in
            if case .real(let r) = ExpressionRuntime.round(.real(c.0), places: c.1) { return r }
            return nil
        }
        #expect(results == expected)
        #expect(expected[0] == 1.2345678901234567 && expected[12] == .infinity && expected[20] == nil)
    }

    /// A server or role setting `extra_float_digits` below 1 (here the URL's `options`) would make a double's text 15
    /// digits again: Strata's sessions set it to 1 at login, after the options.
    @Test func theSessionReadsShortestExactTextWhateverTheSetting() async throws {
        let url = try PostgresStoreURL(parsing: PostgresTestServer.url() + "&options=-c%20extra_float_digits%3D0")
        let session = try await PostgresSession.connect(url)
        defer { Task { await session.close() } }
        let query: SQLText = "SELECT CAST(CAST(\(Value.real(1.2345678901234567)) AS double precision) AS text), "
            + .function(.round(.double), [.function(.castReal, ["\(Value.real(1.2345678901234567))"]), "\(Value.integer(16))"])
        let row = try #require(try await session.rows(query).first)
        #expect(try PostgresSession.decode(row[0], as: String.self, statement: query) == "1.2345678901234567")
        #expect(try PostgresSession.decode(row[1], as: Double.self, statement: query) == 1.2345678901234567)
    }

    @Test(arguments: [
        // 3/7 is 0.42857142857142855: 16 places keep its shortest digits (PostgreSQL gave 0.428571428571429).
        ("string(round(double(count) / 7, 16))",
         [.text("0.4285714285714286"), .text("-1.0"), .text("306783378.14285713"), .text("0.0"), .text("0.1428571428571429")] as [Value]),
        // The largest double rounded to 2 places is itself (PostgreSQL: out of range for type double precision, exit 3).
        ("string(round(1.7976931348623157e308 + double(count) * 0, 2))",
         Array(repeating: .text("17976931348623157" + String(repeating: "0", count: 292) + ".0"), count: 5)),
        ("string(round(double(count) * 1.0000000000000002, 15))",
         [.text("3.000000000000001"), .text("-7.000000000000002"), .text("2147483647.0000005"), .text("0.0"), .text("1.0")]),
    ])
    func aRequestRoundsAsOnSQLite(expression: String, expected: [Value]) async throws {
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            let request = BatchUpdateRequest(entity: "Item", propertiesToUpdate: ["tag": .expression(expression)])
            _ = try await sqlite.execute(request, context: Self.context)
            _ = try await postgres.execute(request, context: Self.context)
            let onPostgres = try await postgres.fetchAll("Item").map { $0.values["tag"] ?? .null }
            let onSQLite = try sqlite.fetchAll("Item").map { $0.values["tag"] ?? .null }
            #expect(onSQLite == expected)
            #expect(onPostgres == expected)
        }
    }

    /// `round()` and `abs()` of a decimal with more than 38 significant digits are nil, as its `+ - * /` are
    /// (Docs/predicates.md); PostgreSQL's numeric gave the value. Places outside -999…999 give nil.
    @Test(arguments: [
        ("string(round(price, 2))", [.null, .text("0.1"), .null, .text("99999999999999.99"), .null] as [Value]),
        ("string(abs(price))", [.null, .text("0.1"), .null, .text("99999999999999.99"), .null]),
        ("string(round(price * -1, 1))", [.null, .text("-0.1"), .null, .text("-100000000000000"), .null]),
        ("string(round(price, 999))", [.null, .text("0.1"), .null, .text("99999999999999.99"), .null]),
        ("string(round(price, 1000))", [.null, .null, .null, .null, .null]),
        ("string(round(price, -1000))", [.null, .null, .null, .null, .null]),
    ])
    func aDecimalPast38DigitsIsNilAsOnSQLite(expression: String, expected: [Value]) async throws {
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            // Émile's price: 39 significant digits.
            let wide = BatchUpdateRequest(entity: "Item", predicate: "count == 3",
                                          propertiesToUpdate: ["price": .literal("123456789012345678901234567890123456789")])
            let request = BatchUpdateRequest(entity: "Item", propertiesToUpdate: ["tag": .expression(expression)])
            for r in [wide, request] {
                _ = try await sqlite.execute(r, context: Self.context)
                _ = try await postgres.execute(r, context: Self.context)
            }
            let onPostgres = try await postgres.fetchAll("Item").map { $0.values["tag"] ?? .null }
            let onSQLite = try sqlite.fetchAll("Item").map { $0.values["tag"] ?? .null }
            #expect(onSQLite == expected)
            #expect(onPostgres == expected)
        }
    }
}
