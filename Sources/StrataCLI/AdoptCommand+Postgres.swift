import Strata
import StrataPostgres

extension AdoptCommand {
    /// `strata adopt --version N` on a PostgreSQL store: the schema's tables checked against version N's layout
    /// as Strata creates it on PostgreSQL (from `pg_catalog`), then the `strata_` tables recorded; the same
    /// output and exit codes as on SQLite (Docs/postgresql.md).
    func runPostgres(_ url: PostgresStoreURL, model: Model, hooks: HookSet, output: Output) async throws {
        let (store, metadata) = try await PostgresStore.adopt(url, model: model, hooks: hooks, lockTimeout: locking.lockTimeout,
                                                              ddlLockTimeout: postgres.ddlLockTimeout)
        await store.close()
        output.json(Document(store: url.description, version: version, storeUUID: metadata.storeUUID))
        output.line("adopted \(url.description) at version \(version) (store \(metadata.storeUUID))")
    }
}
