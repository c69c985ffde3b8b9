import Foundation
import GRDB
import Testing

/// An application holding SQLite's lock past the busy timeout is "store busy", exit 5, whichever statement of
/// the run meets it (SPEC §10: one condition, one exit code). A write meets an app's RESERVED lock (`BEGIN
/// IMMEDIATE`); every statement, the first read included, meets an EXCLUSIVE one, which was exit 1
/// ("SQLite: database is locked (in: SELECT * FROM sqlite_master LIMIT 1)").
@Suite struct StoreBusyCLITests {
    static let busy = "error: the store 'app.sqlite' is busy: another connection holds its write lock; nothing was written"

    /// Runs `body` while another connection holds the store in a transaction begun with `begin`.
    static func whileHeld(_ store: String, _ begin: String, _ body: () throws -> Void) throws {
        let app = try DatabaseQueue(path: store)
        try app.inDatabase { db in
            try db.execute(sql: begin + #"; UPDATE "Recipe" SET "name" = "name" WHERE 0"#)
            defer { try? db.execute(sql: "ROLLBACK") }
            try body()
        }
        try app.close()
    }

    @Test(arguments: ["BEGIN IMMEDIATE", "BEGIN EXCLUSIVE"])
    func aLockHeldByAnApplicationIsExit5(_ begin: String) throws {
        let project = try FleetProject()
        let store = try project.store("app.sqlite")
        let before = E2E.storeHashes(store)
        try Self.whileHeld(store, begin) {
            let migrate = try project.run(["migrate", "--store", "app.sqlite", "--lock-timeout", "1"])
            #expect(migrate.status == 5, "\(migrate.stderr)")
            #expect(migrate.stderr.hasPrefix(Self.busy), "\(migrate.stderr)")
            let batch = try project.run(["batch", "update", "--store", "app.sqlite", "--entity", "Recipe", "--set", "rating=1",
                                         "--lock-timeout", "1"], now: false)
            #expect(batch.status == 5, "\(batch.stderr)")
            #expect(batch.stderr.hasPrefix(Self.busy), "\(batch.stderr)")
        }
        #expect(E2E.storeHashes(store) == before)
        #expect(try project.version("app.sqlite") == "1")
    }

    /// In a fleet the busy store's row says 5, and the run's exit code is 5 where it was 1.
    @Test func aFleetStoreHeldExclusivelyIsBusy() throws {
        let project = try FleetProject()
        let store = try project.store("tenants/a.sqlite")
        try project.store("tenants/b.sqlite")
        try Self.whileHeld(store, "BEGIN EXCLUSIVE") {
            let r = try project.run(["migrate", "--stores", "tenants/*.sqlite", "--continue-on-error", "--lock-timeout", "1",
                                     "--format", "json", "--no-progress"])
            #expect(r.status == 5, "\(r.stderr)")
            #expect(try FleetProject.codes(r.stdout) == ["tenants/a.sqlite: 5", "tenants/b.sqlite: 0"])
        }
        #expect(try project.version("tenants/a.sqlite") == "1")
        #expect(try project.version("tenants/b.sqlite") == "4")
    }
}
