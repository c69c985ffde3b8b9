import Foundation
import GRDB
import StrataCore
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// The `touched` scope on PostgreSQL (what the audit after hooks will check): with the same rows listed in
/// `strata_touched` on both engines, row rules look at those rows only and entity-wide rules at the whole
/// entity, with the same findings as SQLite's.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresAuditTouchedTests {
    typealias F = PostgresAuditFixture
    static let touched = [2, 8]

    @Test func touchedRowsAndEntityWideRulesMatchSQLite() async throws {
        let (_, history) = try F.models()
        let path = Temporary.directory("pgaudit-touched") + "/store.sqlite"
        let sqliteStore = try StoreCreator.create(at: path, model: history.models[0])
        try F.sqlite3(path, F.inserts(.sqlite))
        var sqliteAuditor = try Auditor(store: sqliteStore, history: history)
        sqliteAuditor.storeUUID = PostgresAuditTests.uuid
        let sqlite = try sqliteStore.write { db in
            try Auditor.prepareTouched(db)
            for pk in Self.touched { try db.execute(sql: #"INSERT INTO temp."strata_touched" VALUES ('Item', ?)"#, arguments: [pk]) }
            return try sqliteAuditor.run(in: db, scope: .touched)
        }

        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1)
        _ = try PostgresStoreTests.psql(F.inserts(.postgresql, schema: schema))
        let store = try await PostgresStore.open(url)
        let postgres: AuditResult
        do {
            try await store.session.execute(#"CREATE TEMP TABLE "strata_touched" ("table" text NOT NULL, "pk" bigint NOT NULL, PRIMARY KEY ("table", "pk"))"#)
            for pk in Self.touched {
                try await store.session.execute(#"INSERT INTO pg_temp."strata_touched" VALUES ('Item', "# + "\(pk))")
            }
            var auditor = try await Auditor(store: store, history: history)
            auditor.storeUUID = PostgresAuditTests.uuid
            postgres = try await auditor.run(on: store, scope: .touched)
            await store.close()
        } catch {
            await store.close()
            throw error
        }
        #expect(PostgresAuditTests.zeroed(postgres) == PostgresAuditTests.zeroed(sqlite))
        // p2 and p8's own rules (p8's length counted in Swift, through the touched filter), the entity-wide ones in full.
        #expect(PostgresAuditTests.summary(postgres) == [
            "Item.code maxLength 1660 1: Item/p8=éééé",
            "Item.code minLength 1670 1: Item/p2=a",
            "Item.label pattern 1680 1: Item/p2=apple",
            "Item.size max 1610 1: Item/p2=11",
            "Item.price min 1620 1: Item/p2=0.25",
            "Item.done optional 1570 1: Item/p2=nil",
            "Item.seen optional 1570 1: Item/p2=nil",
            "Item.parts maxCount 1590 1: Item/p1=3",
            "Item.code uniqueness 1551 2: Item/p1=ab+Item/p9 Item/p8=éééé+Item/p12",
        ])
    }
}
