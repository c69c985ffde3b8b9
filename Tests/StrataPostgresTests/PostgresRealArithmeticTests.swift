import Foundation
import Strata
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// Double arithmetic on PostgreSQL gives SQLite's results (SPEC §11.4): a result past the finite doubles is nil
/// (PostgreSQL stopped the statement: "value out of range: overflow"), a product or quotient that rounds to zero
/// is 0 ("… underflow"), and `x / 0` is nil ("division by zero"). Each operation's `CASE`
/// (`SQLFunction.realArithmetic`) is checked against Swift's IEEE arithmetic on the edges of the range, and
/// whole requests against SQLite (`PostgresLibraryTests.withStores`: counts 3, -7, 2147483647, 0 and 1).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresRealArithmeticTests {
    static let context = PredicateContext(now: 1_716_249_600)

    static func power(_ exponent: Int) -> Double { Double(sign: .plus, exponent: exponent, significand: 1) }

    /// Operands around every bound the guards test: zero, subnormals, 2^-537, 1, 2^512, 2^1022, the largest
    /// double and its half-ulp, infinities.
    static let operands: [Double] = {
        let positive: [Double] = [
            0, .leastNonzeroMagnitude, 3 * .leastNonzeroMagnitude, .leastNormalMagnitude, power(-1021), 1e-300,
            power(-538), power(-537), 1.5717277847026285e-162, power(-511), 1e-100, power(-50), 0.5, 1, 1.0000000000000002, 3,
            1e10, power(512), 1.3407807929942596e154, 1e300, 9.9792015476736e291, power(1022), power(1023),
            Double.greatestFiniteMagnitude.nextDown, .greatestFiniteMagnitude, .infinity,
        ]
        return positive + positive.map { -$0 }
    }()

    /// What SQLite gives, settled: nil for `x / 0` and for a result that is not a finite number.
    static func expected(_ op: SQLFunction.Arithmetic, _ a: Double, _ b: Double) -> Double? {
        let result: Double
        switch op {
        case .add: result = a + b
        case .subtract: result = a - b
        case .multiply: result = a * b
        case .divide:
            guard b != 0 else { return nil }
            result = a / b
        }
        return result.isFinite ? result : nil
    }

    @Test(arguments: [SQLFunction.Arithmetic.add, .subtract, .multiply, .divide], [false, true])
    func eachOperationGivesIEEEsFiniteResultOrNil(op: SQLFunction.Arithmetic, computedOperands: Bool) async throws {
        let session = try await PostgresSession.connect(try PostgresStoreURL(parsing: PostgresTestServer.url()))
        defer { Task { await session.close() } }
        var pairs: [(Double, Double)] = []
        for a in Self.operands { for b in Self.operands { pairs.append((a, b)) } }
        let a = ColumnName("a", qualifier: "v"), b = ColumnName("b", qualifier: "v")
        // A computed operand (not a column or a bound value) is read once, in a sub-select.
        let operands: [SQLText] = computedOperands ? [.function(.finiteReal, ["\(a)"]), .function(.finiteReal, ["\(b)"])] : ["\(a)", "\(b)"]
        let values = pairs.enumerated().map { i, pair -> SQLText in
            "(\(Int64(i)), CAST(\(Value.real(pair.0)) AS double precision), CAST(\(Value.real(pair.1)) AS double precision))"
        }
        let query: SQLText = "SELECT " + .function(.realArithmetic(op), operands) + " FROM (VALUES " + values.joined(separator: ", ")
            + ") AS v(i, a, b) ORDER BY v.i"
        let results = try await session.rows(query).map { try PostgresSession.decode($0[0], as: Double?.self, statement: query) }
        #expect(results.count == pairs.count)
        var mismatches: [String] = []
        for (pair, result) in zip(pairs, results) where result != Self.expected(op, pair.0, pair.1) {
            mismatches.append("\(pair.0) \(op.rawValue) \(pair.1) = \(result.map { "\($0)" } ?? "nil"), expected \(Self.expected(op, pair.0, pair.1).map { "\($0)" } ?? "nil")")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
    }

    /// The primary keys `predicate` selects among the items, on both engines.
    static func matches(_ predicate: String, _ sqlite: Store, _ postgres: PostgresStore) async throws -> (sqlite: [Int64], postgres: [Int64]) {
        var request = BatchUpdateRequest(entity: "Item", predicate: predicate, propertiesToUpdate: ["tag": .literal("hit")])
        request.resultType = .updatedObjectIDs
        let onSQLite = try await sqlite.execute(request, context: context)
        let onPostgres = try await postgres.execute(request, context: context)
        return ((onSQLite.objectIDs ?? []).map(\.primaryKey).sorted(), (onPostgres.objectIDs ?? []).map(\.primaryKey).sorted())
    }

    @Test(arguments: [
        // count 2147483647 · 1e306 is past the doubles: nil, so not > 0 (it was Infinity on SQLite, an error on PostgreSQL).
        ("double(count) * 1e306 > 0", [1, 5] as [Int64]),
        ("double(count) * 1e306 == nil", [3]),
        ("NOT (double(count) * 1e306 < 0)", [1, 3, 4, 5]),
        // 3e-320 · 1e-10 rounds to 0 (PostgreSQL: "value out of range: underflow"); 2147483647e-320 · 1e-10 does not.
        ("double(count) * 1e-320 * 1e-10 == 0", [1, 2, 4, 5]),
        // 3 / 1e-308 and -7 / 1e-308 are past the doubles; 1 / 1e-308 is not.
        ("double(count) / 1e-308 >= 0", [4, 5]),
        // A stored 0 as the divisor: nil on both (PostgreSQL: "division by zero").
        ("10 / count > 0", [1, 3, 5]),
        ("1 / (double(count) - 3) < 0", [2, 4, 5]),
        // An infinite divisor is nil, not a quotient of 0.
        ("1 / (double(count) * 1e306) == nil", [3, 4]),
        ("abs(double(count) * -1e306) > 1", [1, 2, 5]),
        // A chain of 60: each operation's operand computed once on PostgreSQL (nested sub-selects).
        ("double(count)" + String(repeating: " * 1e5", count: 60) + " > 0", [1, 5]),
    ])
    func aPredicateMatchesWhatSQLiteMatches(predicate: String, expected: [Int64]) async throws {
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            let found = try await Self.matches(predicate, sqlite, postgres)
            #expect(found.sqlite == expected)
            #expect(found.postgres == expected)
        }
    }

    @Test func anOverflowingResultIsNilOnBothEngines() async throws {
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            let request = BatchUpdateRequest(entity: "Item", propertiesToUpdate: [
                // 2^1020: exact products and quotients, but 2147483647 · 2^1020 is past the doubles.
                "tag": .expression(#"coalesce(string(double(count) * 1.1235582092889474e307 / 1.1235582092889474e307), "nil")"#),
            ])
            _ = try await sqlite.execute(request, context: Self.context)
            _ = try await postgres.execute(request, context: Self.context)
            let onPostgres = try await postgres.fetchAll("Item").map { $0.values["tag"] ?? .null }
            let onSQLite = try sqlite.fetchAll("Item").map { $0.values["tag"] ?? .null }
            #expect(onSQLite == [.text("3.0"), .text("-7.0"), .text("nil"), .text("0.0"), .text("1.0")])
            #expect(onPostgres == onSQLite)
        }
    }
}
