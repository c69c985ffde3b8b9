import Strata
import StrataPostgres

extension HistoryCommand {
    /// `strata history` on a PostgreSQL store: the same timeline and JSON document as on SQLite (read-only).
    func runPostgres(_ url: PostgresStoreURL, output: Output) async throws {
        let (entries, hooks) = try await PostgresStore.withOpen(url) { try await $0.history() }
        Self.emit(entries, hooks, output: output)
    }
}
