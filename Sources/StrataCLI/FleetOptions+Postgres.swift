import ArgumentParser
import Foundation
import Strata
import StrataPostgres

// Fleets with PostgreSQL stores (`postgres://…`): the schemas a `--stores` URL's schema glob matches, or
// URLs in `--stores-from FILE`, alone or with SQLite files (SPEC §14.1, §14.2; Docs/postgresql.md "Fleets"):
// each store through its engine, one summary.

extension FleetOptions {
    /// Whether `--stores` is a PostgreSQL URL whose schema is a glob (``PostgresSchemaGlob``).
    var isPostgresGlob: Bool { stores.map(PostgresStoreURL.isPostgres) ?? false }

    /// The fleet's stores, each once, side files skipped: the files a glob matches, the schemas a
    /// PostgreSQL URL's schema glob matches (listed from the server), or the stores a list file names.
    func storeList(excluding: [String] = []) async throws -> [String] {
        if let stores, isPostgresGlob { return try await PostgresSchemaGlob(parsing: stores).stores() }
        if let stores { return try FleetStores.matching(stores, excluding: excluding) }
        return try FleetStores.listed(inFile: storesFrom!, excluding: excluding)
    }
}

extension MigrateCommand {
    /// Refuses `--create` with a PostgreSQL schema glob (exit 2, before any connection): a pattern matches
    /// schemas that exist and names no store to create.
    func checkPostgresGlob() throws {
        guard fleet.isPostgresGlob, create else { return }
        throw ValidationError("--create cannot be used with --stores naming PostgreSQL schemas: a pattern names no store to create; "
                              + "create each with --store URL --create, or list the URLs in --stores-from")
    }

    /// The fleet's migration: SQLite's own when every store is a file, else across engines.
    /// - Throws: exit 2 for `--backup-dir` with a PostgreSQL store (see ``postgresBackupRefused``) or a bad URL.
    func migrateFleet(_ runner: Fleet, models: ModelHistory, hooks: HookSet) throws -> FleetReport {
        guard runner.stores.contains(where: PostgresStoreURL.isPostgres) else {
            return try runner.migrate(models: models, hooks: hooks, options: runOptions(), backupDirectory: backupDir)
        }
        if backupDir != nil { throw Self.postgresBackupRefused }
        var postgres = PostgresMigration.Options(target: to, create: create, lockTimeout: lockTimeout,
                                                 ddlLockTimeout: self.postgres.ddlLockTimeout,
                                                 now: now.flatMap(DateText.parse).map { Date(timeIntervalSince1970: $0) },
                                                 variables: global.variableValues)
        postgres.dryRun = dryRun
        postgres.runLateHooks = runLateHooks
        return try runner.migrateAcrossEngines(models: models, hooks: hooks, options: runOptions(), postgres: postgres)
    }
}

extension StatusCommand {
    /// The fleet's status: SQLite's own when every store is a file, else across engines.
    func statusFleet(_ runner: Fleet, history: ModelHistory, hooks: HookSet) throws -> FleetReport {
        guard runner.stores.contains(where: PostgresStoreURL.isPostgres) else {
            return runner.status(history: history, hooks: hooks, check: check, stages: StrataMain.stages)
        }
        return try runner.statusAcrossEngines(history: history, hooks: hooks, check: check, stages: StrataMain.stages)
    }
}

extension AuditCommand {
    /// The fleet's audit: SQLite's own when every store is a file, else across engines.
    func auditFleet(_ runner: Fleet, history: ModelHistory?) throws -> FleetReport {
        let scope: AuditScope = entity.isEmpty ? .full : .entities(entity)
        guard runner.stores.contains(where: PostgresStoreURL.isPostgres) else {
            return runner.audit(history: history, scope: scope, failOn: try failingCodes(), maxSamples: 0, variables: global.variableValues)
        }
        return try runner.auditAcrossEngines(history: history, scope: scope, failOn: try failingCodes(), maxSamples: 0,
                                             variables: global.variableValues, ddlLockTimeout: postgres.ddlLockTimeout)
    }
}
