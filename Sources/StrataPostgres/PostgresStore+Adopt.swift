import Foundation
import StrataCore
import Strata

extension PostgresStore {
    /// `strata adopt --version N` on PostgreSQL (SPEC §8, §14.2): baselines a schema that has no Strata
    /// metadata. It checks, from `pg_catalog`, that the live tables are `model`'s layout as Strata would create
    /// them here (``PostgresDriftDetector``), then records the metadata as if the store had been created at that
    /// version (hooks with `after` ≤ N are not needed), in one transaction under the store's locks.
    ///
    /// ```swift
    /// let store = try await PostgresStore.adopt(url, model: history.model(version: 3)!, hooks: hooks)
    /// await store.close()
    /// ```
    /// - Returns: the open store and its new metadata.
    /// - Throws: `MigrationError.drift` (exit 6) with every difference when the schema is not the layout;
    ///   `StoreError.other` (exit 1) when the schema already has Strata metadata; `PostgresStoreError.exists`
    ///   (exit 2) when another `strata_` table is in the way; `.nameTooLong` (2); `.busy` (5);
    ///   `PostgresLockWaitError` (5) past `ddlLockTimeout`; privileges (1).
    public static func adopt(_ url: PostgresStoreURL, model: Model, hooks: HookSet,
                             lockTimeout: Double = 60, ddlLockTimeout: Double = 5) async throws -> (store: PostgresStore, metadata: StoreMetadata) {
        let layout = try PostgresLayout.adapted(LayoutBuilder.layout(for: model))
        let store = PostgresStore(url: url, session: try await PostgresSession.connect(url))
        do {
            try await PostgresPrivileges.checkCreate(store.session)
            let lock = PostgresSessionLock(session: store.session, url: url)
            try await lock.acquire(timeout: lockTimeout)
            let metadata = try await store.session.transaction(lockTimeout: ddlLockTimeout) {
                try await store.session.execute("SELECT pg_advisory_xact_lock(\(lock.key))")
                return try await store.baseline(layout: layout, model: model, hooks: hooks)
            }
            try await lock.release()
            return (store, metadata)
        } catch {
            await store.close()
            throw error
        }
    }

    /// The adoption's checks and writes, inside the caller's transaction.
    private func baseline(layout: StoreLayout, model: Model, hooks: HookSet) async throws -> StoreMetadata {
        if try await exists() {
            let version = try? await metadata().version
            throw StoreError.other("'\(url)' already has Strata metadata (version \(version.map(String.init) ?? "unreadable"))")
        }
        let strataTables = try await tableNames().filter { ["strata_history", "strata_hooks"].contains($0) }.sorted()
        if !strataTables.isEmpty {
            throw PostgresStoreError.exists(store: url.description,
                                            detail: "the schema has table(s) \(strataTables.joined(separator: ", ")) but no strata_metadata")
        }
        let catalog = try await PostgresCatalog.read(session, schema: url.schema)
        let items = PostgresDriftDetector.compare(catalog, layout: layout, model: model)
        guard items.isEmpty else { throw MigrationError.drift(DriftReport(storeVersion: model.version, items: items)) }
        let started = Date()
        for statement in PostgresSchemaSQL.metadataTables { try await session.execute(statement) }
        let metadata = StoreMetadata(storeUUID: UUID().uuidString.lowercased(), model: model, layout: layout,
                                     createdAtVersion: model.version)
        try await write(metadata)
        let finished = Date()
        try await recordHistory(kind: "adopt", from: nil, to: model.version, started: started, finished: finished)
        try await recordNotNeeded(hooks, createdAt: model.version, finished: finished)
        return metadata
    }
}
