import Foundation
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// `PostgresStore.fetch` and `fetchAll` under another session's exclusive lock: each statement waits at most
/// `ddlLockTimeout` seconds (`SET LOCAL lock_timeout`, as the store's other calls that take it), then the read ends
/// with `PostgresLockWaitError` (exit 5) and hands nothing to the closure. Before, the fetch set no
/// `lock_timeout` and waited as long as the holder kept its lock (here 600 s).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresLibraryFetchLockTests {
    /// A store at v2 (five objects), and a session holding `table` of its schema in ACCESS EXCLUSIVE mode.
    static func lockedStore(_ table: String) async throws -> (PostgresStore, PostgresTestServer.BackgroundSession) {
        let url = try PostgresStoreURL(parsing: PostgresTestServer.url())
        let (models, hooks) = (PostgresLibraryTests.models, PostgresLibraryTests.hooks)
        // Created at v1, then migrated to v2, whose hook inserts the objects.
        try await PostgresStore.open(url, models: .yaml(models), hooks: .yaml(hooks), options: PostgresLibraryTests.options(target: 1)).close()
        let store = try await PostgresStore.open(url, models: .yaml(models), hooks: .yaml(hooks), options: PostgresLibraryTests.options(target: nil))
        let holder = try PostgresTestServer.background(
            "BEGIN; LOCK TABLE \(url.schema).\"\(table)\" IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(600)",
            readyWhen: { PostgresTestServer.holds($0, mode: "AccessExclusiveLock") })
        return (store, holder)
    }

    @Test func aFetchBehindAnExclusiveLockEndsAfterItsLockTimeout() async throws {
        let (store, holder) = try await Self.lockedStore("Item")
        defer { holder.end() }
        var handed = 0
        let started = Date()
        do {
            try await store.fetch("Item", sortedBy: [PropertySort("name")], ddlLockTimeout: 0.5) { _ in handed += 1 }
            Issue.record("the fetch did not wait for the lock")
        } catch let error as PostgresLockWaitError {
            #expect(error.seconds == 0.5)
            #expect(error.message == "canceling statement due to lock timeout")
            #expect(error.statement?.hasPrefix("SELECT ") == true)
            #expect(error.exitCode == .storeBusy)
            #expect(error.diagnostics.first?.headline.hasPrefix("error: waited more than 0.5 s (lock_timeout) for a lock that another session holds; the transaction was rolled back") == true)
        }
        #expect(handed == 0)
        #expect(Date().timeIntervalSince(started) < 30)

        // The session is usable again, and reads once the holder is gone.
        holder.end()
        let items = try await store.fetchAll("Item", sortedBy: [PropertySort("name")], ddlLockTimeout: 0.5)
        #expect(items.compactMap { $0.string("name") } == ["Zebra", "apple", "special", "Émile"])
        await store.close()
    }

    /// The recorded model is read under the same limit (the default, 5 s): a lock on `strata_metadata` ends the
    /// fetch too.
    @Test func theModelReadWaitsNoLongerThanTheDefault() async throws {
        let (store, holder) = try await Self.lockedStore("strata_metadata")
        defer { holder.end() }
        let started = Date()
        await #expect(throws: PostgresLockWaitError(seconds: 5, statement: #"SELECT "key", "value" FROM "strata_metadata" WHERE "key" LIKE 'strata.%'"#,
                                                    message: "canceling statement due to lock timeout")) {
            _ = try await store.fetchAll("Item")
        }
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 4.5 && waited < 30, "\(waited)")
        holder.end()
        await store.close()
    }
}
