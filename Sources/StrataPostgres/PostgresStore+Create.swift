import Foundation
import StrataCore
import Strata

extension PostgresStore {
    /// Creates a store at `model`'s version in the URL's schema (`CREATE SCHEMA IF NOT EXISTS`), in one
    /// transaction under the schema's advisory lock: Strata's tables, the model's tables, foreign keys and
    /// indexes, the metadata, a `create` history row and the hooks recorded as not needed.
    ///
    /// - Returns: the open store, and whether this call created it (false: another run created it first).
    /// - Throws: `PostgresStoreError.exists` when the schema already has tables the model needs;
    ///   `.nameTooLong` for a table or column name over 63 bytes; `.connection` or `.server` (exit 1).
    public static func create(_ url: PostgresStoreURL, model: Model, hooks: HookSet,
                              lockTimeout: Double = 5) async throws -> (store: PostgresStore, created: Bool) {
        let store = PostgresStore(url: url, session: try await PostgresSession.connect(url))
        do {
            return (store, try await store.create(model: model, hooks: hooks, lockTimeout: lockTimeout))
        } catch {
            await store.close()
            throw error
        }
    }

    /// The creation on this store's session: the privilege check, then the transaction (only its `SET LOCAL`s
    /// inside a dry run's own transaction, which the caller rolls back).
    /// - Returns: whether this call created the store (false: another run created it first).
    func create(model: Model, hooks: HookSet, lockTimeout: Double) async throws -> Bool {
        let layout = try PostgresLayout.adapted(LayoutBuilder.layout(for: model))
        try await PostgresPrivileges.checkCreate(session)
        return try await session.transaction(lockTimeout: lockTimeout) {
            // CREATE SCHEMA needs CREATE on the database even when the schema exists: only when it does not.
            if try await session.value("SELECT count(*) FROM pg_namespace WHERE nspname = \(url.schema)", as: Int64.self) == 0 {
                try await session.execute(PostgresSchemaSQL.createSchema(url.schema))
            }
            try await session.execute("SELECT pg_advisory_xact_lock(\(PostgresNames.advisoryLockKey(schema: url.schema)))")
            if try await exists() { return false }   // another run created it while this one waited
            try await build(layout: layout, model: model, hooks: hooks)
            return true
        }
    }

    /// The creation's statements, inside the caller's transaction.
    private func build(layout: StoreLayout, model: Model, hooks: HookSet) async throws {
        let started = Date()
        let existing = try await tableNames()
        let clashes = ([StoreMetadata.table, "strata_history", "strata_hooks"] + layout.tables.map(\.name)).filter(existing.contains)
        if !clashes.isEmpty {
            throw PostgresStoreError.exists(store: url.description,
                                            detail: "the schema already has table(s) \(clashes.joined(separator: ", "))")
        }
        for statement in PostgresSchemaSQL.metadataTables { try await session.execute(statement) }
        let types = PostgresTypes.attributeTypes(layout, model: model)
        for statement in PostgresSchemaSQL.createStatements(for: layout.tables, attributeTypes: types) {
            try await session.execute(statement)
        }
        let metadata = StoreMetadata(storeUUID: UUID().uuidString.lowercased(), model: model, layout: layout,
                                     createdAtVersion: model.version)
        try await write(metadata)
        let finished = Date()
        try await recordHistory(kind: "create", from: nil, to: model.version, started: started, finished: finished)
        try await recordNotNeeded(hooks, createdAt: model.version, finished: finished)
    }
}
