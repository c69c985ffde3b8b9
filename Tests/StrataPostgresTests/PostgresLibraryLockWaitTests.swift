import Foundation
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// SPEC §13 on PostgreSQL: `PostgresStore.open` waits for another run's advisory lock without blocking a
/// thread, and cancelling its task ends the wait with `CancellationError` (as `Store.open` does on SQLite,
/// StoreOpenTests). Before, the pause between tries was `try? Task.sleep`: a cancelled task's sleep returned at
/// once, so the open went on asking the server for the lock in a tight loop until `lockTimeout` ran out, then
/// threw busy.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresLibraryLockWaitTests {
    @Test func cancellingTheTaskEndsTheLockWaitAndChangesNothing() async throws {
        // A role of its own, so that the test can tell the open's session from other tests' sessions.
        let role = "u_" + UUID().uuidString.prefix(8).lowercased()
        _ = try PostgresTestServer.psql("CREATE ROLE \(role) LOGIN SUPERUSER")
        let url = try PostgresStoreURL(parsing: PostgresTestServer.url(user: role))
        let models = PostgresLibraryTests.models
        let created = try await PostgresStore.open(url, models: .yaml(models), options: PostgresLibraryTests.options(target: 1))
        await created.close()
        let key = PostgresNames.advisoryLockKey(schema: url.schema)
        let holder = try PostgresTestServer.background("SELECT pg_advisory_lock(\(key)); SELECT pg_sleep(600)", readyWhen: { name in
            """
            SELECT count(*) > 0 FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid \
            WHERE a.application_name = '\(name)' AND l.locktype = 'advisory' AND l.granted
            """
        })
        defer { holder.end() }

        var options = PostgresLibraryTests.options(target: nil)
        options.lockTimeout = 300
        let opening = Task { try await PostgresStore.open(url, models: .yaml(models), options: options) }
        // The open is waiting: its session has tried the lock (the key is a bound parameter) and did not get it.
        #expect(Wait.until(timeout: 60) {
            (try? PostgresTestServer.psql("""
                SELECT count(*) > 0 FROM pg_stat_activity WHERE usename = '\(role)' AND query LIKE 'SELECT pg_try_advisory_lock(%'
                """)) == "t"
        })
        let cancelled = Date()
        opening.cancel()
        await #expect(throws: CancellationError.self) { _ = try await opening.value }
        #expect(Date().timeIntervalSince(cancelled) < 30)
        // The store is untouched and its lock still the holder's only.
        holder.end()
        #expect(try PostgresTestServer.psql("SELECT value FROM \(url.schema).strata_metadata WHERE key = 'strata.version'") == "1")
    }
}
