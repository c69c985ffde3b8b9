import Foundation
import StrataCore

/// The run's lock on a PostgreSQL store (SPEC §14.2): `pg_advisory_lock(k)` on the run's session, with
/// k = the first 8 bytes of SHA-256("strata:" + schema). The server releases it if the session ends.
struct PostgresSessionLock {
    let session: PostgresSession
    let url: PostgresStoreURL

    var key: Int64 { PostgresNames.advisoryLockKey(schema: url.schema) }

    /// Takes the lock, trying again every 100 ms for up to `timeout` seconds. The pause is a `Task.sleep`, so no
    /// thread is blocked, and cancelling the task ends the wait, as `StoreLock.acquire` does on SQLite.
    /// - Returns: whether another session held it first (the run waited), as SQLite's reports say.
    /// - Throws: `PostgresStoreError.busy` naming the holder's `application_name` (exit 5); `CancellationError`
    ///   when the task is cancelled while waiting.
    @discardableResult
    func acquire(timeout: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var waited = false
        while true {
            if try await session.value("SELECT pg_try_advisory_lock(\(key))", as: Bool.self) == true { return waited }
            if Date() >= deadline { throw PostgresStoreError.busy(store: url.description, holder: try await holder()) }
            waited = true
            try await Task.sleep(nanoseconds: 100_000_000)
        }
    }

    func release() async throws(PostgresStoreError) {
        try await session.execute("SELECT pg_advisory_unlock(\(key))")
    }

    /// The `application_name` of the session holding the lock (`strata <version> pid@host`), if visible.
    func holder() async throws(PostgresStoreError) -> String? {
        // A bigint key is held as two 32-bit halves: classid the high one, objid the low one.
        let high = Int64(key >> 32), low = Int64(key & 0xFFFF_FFFF)
        return try await session.value("""
            SELECT a.application_name FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid \
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 \
            AND l.classid::bigint = \(high) & 4294967295 AND l.objid::bigint = \(low) AND l.database = \
            (SELECT oid FROM pg_database WHERE datname = current_database()) LIMIT 1
            """, as: String.self)
    }
}
