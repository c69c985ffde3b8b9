import Foundation
import StrataCore
import Strata

/// Migrate on open, on PostgreSQL: what a server application calls at launch, as ``Store`` does for SQLite.
extension PostgresStore {
    /// Opens the store in `url`'s schema (creating it when missing, unless `options.createIfMissing` is off),
    /// loads the models and hooks, runs the pending version steps and hooks, and returns the open store with
    /// what it did in ``migration``.
    ///
    /// The run takes the schema's advisory lock, as `strata migrate` does, so two application instances
    /// starting together migrate once: the second waits (up to `options.lockTimeout` seconds), then finds
    /// nothing to do. Bad input (models, hooks, a hook PostgreSQL cannot run) is reported before any change.
    ///
    /// ```swift
    /// let url = try PostgresStoreURL(parsing: "postgres://app@db.internal/shop?schema=catalog")
    /// let store = try await PostgresStore.open(url, models: .directory("models"), hooks: .directory("migrations"))
    /// print(store.migration?.toVersion ?? 0)
    /// let favorites = try await store.fetchAll("Recipe", where: "favorite == YES")
    /// await store.close()
    /// ```
    /// - Parameters:
    ///   - models: the model versions.
    ///   - hooks: the hook and mapping files; nil for none.
    ///   - options: creation, target, `$NOW`, `$VARIABLES`, the audit after each hook and its samples, object IDs
    ///     in the report, late hooks, lock timeout (`checkIntegrity` and `pollInterval` are SQLite's).
    /// - Throws: `DiagnosticList` (models, hooks), `PostgresStoreError` (missing store without
    ///   `createIfMissing`, busy after `lockTimeout`, privileges, the server), `MappingError` for a step that
    ///   cannot be inferred, `MigrationRunError` when a step or hook fails (a hook's violations under
    ///   `onViolation: rollback` among them), with the report so far: the schema stays at the last version
    ///   it committed.
    public static func open(_ url: PostgresStoreURL, models: ProjectSource, hooks: ProjectSource? = nil,
                            options: Store.OpenOptions = Store.OpenOptions()) async throws -> PostgresStore {
        let report = try await migrate(url, models: models, hooks: hooks, options: options)
        let store = try await open(url)
        return PostgresStore(url: url, session: store.session, migration: report)
    }

    /// Migrates this open store to the newest model (or `options.target`) under the schema's advisory lock, as
    /// ``open(_:models:hooks:options:)`` does, then publishes the hooks' change sets to
    /// ``changes(includingObjectIDs:)``, as `Store.migrate` does on SQLite. For a server that keeps its store
    /// open while new models arrive.
    ///
    /// ```swift
    /// let changes = store.changes()
    /// let report = try await store.migrate(models: .directory("models"), hooks: .directory("migrations"))
    /// ```
    /// - Returns: what ran; `nothingToDo` when the store was already there.
    /// - Throws: the errors of ``open(_:models:hooks:options:)``; on `MigrationRunError`, the change sets of the
    ///   steps that committed before the failure are published first.
    @discardableResult
    public func migrate(models: ProjectSource, hooks: ProjectSource? = nil,
                        options: Store.OpenOptions = Store.OpenOptions()) async throws -> MigrationRunReport {
        do {
            let report = try await Self.migrate(url, models: models, hooks: hooks, options: options)
            changeObservers.publish(report.changes)
            return report
        } catch let error as MigrationRunError {
            changeObservers.publish(error.report.changes)   // the steps that committed before the failure
            throw error
        }
    }

    /// Loads the project and runs `migrate` on the store at `url` with `options`.
    static func migrate(_ url: PostgresStoreURL, models: ProjectSource, hooks: ProjectSource?,
                        options: Store.OpenOptions) async throws -> MigrationRunReport {
        let project = try await Store.offThread { try Store.Project(models: models, hooks: hooks, options: options) }
        var run = PostgresMigration.Options(target: project.target.version, create: options.createIfMissing,
                                            lockTimeout: options.lockTimeout, now: options.now ?? Date(),
                                            variables: options.variables)
        run.audit = options.audit
        run.maxSamples = options.maxSamples
        run.collectObjectIDs = options.collectObjectIDs
        run.runLateHooks = options.runLateHooks
        return try await PostgresMigration.runReport(url, models: project.models, hooks: project.hooks, options: run)
    }
}
