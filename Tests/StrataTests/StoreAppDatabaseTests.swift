import Foundation
import GRDB
import Testing
@testable import Strata
import StrataTestSupport

/// A store on the application's own GRDB database (SPEC §13): a `DatabasePool` in WAL mode or a
/// `DatabaseQueue`, prepared with `Store.prepare`, under the same lock as a store opened by path.
@Suite struct StoreAppDatabaseTests {
    static func prepared() -> Configuration {
        var configuration = Configuration()
        Store.prepare(&configuration)
        return configuration
    }

    @Test func anEmptyPoolBecomesAStoreInWALModeAndIsMigratedLater() async throws {
        let path = TestStore.directory() + "/app.sqlite"
        let pool = try DatabasePool(path: path, configuration: Self.prepared())
        let store = try await Store.open(database: pool, models: StoreOpenTests.models, hooks: StoreOpenTests.hooks,
                                         options: StoreOpenTests.options(target: 1))
        #expect(store.migration?.created == true)
        #expect(store.migration?.notNeededHooks == [])
        #expect(try await pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO "Item" ("_pk", "_entity", "title", "rank", "pages") VALUES
                  (1, 'Item', 'Pen', 1, NULL), (2, 'Book', 'Dune', 5, 412), (3, 'Item', 'Lamp', 7, NULL)
                """)
        }
        // Later: the app ships v2; the same pool is migrated, the hook runs once.
        let migrated = try await Store.open(database: pool, models: StoreOpenTests.models, hooks: StoreOpenTests.hooks,
                                            options: StoreOpenTests.options())
        #expect(migrated.migration?.fromVersion == 1)
        #expect(migrated.migration?.toVersion == 2)
        #expect(migrated.migration?.hooks.map(\.id) == ["pin-top-items"])
        // Strata's functions on the pool's readers: `[c]` folds case through strata_casefold.
        #expect(try migrated.fetchAll("Item", where: "title BEGINSWITH[c] %@", arguments: [.text("l")]).map(\.id.primaryKey) == [3])
        #expect(try await pool.read { try Int.fetchAll($0, sql: #"SELECT "_pk" FROM "Item" WHERE "pinned" ORDER BY "_pk""#) } == [2, 3])
        // A batch through the store writes through the app's pool.
        let result = try await migrated.execute(BatchUpdateRequest(entity: "Item", predicate: "pinned == false",
                                                                   propertiesToUpdate: ["rank": .literal("9")]))
        #expect(result.count == 1)
        #expect(try await pool.read { try Int.fetchOne($0, sql: #"SELECT "rank" FROM "Item" WHERE "_pk" = 1"#) } == 9)
    }

    @Test func aQueueWorksAlikeAndStrataNeverClosesIt() async throws {
        let path = TestStore.directory() + "/app.sqlite"
        let queue = try DatabaseQueue(path: path, configuration: Self.prepared())
        let store = try await Store.open(database: queue, models: StoreOpenTests.models, options: StoreOpenTests.options())
        #expect(try store.metadata().version == 2)
        #expect(try await queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM strata_history") } == 1)
    }

    @Test func anUnpreparedDatabaseIsRefusedUntouched() async throws {
        let path = TestStore.directory() + "/app.sqlite"
        let queue = try DatabaseQueue(path: path)
        let error = await #expect(throws: StoreSetupError.self) {
            _ = try await Store.open(database: queue, models: StoreOpenTests.models)
        }
        #expect(error == .notPrepared(path: path))
        #expect(error?.description == """
            error: the database '\(path)' lacks Strata's SQL functions
            hint: create it with a Configuration passed through Store.prepare(_:) first
            """)
        #expect(try await queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") } == 0)

        var noForeignKeys = Self.prepared()
        noForeignKeys.foreignKeysEnabled = false
        let other = TestStore.directory() + "/app.sqlite"
        let off = await #expect(throws: StoreSetupError.self) {
            _ = try await Store.open(database: try DatabaseQueue(path: other, configuration: noForeignKeys), models: StoreOpenTests.models)
        }
        #expect(off == .foreignKeysOff(path: other))
    }

    @Test func anInMemoryDatabaseIsRefused() async throws {
        let error = await #expect(throws: StoreSetupError.self) {
            _ = try await Store.open(database: try DatabaseQueue(configuration: Self.prepared()), models: StoreOpenTests.models)
        }
        #expect(error == .notAFile(path: ":memory:"))
    }

    @Test func aDatabaseWithTablesButNoStoreIsNotAdopted() async throws {
        let path = TestStore.directory() + "/app.sqlite"
        let queue = try DatabaseQueue(path: path, configuration: Self.prepared())
        try await queue.write { try $0.execute(sql: "CREATE TABLE legacy (x)") }
        let error = await #expect(throws: StoreError.self) {
            _ = try await Store.open(database: queue, models: StoreOpenTests.models)
        }
        #expect(error?.description == """
            error: '\(path)' has no Strata metadata
            hint: baseline it first, at the version its schema matches (StoreAdoption.adopt)
            """)
        #expect(try await queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master") } == ["legacy"])
    }

    @Test func thePoolSharesTheLockWithAStoreOpenedByPath() async throws {
        let path = TestStore.directory() + "/app.sqlite"
        let pool = try DatabasePool(path: path, configuration: Self.prepared())
        let held = try StoreLock.acquire(storePath: path, timeout: 0)   // what `strata migrate` holds
        var options = StoreOpenTests.options()
        options.lockTimeout = 0.2
        let busy = await #expect(throws: PipelineError.self) {
            _ = try await Store.open(database: pool, models: StoreOpenTests.models, options: options)
        }
        #expect(busy?.exitCode == .storeBusy)
        #expect(try await pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") } == 0)
        held.release()
        let store = try await Store.open(database: pool, models: StoreOpenTests.models, options: StoreOpenTests.options())
        #expect(try store.metadata().version == 2)
    }

    @Test func anotherProcessHoldingTheLockIsWaitedForWithoutBlocking() async throws {
        let path = TestStore.directory() + "/app.sqlite"
        let pool = try DatabasePool(path: path, configuration: Self.prepared())
        // flock(1) in another process holds the lock while its child `cat` reads stdin: closing the pipe ends both.
        let input = Pipe()
        let holder = try PipelineSupport.spawn("/usr/bin/flock", [StoreLock.lockPath(forStore: path), "cat"], stdin: input)
        #expect(Wait.until {
            guard let lock = try? StoreLock.acquire(storePath: path, timeout: 0) else { return true }
            lock.release()
            return false
        }, "flock never took the lock")
        var options = StoreOpenTests.options()
        options.lockTimeout = 30
        options.onLockWait = { _ in try? input.fileHandleForWriting.close() }   // released once we wait (an event)
        let store = try await Store.open(database: pool, models: StoreOpenTests.models, options: options)
        #expect(store.migration?.waitedForLock == true)
        #expect(store.migration?.created == true)
        holder.waitUntilExit()
    }
}
