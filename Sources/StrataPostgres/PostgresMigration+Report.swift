import Foundation
import StrataCore
import Strata

extension PostgresMigration {
    /// Migrates (or creates) the store at `url` and reports it as SQLite's runs do (``MigrationRunReport``), so
    /// that `strata migrate` prints and writes the same text, JSON and change set on both engines.
    ///
    /// ```swift
    /// var options = PostgresMigration.Options()
    /// options.collectObjectIDs = true
    /// let report = try await PostgresMigration.runReport(url, models: history, hooks: hooks, options: options)
    /// print(Report(title: "Strata migrate", migration: report).render(as: .text))
    /// ```
    /// - Throws: `MigrationRunError` wrapping the failure of a step or a hook (a hook's violations under
    ///   `onViolation: rollback`: exit 3) with the report so far; the errors of ``run(_:models:hooks:options:)``
    ///   before any step ran.
    public static func runReport(_ url: PostgresStoreURL, models: ModelHistory, hooks: HookSet,
                                 options: Options) async throws -> MigrationRunReport {
        let target = try targetModel(models, options.target).version
        var options = options
        options.now = options.now ?? Date()   // $NOW: the run's start unless given, fixed for every hook and audit
        do {
            return try await reporting(url, models: models, hooks: hooks, options: options).runReport(target: target)
        } catch let stopped as Stopped {
            guard let underlying = stopped.underlying as? StrataError else { throw stopped.underlying }
            throw MigrationRunError(underlying: underlying, report: stopped.report.runReport(target: target))
        }
    }
}

extension PostgresMigration.Report {
    /// This run as SQLite's `migrate` reports one.
    func runReport(target: Int) -> MigrationRunReport {
        var report = MigrationRunReport(store: store, dryRun: dryRun, targetVersion: target, now: now.timeIntervalSince1970)
        report.storeUUID = storeUUID
        report.created = created
        report.nothingToDo = nothingToDo
        report.waitedForLock = waitedForLock
        report.fromVersion = created ? nil : fromVersion
        report.toVersion = toVersion
        report.steps = stepReports
        report.hooks = hooks
        report.notNeededHooks = notNeededHooks
        report.changes = changes
        report.warnings = warnings
        return report
    }
}
