import Strata
import StrataPostgres

extension RepairCommand {
    /// `strata repair [--skip ID…]` on a PostgreSQL store: edited hook files re-recorded, or late hooks recorded
    /// as skipped, under the store's lock; the same output and exit codes as on SQLite (Docs/postgresql.md).
    func runPostgres(_ url: PostgresStoreURL, models: ModelHistory, hooks: HookSet, output: Output) async throws {
        let (lockTimeout, ddlLockTimeout) = (locking.lockTimeout, postgres.ddlLockTimeout)
        if !skip.isEmpty {
            let skipped = try await PostgresStore.withOpen(url) {
                try await $0.skipLateHooks(skip, hooks: hooks, lockTimeout: lockTimeout, ddlLockTimeout: ddlLockTimeout)
            }
            output.json(SkipDocument(skipped: skipped))
            for id in skipped { output.line("recorded \(id) as skipped: it will never run on this store") }
            return
        }
        let (repaired, mappings) = try await PostgresStore.withOpen(url) { store in
            (try await store.repairHooks(hooks, lockTimeout: lockTimeout, ddlLockTimeout: ddlLockTimeout),
             try await store.repairMappings(models.mappings, lockTimeout: lockTimeout, ddlLockTimeout: ddlLockTimeout))
        }
        output.json(Document(repaired: repaired, mappings: mappings))
        if repaired.isEmpty && mappings.isEmpty { output.line("no edited hooks") }
        for file in mappings { output.line("re-recorded mapping file \(file)") }
        for hook in repaired { output.line("re-recorded \(hook.id): \(hook.recordedChecksum.prefix(12))… → \(hook.fileChecksum.prefix(12))…") }
    }
}
