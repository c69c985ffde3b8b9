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

    /// `migrate --create --dry-run` (SPEC §14.2): the creation, schema included (DDL is transactional on
    /// PostgreSQL), in one transaction that is rolled back, so that what would stop the real run (privileges,
    /// a table in the way, a name over 63 bytes) stops this one with the same error, and nothing is written.
    static func dryRunCreate(_ url: PostgresStoreURL, model: Model, hooks: HookSet, options: Options) async throws -> Report {
        var session = try await PostgresSession.connect(url)
        session.insideRunTransaction = true
        let store = PostgresStore(url: url, session: session)
        do {
            try await session.execute("BEGIN")
            let created = try await store.create(model: model, hooks: hooks, lockTimeout: options.ddlLockTimeout)
            try await session.execute("ROLLBACK")
            await store.close()
            var report = Report(store: url.description, created: created, dryRun: true, fromVersion: nil, toVersion: model.version,
                                nothingToDo: !created)
            report.now = options.now ?? Date()
            if created { report.notNeededHooks = hooks.hooks.filter { $0.after <= model.version }.map(\.id) }
            return report
        } catch {
            try? await session.execute("ROLLBACK")
            await store.close()
            throw error
        }
    }
}
