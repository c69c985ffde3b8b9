import Foundation
import Strata
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// Conversions nested in one another (`date(string(date(string(lastUsed))))`) run on PostgreSQL as on SQLite, in
/// text and memory that grow with the depth (SPEC §11.4). A conversion reads its value several times (text to date
/// about 15 times, date to text 6), from a sub-select the planner pulled up, copying the inner conversion into each
/// read: two levels took the server past 10 GB, six were killed. An argument that is not a column, a value or a cheap
/// conversion of one is now computed once, in a sub-select `OFFSET 0` keeps apart, as double arithmetic's operands.
@Suite struct PostgresNestedConversionRenderingTests {
    /// One level of nesting: `X` is the level below; `seed` is the innermost value.
    struct Chain: Sendable, CustomTestStringConvertible {
        var level: String
        var seed: String
        /// The deeper of the two depths compared (SQLite's parser takes about 80 levels of parentheses).
        var depth = 6
        var testDescription: String { level + " over " + seed }

        func expression(depth: Int) -> String {
            (0..<depth).reduce(seed) { inner, _ in level.replacingOccurrences(of: "X", with: inner) }
        }
    }

    static let chains: [Chain] = [
        Chain(level: "date(string(X))", seed: "lastUsed"),
        Chain(level: "string(date(X))", seed: "string(lastUsed)"),
        Chain(level: "int64(string(X))", seed: "rating"),
        Chain(level: "decimal(string(X))", seed: "price"),
        Chain(level: "bool(string(X))", seed: "favorite"),
        Chain(level: "int64(string(X)) + 1", seed: "rating"),
        Chain(level: "double(string(X)) * 1.5", seed: "rating", depth: 4),
        Chain(level: "decimal(string(X)) / 3", seed: "price"),
        Chain(level: "max(int64(string(X)), 1)", seed: "rating"),
        Chain(level: "string(date(string(X)) + 1 days)", seed: "string(lastUsed)"),
    ]

    /// The text grows linearly, and each level above the first reads the one below from a fenced sub-select.
    @Test(arguments: chains)
    func aNestedConversionIsLinearAndComputedOnce(chain: Chain) throws {
        let short = try PostgresRenderer().rendering(try PostgresPredicateRenderingTests.compile(chain.expression(depth: chain.depth / 2) + " != nil"))
        let long = try PostgresRenderer().rendering(try PostgresPredicateRenderingTests.compile(chain.expression(depth: chain.depth) + " != nil"))
        #expect(long.sql.count < 2 * short.sql.count + 400, "\(short.sql.count) for \(chain.depth / 2) levels, \(long.sql.count) for \(chain.depth)")
        let fences = long.sql.components(separatedBy: " OFFSET 0)").count - 1
        #expect(fences >= chain.depth - 1, "\(fences) fenced sub-selects for \(chain.depth) levels: \(long.sql.prefix(2_000))")
    }

    /// A conversion of a column stays as it was, the column read in place; a conversion of it is fenced once.
    @Test func aConversionOfAColumnIsUnchanged() throws {
        let rendering = try PostgresRenderer().rendering(try PostgresPredicateRenderingTests.compile("string(rating) == \"3\""))
        #expect(rendering.sql == #"(SELECT CAST(v AS text) FROM (SELECT CAST(t."rating" AS bigint) AS v) AS strata_cast) = $1"#)
        let twice = try PostgresRenderer().rendering(try PostgresPredicateRenderingTests.compile("int64(string(rating)) == 3"))
        #expect(twice.sql.hasSuffix(#" FROM (SELECT CAST((SELECT CAST(v AS text) FROM (SELECT CAST(t."rating" AS bigint) AS v) AS strata_cast) AS text) AS v OFFSET 0) AS strata_cast) = $1"#), "\(twice.sql)")
    }
}

@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresNestedConversionTests {
    static let context = PredicateContext(now: 1_716_249_600)

    /// `level` (its `X` the level below) nested `depth` times over `seed`.
    static func nested(_ level: String, _ depth: Int, over seed: String) -> String {
        (0..<depth).reduce(seed) { inner, _ in level.replacingOccurrences(of: "X", with: inner) }
    }

    /// Six levels of conversions in one batch update and its predicate (`PostgresLibraryTests.withStores`: five
    /// items), on both engines: SQLite's values (count + 5, nil past int32; price / 64; count · 16; dates and bools
    /// kept), in under a second where it took the server's memory.
    @Test func sixNestedConversionsInABatchUpdateGiveSQLitesValues() async throws {
        let assignments: [String: String] = [
            "seen": Self.nested("date(string(X))", 6, over: "seen"),
            "tag": Self.nested("string(date(X))", 6, over: "string(seen)"),
            "count": "int32(" + Self.nested("int64(string(X)) + 1", 5, over: "count") + ")",
            "price": Self.nested("decimal(string(X)) / 2", 6, over: "price"),
            "active": Self.nested("bool(string(X))", 6, over: "active"),
            "name": Self.nested("string(double(string(X)) * 2)", 4, over: "count"),
        ]
        let predicate = Self.nested("date(string(X))", 6, over: "seen") + " == seen OR seen == nil"
        var request = BatchUpdateRequest(entity: "Item", predicate: predicate, propertiesToUpdate: assignments.mapValues { .expression($0) })
        request.resultType = .updatedObjectIDs
        try await PostgresLibraryTests.withStores { sqlite, postgres in
            let onSQLite = try await sqlite.execute(request, context: Self.context)
            let onPostgres = try await postgres.execute(request, context: Self.context)
            #expect((onSQLite.objectIDs ?? []).map(\.primaryKey).sorted() == [1, 2, 3, 4, 5])
            #expect((onPostgres.objectIDs ?? []).map(\.primaryKey).sorted() == [1, 2, 3, 4, 5])
            let (a, b) = (try sqlite.fetchAll("Item"), try await postgres.fetchAll("Item"))
            #expect(PostgresLibraryTests.plain(b) == PostgresLibraryTests.plain(a))
            #expect(PostgresLibraryTests.plain(b) == [
                #"Item/p1 active=1 count=8 name="48.0" price="0.1953125" seen=1714557600.0 tag="2024-05-01T10:00:00Z""#,
                #"Item/p2 active=0 count=-2 name="-112.0" price="0.0015625" seen=nil tag=nil"#,
                #"Item/p3 active=1 count=nil name="34359738352.0" price=nil seen=1704067199.0 tag="2023-12-31T23:59:59Z""#,
                #"Item/p4 active=1 count=5 name="0.0" price="1562499999999.99984375" seen=nil tag=nil"#,
                #"Special/p5 active=1 count=6 level=4 name="16.0" price=nil seen=nil tag=nil"#,
            ])
        }
    }
}
