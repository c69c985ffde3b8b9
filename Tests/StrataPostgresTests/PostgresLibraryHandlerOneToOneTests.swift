import Foundation
import GRDB
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// The library's `execute(BatchInsertRequest)` with a `dictionaryHandler` and `onConflict: .update` into an entity
/// with a one-to-one stored on its rows, on an SQLite ``Store`` and a ``PostgresStore`` with the same rows: a
/// handler row sets the key only if it names it (`BatchInsertPlanner.unlinkColumns(_:setBy:)`), so an existing
/// row it updates without naming it loses a partner another row took, and keeps one no row took.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresLibraryHandlerOneToOneTests {
    static let models = ["1.yaml": """
        version: 1
        entities:
          Profile:
            attributes: { uid: { type: int64 } }
            relationships: { user: { destination: User, inverse: profile } }
            uniqueness: [[uid]]
          User:
            attributes: { userID: { type: int64 } }
            relationships: { profile: { destination: Profile, inverse: user } }
        """]

    /// The handler's rows, in order: profile 1 is updated without its user, which new profile 4 takes.
    static let proposed: [[String: Value]] = [["uid": .integer(1)], ["uid": .integer(4), "user": .integer(1)], ["uid": .integer(3)]]

    @Test func aHandlerRowThatDoesNotNameTheKeyLosesThePartnerAnotherTookAsOnSQLite() async throws {
        let seed = #"INSERT INTO "User" ("userID") VALUES (1), (2), (3); INSERT INTO "Profile" ("uid", "user") VALUES (1, 1), (2, 2), (3, 3)"#
        try await PostgresLibraryInsertLinkTests.withSeededStores(Self.models, seed: seed) { sqlite, postgres, url in
            let counter = HandlerCounter()
            let onSQLite = try await sqlite.execute(counter.upsert(into: "Profile", Self.proposed), context: PostgresLibraryInsertLinkTests.context)
            counter.reset()
            let onPostgres = try await postgres.execute(counter.upsert(into: "Profile", Self.proposed), context: PostgresLibraryInsertLinkTests.context)
            for result in [onSQLite, onPostgres] {
                #expect(result.count == 1)
                // Profiles 1 and 3 updated by the upsert, profile 1 again by the unlinking.
                #expect(result.changes.updatedCounts == ["Profile": 3])
                #expect(result.audit?.totalViolations == 0)
            }
            let query = #"SELECT "uid", coalesce(CAST("user" AS text), 'NULL') FROM "Profile" ORDER BY 1"#
            let rows = try await sqlite.queue.read { db in
                try Row.fetchAll(db, sql: query).map { "\($0[0] as Int64)|\($0[1] as String)" }
            }
            #expect(rows == ["1|NULL", "2|2", "3|3", "4|1"])
            let onServer = try PostgresStoreTests.psql(query.replacingOccurrences(of: #"FROM "Profile""#, with: #"FROM "\#(url.schema)"."Profile""#))
            #expect(onServer == rows, "\(onServer)")
        }
    }
}
