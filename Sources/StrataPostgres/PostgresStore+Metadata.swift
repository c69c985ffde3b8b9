import StrataCore
import Strata

/// The store's key–value metadata on PostgreSQL, as `Store`'s on SQLite: Strata's `strata.*` keys and the
/// application's keys, in `strata_metadata`.
extension PostgresStore {
    /// The value of one key (a user key or one of Strata's `strata.*` keys), or nil.
    ///
    /// ```swift
    /// let region = try await store.metadataValue(forKey: "region")
    /// ```
    /// - Throws: `PostgresStoreError` for the server's errors.
    public func metadataValue(forKey key: String) async throws(PostgresStoreError) -> String? {
        try await session.value("SELECT \"value\" FROM \"strata_metadata\" WHERE \"key\" = \(key)", as: String.self)
    }

    /// The user keys (everything not starting with `strata.`, in any case, as SQLite's `LIKE` judges it) and
    /// their values, sorted by key byte by byte.
    /// - Throws: `PostgresStoreError` for the server's errors.
    public func userMetadata() async throws(PostgresStoreError) -> [(key: String, value: String)] {
        let statement: SQLText = """
            SELECT "key", "value" FROM "strata_metadata" WHERE lower("key" COLLATE "C") NOT LIKE 'strata.%' ORDER BY "key" COLLATE "C"
            """
        var values: [(key: String, value: String)] = []
        for row in try await session.rows(statement) {
            values.append((try PostgresSession.decode(row[0], as: String.self, statement: statement),
                           try PostgresSession.decode(row[1], as: String.self, statement: statement)))
        }
        return values
    }

    /// Sets a user key in its own transaction, under the store's lock (the one `migrate` holds), so it never
    /// interleaves with a migration.
    ///
    /// ```swift
    /// try await store.setUserMetadata("eu-west", forKey: "region", lockTimeout: 60)
    /// ```
    /// - Parameters:
    ///   - value: the new value.
    ///   - key: a key not starting with `strata.` (those are Strata's own).
    ///   - lockTimeout: seconds to wait for another run's lock.
    ///   - ddlLockTimeout: seconds each statement may wait for a lock another session holds (`lock_timeout`);
    ///     past it the write rolls back (`PostgresLockWaitError`, exit 5).
    /// - Throws: a `Diagnostic` (exit 2) for an empty or `strata.` key; `PostgresStoreError.busy` (exit 5) when
    ///   another run holds the lock; `PostgresStoreError` for the server's errors.
    public func setUserMetadata(_ value: String, forKey key: String, lockTimeout: Double,
                                ddlLockTimeout: Double = 5) async throws {
        guard !key.lowercased().hasPrefix("strata."), !key.isEmpty else {
            throw Diagnostic.error("'\(key)' is not a user key", hint: "keys starting with 'strata.' are Strata's own")
        }
        let lock = PostgresSessionLock(session: session, url: url)
        try await lock.acquire(timeout: lockTimeout)
        try await session.transaction(lockTimeout: ddlLockTimeout) {
            try await session.execute("SELECT pg_advisory_xact_lock(\(lock.key))")
            try await session.execute("""
                INSERT INTO "strata_metadata" ("key", "value") VALUES (\(key), \(value)) \
                ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value"
                """)
        }
        try await lock.release()
    }
}
