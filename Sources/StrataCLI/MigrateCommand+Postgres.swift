import Foundation
import Strata
import StrataPostgres

extension MigrateCommand {
    /// `strata migrate` on a PostgreSQL store (SPEC §14.2, Docs/postgresql.md): the same run report as on SQLite
    /// (``MigrationRunReport``), printed and written by the same code (`emit`), so the text, the JSON, `--report`
    /// and `--changes-out` read the same on both engines. `--backup` stops the run before it connects (exit 2):
    /// each PostgreSQL step is one transaction, and a backup of a schema is `pg_dump`'s work.
    func runPostgres(_ url: PostgresStoreURL, output: Output) async throws {
        if backup != nil { throw Self.postgresBackupRefused }
        try global.checkOutputs([("--report", report), ("--changes-out", changesOut)], storePath: nil)
        let models = try global.loadModels(output)
        let hooks = try HookSet.load(directory: try global.hooksDirectory(), models: models, variables: global.variableValues)
        var options = PostgresMigration.Options(target: to, create: create, lockTimeout: lockTimeout,
                                                ddlLockTimeout: postgres.ddlLockTimeout,
                                                now: now.flatMap(DateText.parse).map { Date(timeIntervalSince1970: $0) },
                                                variables: global.variableValues)
        options.dryRun = dryRun
        options.audit = audit
        options.maxSamples = maxSamples
        options.collectObjectIDs = changesOut != nil
        options.runLateHooks = runLateHooks
        options.stages = StrataMain.stages
        let result: MigrationRunReport
        do {
            result = try await PostgresMigration.runReport(url, models: models, hooks: hooks, options: options)
        } catch let error as MigrationRunError {
            // As on SQLite: the report of what ran, then the error that stopped the run decides the exit code.
            do { try emit(error.report, failure: error, output: output) } catch { for d in (error as? StrataError)?.diagnostics ?? [.error("\(error)")] { output.diagnostic(d) } }
            output.fail(error.underlying)
        }
        try emit(result, output: output)
        if result.warnedViolations > 0 { output.note("warning: \(result.warnedViolations) violation(s) committed under `onViolation: warn`") }
    }
}
