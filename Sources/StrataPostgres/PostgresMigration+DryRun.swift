import Foundation
import StrataCore

extension PostgresMigration {
    /// `migrate --dry-run` (SPEC §14.2): every pending step, with its hooks, in one transaction that is rolled
    /// back at the end, so the counts are the real run's and nothing is written (identity values it used
    /// stay used). It holds the real run's table locks while it runs.
    static func dryRun(_ store: PostgresStore, to target: Model, models: ModelHistory, hooks: HookSet,
                       options: Options) async throws -> Report {
        var session = store.session
        session.insideRunTransaction = true
        let rehearsal = PostgresStore(url: store.url, session: session)
        try await session.execute("BEGIN")
        do {
            var report = try await migrate(rehearsal, to: target, models: models, hooks: hooks, options: options)
            try await session.execute("ROLLBACK")
            report.dryRun = true
            return report
        } catch var stopped as Stopped {
            try? await session.execute("ROLLBACK")
            stopped.report.dryRun = true
            throw stopped
        } catch {
            try? await session.execute("ROLLBACK")
            throw error
        }
    }
}
