import Foundation
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// The library's `execute(BatchInsertRequest)` with a `dictionaryHandler` and `onConflict: .update` into an entity
/// with two uniqueness constraints, on an SQLite ``Store`` and a ``PostgresStore`` with the same model and rows:
/// each handler row takes the upsert form literal rows take (`BatchInsertPlanner.insertRow`), so both engines
/// update the row of the first constraint that matches, in the layout's order, and give the same rows, object
/// IDs, counts and change sets.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresLibraryHandlerUpsertTests {
    static let models = ["1.yaml": """
        version: 1
        entities:
        \(UpsertFixture.twoConstraintEntity)
        """]

    /// The handler's rows, in order (a key left out is not named by the row).
    static let proposed: [[String: Value]] = [
        ["a": .text("a9"), "b": .text("b2"), "c": .text("x")],   // b only: row 2
        ["a": .text("a1"), "b": .text("b7"), "c": .text("y")],   // a only: row 1 (its b becomes b7)
        ["a": .text("a3"), "b": .text("b3"), "c": .text("z")],   // new
        ["a": .text("a3"), "b": .text("b1"), "c": .text("w")],   // a: the row just inserted (b1 is free now)
        ["a": .text("a9"), "c": .text("n")],                     // a: row 2; b is not named, so it stays
    ]

    /// The handler's request: object IDs wanted.
    static func handler(_ counter: HandlerCounter) -> BatchInsertRequest {
        var request = counter.upsert(into: "T", proposed)
        request.resultType = .objectIDs
        return request
    }

    @Test func handlerRowsUpsertIntoTwoUniquenessConstraintsAsOnSQLite() async throws {
        let seed = #"INSERT INTO "T" ("a", "b", "c") VALUES ('a1', 'b1', 'A'), ('a2', 'b2', 'B')"#
        try await PostgresLibraryInsertLinkTests.withSeededStores(Self.models, seed: seed) { sqlite, postgres, _ in
            let stores = try await PostgresLibraryInsertLinkTests.Stores(sqlite, postgres)

            let counter = HandlerCounter()
            let onSQLite = try await sqlite.execute(Self.handler(counter), context: PostgresLibraryInsertLinkTests.context)
            counter.reset()
            let onPostgres = try await postgres.execute(Self.handler(counter), context: PostgresLibraryInsertLinkTests.context)
            #expect(stores.plain(onPostgres) == stores.plain(onSQLite))
            // Every proposed row spends a key, as SQLite's AUTOINCREMENT does: the one new object is p5 (of 3…7).
            #expect(onPostgres.count == 1)
            #expect(onPostgres.objectIDs?.map { "\($0.entity)/p\($0.primaryKey)" } == ["T/p5"])
            #expect(onPostgres.changes.inserted.mapValues { $0.map(\.primaryKey) } == ["T": [5]])
            // Row 2 was updated by two proposed rows (the first and the last): listed once, counted twice, as on SQLite.
            #expect(onPostgres.changes.updated.mapValues { $0.map(\.primaryKey) } == ["T": [1, 2]])
            #expect(onPostgres.changes.updatedCounts == ["T": 3])
            #expect(onPostgres.audit?.totalViolations == 0)

            let received = await stores.received(1)
            #expect(received.postgres == received.sqlite)
            let objects = try await stores.objects("T")
            #expect(objects.postgres == objects.sqlite)
            #expect(objects.sqlite == [#"T/p1 a="a1" b="b7" c="y""#, #"T/p2 a="a9" b="b2" c="n""#, #"T/p5 a="a3" b="b1" c="w""#])
        }
    }
}
