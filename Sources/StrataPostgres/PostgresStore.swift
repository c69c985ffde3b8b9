import Foundation
import PostgresNIO
import StrataCore
import Strata

/// A Strata store in a PostgreSQL schema (SPEC §14.2): the schema's `strata_` tables and the model's tables.
///
/// ```swift
/// let store = try await PostgresStore.open(try PostgresStoreURL(parsing: "postgres://app@localhost/shop?schema=app"))
/// let metadata = try await store.metadata()
/// await store.close()
/// ```
public final class PostgresStore: Sendable {
    public let url: PostgresStoreURL
    let session: PostgresSession
    /// What ``open(_:models:hooks:options:)`` did to the store (created it, migrated it, or nothing to do);
    /// nil for a store opened with ``open(_:)``.
    public let migration: MigrationRunReport?
    /// The observers of this open store's change sets (``changes(includingObjectIDs:)``).
    let changeObservers = ChangeObservers()

    init(url: PostgresStoreURL, session: PostgresSession, migration: MigrationRunReport? = nil) {
        self.url = url
        self.session = session
        self.migration = migration
    }

    /// Connects to an existing store.
    /// - Throws: `PostgresStoreError.missingStore` when the schema has no `strata_` tables (exit 2);
    ///   `.connection` or `.server` when the server cannot be used (exit 1).
    public static func open(_ url: PostgresStoreURL) async throws(PostgresStoreError) -> PostgresStore {
        let store = PostgresStore(url: url, session: try await PostgresSession.connect(url))
        do throws(PostgresStoreError) {
            guard try await store.exists() else { throw PostgresStoreError.missingStore(store: url.description) }
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Closes the connection (the server releases any session lock left).
    public func close() async { await session.close() }

    /// Whether the schema holds Strata's metadata table (read from the catalog, which every role sees, so
    /// that a role without privileges is told so rather than shown a missing store).
    func exists() async throws(PostgresStoreError) -> Bool {
        try await session.value("""
            SELECT count(*) FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace \
            WHERE n.nspname = \(url.schema) AND c.relname = \(StoreMetadata.table) AND c.relkind IN ('r', 'p')
            """, as: Int64.self) == 1
    }

    /// The names of the tables in the schema.
    func tableNames() async throws(PostgresStoreError) -> Set<String> {
        let statement: SQLText = "SELECT table_name::text FROM information_schema.tables WHERE table_schema = \(url.schema)"
        var names: Set<String> = []
        for row in try await session.rows(statement) { names.insert(try PostgresSession.decode(row[0], as: String.self, statement: statement)) }
        return names
    }

    /// The recorded metadata.
    /// - Throws: `StoreError.corrupt` when a key is missing or unreadable; `PostgresStoreError` for the server's errors.
    public func metadata() async throws -> StoreMetadata {
        let statement: SQLText = #"SELECT "key", "value" FROM "strata_metadata" WHERE "key" LIKE 'strata.%'"#
        var values: [String: String] = [:]
        for row in try await session.rows(statement) {
            values[try PostgresSession.decode(row[0], as: String.self, statement: statement)]
                = try PostgresSession.decode(row[1], as: String.self, statement: statement)
        }
        return try StoreMetadata(systemValues: values, store: url.description)
    }

    /// The store's version, read inside the caller's transaction (a step re-reads it after taking the lock).
    func version() async throws(PostgresStoreError) -> Int? {
        try await session.value(#"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#, as: String.self).flatMap { Int($0) }
    }

    /// Writes every system key of `metadata` (inside the caller's transaction).
    func write(_ metadata: StoreMetadata) async throws(PostgresStoreError) {
        for (key, value) in metadata.systemValues {
            try await session.execute("""
                INSERT INTO "strata_metadata" ("key", "value") VALUES (\(key), \(value)) \
                ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value"
                """)
        }
    }

    /// Appends a history row (inside the caller's transaction), as `History.record` does on SQLite.
    func recordHistory(kind: String, from: Int?, to: Int, started: Date, finished: Date,
                       details: String? = nil) async throws(PostgresStoreError) {
        let fromValue: Value = from.map { .integer(Int64($0)) } ?? .null
        let detailsValue: Value = details.map { .text($0) } ?? .null
        try await session.execute("""
            INSERT INTO "strata_history" ("kind", "fromVersion", "toVersion", "started", "finished", "duration", "toolVersion", \
            "details") VALUES (\(kind), CAST(\(fromValue) AS integer), CAST(\(to) AS integer), \(History.timestamp(started)), \
            \(History.timestamp(finished)), \(Value.real(finished.timeIntervalSince(started))), \(StrataVersion.current), \
            CAST(\(detailsValue) AS text))
            """)
    }

    /// The ids and statuses of the hooks recorded in `strata_hooks`.
    func hookRecords() async throws(PostgresStoreError) -> [String: String] {
        let statement: SQLText = #"SELECT "id", "status" FROM "strata_hooks""#
        var records: [String: String] = [:]
        for row in try await session.rows(statement) {
            records[try PostgresSession.decode(row[0], as: String.self, statement: statement)]
                = try PostgresSession.decode(row[1], as: String.self, statement: statement)
        }
        return records
    }

    /// Records the hooks with `after` ≤ the creation version as not needed (SPEC §5), as SQLite stores do.
    func recordNotNeeded(_ hooks: HookSet, createdAt version: Int, finished: Date) async throws(PostgresStoreError) {
        for hook in hooks.hooks where hook.after <= version {
            // A before-hook's record names the model it is checked against (the version below), as when it runs.
            let model = hook.timing == .before ? hook.modelVersion : version
            try await session.execute("""
                INSERT INTO "strata_hooks" ("id", "checksum", "afterVersion", "modelVersion", "status", "rowsAffected", "finished") \
                VALUES (\(hook.id), \(hook.checksum), CAST(\(hook.after) AS integer), CAST(\(model) AS integer), 'notNeeded', 0, \
                \(History.timestamp(finished))) ON CONFLICT ("id") DO NOTHING
                """)
        }
    }
}
