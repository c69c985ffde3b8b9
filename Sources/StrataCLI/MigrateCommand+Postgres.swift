import Foundation
import Strata
import StrataPostgres

extension MigrateCommand {
    /// `strata migrate` on a PostgreSQL store (SPEC §14.2, Docs/postgresql.md). Options whose work this engine
    /// cannot do yet stop the run before it connects (exit 2).
    func runPostgres(_ url: PostgresStoreURL, output: Output) async throws {
        let unsupported: [(option: String, given: Bool)] = [
            ("--dry-run", dryRun), ("--backup", backup != nil), ("--report", report != nil),
            ("--changes-out", changesOut != nil), ("--run-late-hooks", runLateHooks),
        ]
        if let first = unsupported.first(where: { $0.given }) {
            throw PostgresStoreError.notYetSupported(what: "migrate \(first.option)")
        }
        let models = try global.loadModels(output)
        let hooks = try HookSet.load(directory: global.migrations, models: models, variables: global.variableValues)
        let options = PostgresMigration.Options(target: to, create: create, lockTimeout: lockTimeout,
                                                ddlLockTimeout: postgres.ddlLockTimeout)
        let report = try await PostgresMigration.run(url, models: models, hooks: hooks, options: options)
        output.json(report)
        if report.created {
            output.result("created \(report.store) at version \(report.toVersion)")
        } else if report.nothingToDo {
            output.result("\(report.store) is at version \(report.toVersion): nothing to do")
        } else {
            for step in report.steps { output.result("migrated version \(step.fromVersion) → \(step.toVersion) (\(step.statements.count) statements)") }
            output.result("\(report.store) is at version \(report.toVersion)")
        }
    }
}
