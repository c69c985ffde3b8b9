import Foundation
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// The counts of `onConflict: .update` when several proposed rows share a key, on an SQLite ``Store`` and a
/// ``PostgresStore`` with the same model and rows. SQLite writes the rows one by one and its `RETURNING` lists a
/// row once per row that wrote it: an existing row n source rows updated counts n updates (listed once), a row the
/// same insert made and later rows updated again counts none. PostgreSQL proposes each key of a `from:` insert once
/// (one uniqueness constraint) and counts each written row by its key's source rows; with several constraints it
/// runs the rows one by one as SQLite does; a literal row is one statement. The same counts, object IDs, change sets
/// and rows either way, whether the result lists object IDs or counts only.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresLibraryFromUpsertCountTests {
    typealias Stores = PostgresLibraryInsertLinkTests.Stores

    static let models = ["1.yaml": """
        version: 1
        entities:
        \(UpsertFixture.twoConstraintEntity)
        \(UpsertFixture.sourceEntity)
        \(UpsertFixture.oneConstraintEntity)
        \(UpsertFixture.twoColumnConstraintEntity)
        \(UpsertFixture.oneConstraintHierarchy)
          Order:
            attributes:
              select: { type: string }
              where: { type: string }
            uniqueness: [[select]]
        """]

    /// T: 1 (a1 b1), 2 (a2 b2); K: 1 (k1), 2 (k2); M: 1 (a1 b1); H: 1 (an H, c1), 2 (an HQ, c2); Order: 1 (s1).
    static let seed = #"""
        INSERT INTO "T" ("a", "b", "c") VALUES ('a1', 'b1', 'A'), ('a2', 'b2', 'B');
        INSERT INTO "K" ("k", "v") VALUES ('k1', 'A'), ('k2', 'B');
        INSERT INTO "M" ("a", "b", "c") VALUES ('a1', 'b1', 'A');
        INSERT INTO "H" ("_entity", "code", "note") VALUES ('H', 'c1', 'h'), ('HQ', 'c2', 'q');
        INSERT INTO "Order" ("select", "where") VALUES ('s1', 'A')
        """#

    static let resultTypes: [BatchInsertResultType] = [.objectIDs, .count]

    static func withStores(_ sources: [(String?, String?, String?)], _ body: (Stores) async throws -> Void) async throws {
        try await PostgresLibraryFromUpsertTests.withStores(sources, models: Self.models, seed: Self.seed, body)
    }

    /// A `from: S` upsert into `entity`.
    static func request(_ entity: String, values: [String: String], _ resultType: BatchInsertResultType) -> BatchInsertRequest {
        var request = PostgresLibraryFromUpsertTests.request(entity, values: values)
        request.resultType = resultType
        return request
    }

    /// Runs `request` on both stores and expects the same result (counts, object IDs, change set), the same change
    /// set received by each observer and the same objects of `entity`; returns SQLite's result and objects.
    static func same(_ request: BatchInsertRequest, _ stores: Stores, objects entity: String) async throws -> (result: BatchResult, objects: [String]) {
        let onSQLite = try await stores.sqlite.execute(request, context: PostgresLibraryInsertLinkTests.context)
        let onPostgres = try await stores.postgres.execute(request, context: PostgresLibraryInsertLinkTests.context)
        #expect(stores.plain(onPostgres) == stores.plain(onSQLite))
        #expect(onPostgres.changes.updatedCounts == onSQLite.changes.updatedCounts)
        #expect(onPostgres.changes.insertedCounts == onSQLite.changes.insertedCounts)
        #expect(onPostgres.count == onSQLite.count)
        #expect(onPostgres.objectIDs?.map(\.primaryKey) == onSQLite.objectIDs?.map(\.primaryKey))
        let received = await stores.received(1)
        #expect(received.postgres == received.sqlite)
        let objects = try await stores.objects(entity)
        #expect(objects.postgres == objects.sqlite)
        return (onSQLite, objects.sqlite)
    }

    static func ids(_ result: BatchResult) -> [String]? { result.objectIDs?.map { "\($0.entity)/p\($0.primaryKey)" } }

    @Test(arguments: [2, 3], resultTypes)
    func sourceRowsSharingAnExistingKeyCountOneUpdateEach(_ rows: Int, _ resultType: BatchInsertResultType) async throws {
        let sources: [(String?, String?, String?)] = (1...rows).map { ("k1", "v\($0)", nil) } + [("k2", "w", nil)]
        try await Self.withStores(sources) { stores in
            let (result, objects) = try await Self.same(Self.request("K", values: ["k": "sa", "v": "sb"], resultType), stores, objects: "K")
            // k1's row was updated by `rows` source rows, k2's by one.
            #expect(result.changes.updatedCounts == ["K": rows + 1])
            #expect(result.changes.insertedCounts == [:])
            #expect(result.count == 0)
            if resultType == .objectIDs {
                #expect(Self.ids(result) == [])
                #expect(result.changes.updated.mapValues { $0.map(\.primaryKey) } == ["K": [1, 2]])
            }
            #expect(objects == [#"K/p1 k="k1" v="v\#(rows)""#, #"K/p2 k="k2" v="w""#])
        }
    }

    @Test(arguments: resultTypes)
    func sourceRowsSharingANewKeyInsertOneRowAndCountNoUpdateOfIt(_ resultType: BatchInsertResultType) async throws {
        try await Self.withStores([("k3", "x", nil), ("k3", "y", nil), ("k3", "z", nil), ("k1", "u", nil)]) { stores in
            let (result, objects) = try await Self.same(Self.request("K", values: ["k": "sa", "v": "sb"], resultType), stores, objects: "K")
            // k3 is inserted by the first of its source rows (key 3) and updated by the two after it: that row is new,
            // so those updates are not counted; k1's row is updated once.
            #expect(result.changes.updatedCounts == ["K": 1])
            #expect(result.changes.insertedCounts == ["K": 1])
            #expect(result.count == 1)
            if resultType == .objectIDs { #expect(Self.ids(result) == ["K/p3"]) }
            #expect(objects == [#"K/p1 k="k1" v="u""#, #"K/p2 k="k2" v="B""#, #"K/p3 k="k3" v="z""#])

            // The sequence moved past every source row's key: the next object is 7 on both.
            let next = BatchInsertRequest(entity: "K", objects: [["k": .text("n"), "v": .text("n")]])
            let (_, after) = try await Self.same(next, stores, objects: "K")
            #expect(after.last == #"K/p7 k="n" v="n""#)
        }
    }

    /// A row whose key has a NULL conflicts with nothing: each such source row is inserted, on both engines; the rows
    /// sharing a whole key still count one update each.
    @Test(arguments: resultTypes)
    func sourceRowsWithANullKeyAreEachInserted(_ resultType: BatchInsertResultType) async throws {
        try await Self.withStores([(nil, "x", nil), (nil, "y", nil), ("k1", "z", nil), ("k1", "w", nil)]) { stores in
            let (result, objects) = try await Self.same(Self.request("K", values: ["k": "sa", "v": "sb"], resultType), stores, objects: "K")
            #expect(result.changes.updatedCounts == ["K": 2])
            #expect(result.changes.insertedCounts == ["K": 2])
            if resultType == .objectIDs { #expect(Self.ids(result) == ["K/p3", "K/p4"]) }
            #expect(objects.count == 4)
            #expect(objects.first == #"K/p1 k="k1" v="w""#)
        }
        try await Self.withStores([("a1", nil, "x"), ("a1", nil, "y"), ("a1", "b1", "z"), ("a1", "b1", "w"), (nil, nil, "v")]) { stores in
            let (result, objects) = try await Self.same(Self.request("M", values: ["a": "sa", "b": "sb", "c": "sc"], resultType), stores, objects: "M")
            // (a1, NULL) twice: two rows; (a1, b1) twice: row 1 updated twice; (NULL, NULL): a row.
            #expect(result.changes.updatedCounts == ["M": 2])
            #expect(result.changes.insertedCounts == ["M": 3])
            if resultType == .objectIDs { #expect(Self.ids(result) == ["M/p2", "M/p3", "M/p6"]) }
            #expect(objects.count == 4)
            #expect(objects.first == #"M/p1 a="a1" b="b1" c="w""#)
        }
    }

    /// A hierarchy table: each updated row is counted under its own entity (`_entity`, which the update leaves as it
    /// is), once per source row.
    @Test(arguments: resultTypes)
    func aHierarchyTableCountsEachSubEntitysUpdates(_ resultType: BatchInsertResultType) async throws {
        try await Self.withStores([("c1", "n1", nil), ("c1", "n2", nil), ("c2", "m1", nil), ("c2", "m2", nil), ("c2", "m3", nil),
                                   ("c3", "o1", nil), ("c3", "o2", nil)]) { stores in
            let (result, objects) = try await Self.same(Self.request("HQ", values: ["code": "sa", "note": "sb"], resultType), stores, objects: "H")
            #expect(result.changes.updatedCounts == ["H": 2, "HQ": 3])
            #expect(result.changes.insertedCounts == ["HQ": 1])
            if resultType == .objectIDs {
                #expect(Self.ids(result) == ["HQ/p8"])
                #expect(result.changes.updated.mapValues { $0.map(\.primaryKey) } == ["H": [1], "HQ": [2]])
            }
            #expect(objects.count == 3)
        }
    }

    /// Names that are SQL keywords (`Order`, `select`, `where`) are quoted wherever the statement writes them.
    @Test(arguments: resultTypes)
    func keywordNamesCountAsOnSQLite(_ resultType: BatchInsertResultType) async throws {
        try await Self.withStores([("s1", "x", nil), ("s1", "y", nil), ("s2", "z", nil)]) { stores in
            let (result, objects) = try await Self.same(Self.request("Order", values: ["select": "sa", "where": "sb"], resultType), stores, objects: "Order")
            #expect(result.changes.updatedCounts == ["Order": 2])
            #expect(result.changes.insertedCounts == ["Order": 1])
            if resultType == .objectIDs { #expect(Self.ids(result) == ["Order/p4"]) }
            #expect(objects == [#"Order/p1 select="s1" where="y""#, #"Order/p4 select="s2" where="z""#])
        }
    }

    /// Several uniqueness constraints: PostgreSQL runs the source rows one by one, as SQLite does.
    @Test(arguments: resultTypes)
    func rowByRowCountsEachUpdateAsOnSQLite(_ resultType: BatchInsertResultType) async throws {
        try await Self.withStores([("a1", "b1", "x"), ("a1", "b1", "y"), ("a9", "b2", "z"), ("a9", "b2", "w"), ("a9", "b2", "v")]) { stores in
            let (result, objects) = try await Self.same(Self.request("T", values: ["a": "sa", "b": "sb", "c": "sc"], resultType), stores, objects: "T")
            // Row 1 through a (twice); row 2 through b (its a becomes a9), then through a (twice).
            #expect(result.changes.updatedCounts == ["T": 5])
            #expect(result.changes.insertedCounts == [:])
            #expect(objects == [#"T/p1 a="a1" b="b1" c="y""#, #"T/p2 a="a9" b="b2" c="v""#])
        }
    }

    /// Literal rows are one statement each, on both engines: an existing row two of them update counts 2.
    @Test(arguments: resultTypes)
    func literalRowsSharingAKeyCountOneUpdateEach(_ resultType: BatchInsertResultType) async throws {
        try await Self.withStores([]) { stores in
            var one = BatchInsertRequest(entity: "K", objects: [["k": .text("k1"), "v": .text("x")], ["k": .text("k1"), "v": .text("y")],
                                                                ["k": .text("k5"), "v": .text("n")], ["k": .text("k5"), "v": .text("m")]])
            one.onConflict = .update
            one.resultType = resultType
            let (result, objects) = try await Self.same(one, stores, objects: "K")
            #expect(result.changes.updatedCounts == ["K": 2])
            #expect(result.changes.insertedCounts == ["K": 1])
            if resultType == .objectIDs { #expect(Self.ids(result) == ["K/p5"]) }
            #expect(objects == [#"K/p1 k="k1" v="y""#, #"K/p2 k="k2" v="B""#, #"K/p5 k="k5" v="m""#])

            var several = BatchInsertRequest(entity: "T", objects: [["a": .text("a1"), "b": .text("b1"), "c": .text("x")],
                                                                    ["a": .text("a1"), "b": .text("b1"), "c": .text("y")]])
            several.onConflict = .update
            several.resultType = resultType
            let (other, rows) = try await Self.same(several, stores, objects: "T")
            #expect(other.changes.updatedCounts == ["T": 2])
            #expect(rows.first == #"T/p1 a="a1" b="b1" c="y""#)
        }
    }
}
