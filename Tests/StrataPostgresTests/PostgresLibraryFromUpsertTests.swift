import Foundation
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// The library's `execute(BatchInsertRequest)` with `from:` source rows and `onConflict: .update` into entities with
/// two uniqueness constraints, on an SQLite ``Store`` and a ``PostgresStore`` with the same model and rows: SQLite
/// runs the source rows one by one in `_pk` order, each updating the row of the first constraint that matches;
/// PostgreSQL replays that on the server (`BatchInsertPlan.rowByRow`), so both give the same rows, keys, object
/// IDs, counts, change sets and errors.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresLibraryFromUpsertTests {
    static let models = ["1.yaml": """
        version: 1
        entities:
        \(UpsertFixture.twoConstraintEntity)
        \(UpsertFixture.sourceEntity)
        \(UpsertFixture.hierarchyEntities)
        """]

    static let seed = #"""
        INSERT INTO "T" ("a", "b", "c") VALUES ('a1', 'b1', 'A'), ('a2', 'b2', 'B');
        INSERT INTO "P" ("_entity", "code", "tag", "note") VALUES ('P', 'c1', 't1', 'p'), ('Q', 'c2', 't2', 'q')
        """#

    /// Both stores with `models` and `seed` (``models`` and ``seed`` unless given), the source rows `sources`
    /// (sa, sb, sc; nil is NULL) in `_pk` order, then `body`.
    static func withStores(_ sources: [(String?, String?, String?)], models: [String: String] = Self.models, seed: String = Self.seed,
                           _ body: (PostgresLibraryInsertLinkTests.Stores) async throws -> Void) async throws {
        let quoted = { (value: String?) in value.map { "'\($0)'" } ?? "NULL" }
        let rows = sources.map { "(\(quoted($0.0)), \(quoted($0.1)), \(quoted($0.2)))" }.joined(separator: ", ")
        let seed = sources.isEmpty ? seed : seed + #"; INSERT INTO "S" ("sa", "sb", "sc") VALUES "# + rows
        try await PostgresLibraryInsertLinkTests.withSeededStores(models, seed: seed) { sqlite, postgres, _ in
            try await body(try await PostgresLibraryInsertLinkTests.Stores(sqlite, postgres))
        }
    }

    static func request(_ entity: String = "T", values: [String: String] = ["a": "sa", "b": "sb", "c": "sc"]) -> BatchInsertRequest {
        var request = BatchInsertRequest(entity: entity, from: BatchInsertSource(entity: "S"), values: values)
        request.onConflict = .update
        request.resultType = .objectIDs
        return request
    }

    @Test func sourceRowsUpsertOneByOneInSourceOrderAsOnSQLite() async throws {
        try await Self.withStores([
            ("a9", "b2", "x"),   // b only: row 2 (updated through the second constraint)
            ("a3", "b3", "y"),   // new: 4
            ("a4", "b3", "z"),   // b: the row the source row before made (its a becomes a4)
            ("a4", "b5", "w"),   // a: that row again, through the first constraint now
            ("a1", "b6", "v"),   // a: row 1 (its b becomes b6)
            ("a7", "b1", "u"),   // new: b1 is free since row 1 moved to b6; 8
            ("a9", "b9", "t"),   // a: row 2 again (listed a second time, as SQLite's RETURNING lists it)
        ]) { stores in
            let onSQLite = try await stores.sqlite.execute(Self.request(), context: PostgresLibraryInsertLinkTests.context)
            let onPostgres = try await stores.postgres.execute(Self.request(), context: PostgresLibraryInsertLinkTests.context)
            #expect(stores.plain(onPostgres) == stores.plain(onSQLite))
            // Every source row spends a key, as SQLite's AUTOINCREMENT does: 3…9, of which 4 and 8 are new objects.
            #expect(onPostgres.count == 2)
            #expect(onPostgres.objectIDs?.map { "\($0.entity)/p\($0.primaryKey)" } == ["T/p4", "T/p8"])
            // Row 2 was updated by two source rows: listed once, counted twice, as on SQLite.
            #expect(onPostgres.changes.updated.mapValues { $0.map(\.primaryKey) } == ["T": [1, 2]])
            #expect(onPostgres.changes.updatedCounts == ["T": 3])
            #expect(onPostgres.audit?.totalViolations == 0)
            let received = await stores.received(1)
            #expect(received.postgres == received.sqlite)
            let objects = try await stores.objects("T")
            #expect(objects.postgres == objects.sqlite)
            #expect(objects.sqlite == [#"T/p1 a="a1" b="b6" c="v""#, #"T/p2 a="a9" b="b9" c="t""#,
                                       #"T/p4 a="a4" b="b5" c="w""#, #"T/p8 a="a7" b="b1" c="u""#])

            // The sequence moved past every source row's key: the next object is 10 on both.
            let next = BatchInsertRequest(entity: "T", objects: [["a": .text("n"), "b": .text("n"), "c": .text("n")]])
            let sqliteNext = try await stores.sqlite.execute(next, context: PostgresLibraryInsertLinkTests.context)
            let postgresNext = try await stores.postgres.execute(next, context: PostgresLibraryInsertLinkTests.context)
            #expect(stores.plain(postgresNext) == stores.plain(sqliteNext))
            #expect(try await stores.objects("T").postgres.last == #"T/p10 a="n" b="n" c="n""#)
        }
    }

    @Test func aSourceRowThatMovesAKeyOntoARowAnEarlierOneMadeBreaksUniquenessOnBothEngines() async throws {
        try await Self.withStores([
            ("a5", "b5", "new"),    // new: 3
            ("a1", "b5", "clash"),  // a: row 1, whose b = b5 then collides with the row just made: 1551
        ]) { stores in
            let sqliteError = await #expect(throws: BatchError.self) {
                try await stores.sqlite.execute(Self.request(), context: PostgresLibraryInsertLinkTests.context)
            }
            let postgresError = await #expect(throws: BatchError.self) {
                try await stores.postgres.execute(Self.request(), context: PostgresLibraryInsertLinkTests.context)
            }
            #expect(postgresError.map { "\($0)" } == sqliteError.map { "\($0)" })
            #expect(sqliteError.map { "\($0)" }?.contains("UNIQUE constraint failed: T.b") == true, "\(String(describing: sqliteError))")
            let objects = try await stores.objects("T")
            #expect(objects.postgres == objects.sqlite)
            #expect(objects.sqlite == [#"T/p1 a="a1" b="b1" c="A""#, #"T/p2 a="a2" b="b2" c="B""#])
        }
    }

    /// A sub-entity's rows in its root's table: `_entity` is set on the new rows and left as it is on the rows updated,
    /// which are listed under their own entity.
    @Test func aSubEntityInAHierarchyTableGivesTheSameRowsAndIDs() async throws {
        try await Self.withStores([
            ("c9", "t2", "from-q"),   // tag: the Q (its code becomes c9)
            ("c1", "t7", "from-p"),   // code: the P
            ("c3", "t3", "new"),      // new Q: 5
        ]) { stores in
            let request = Self.request("Q", values: ["code": "sa", "tag": "sb", "note": "sc"])
            let onSQLite = try await stores.sqlite.execute(request, context: PostgresLibraryInsertLinkTests.context)
            let onPostgres = try await stores.postgres.execute(request, context: PostgresLibraryInsertLinkTests.context)
            #expect(stores.plain(onPostgres) == stores.plain(onSQLite))
            #expect(onPostgres.objectIDs?.map { "\($0.entity)/p\($0.primaryKey)" } == ["Q/p5"])
            #expect(onPostgres.changes.updated.mapValues { $0.map(\.primaryKey) } == ["P": [1], "Q": [2]])
            let objects = try await stores.objects("P")
            #expect(objects.postgres == objects.sqlite)
            #expect(objects.sqlite.count == 3)
        }
    }
}
