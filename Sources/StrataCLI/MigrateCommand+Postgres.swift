import Foundation
import Strata
import StrataPostgres

extension MigrateCommand {
    /// `strata migrate` on a PostgreSQL store (SPEC §14.2, Docs/postgresql.md). Options whose work this engine
    /// cannot do yet stop the run before it connects (exit 2).
    func runPostgres(_ url: PostgresStoreURL, output: Output) async throws {
        if backup != nil { throw Self.postgresBackupRefused }
        let unsupported: [(option: String, given: Bool)] = [
            ("--report", report != nil),
            ("--changes-out", changesOut != nil),
        ]
        if let first = unsupported.first(where: { $0.given }) {
            throw PostgresStoreError.notYetSupported(what: "migrate \(first.option)")
        }
        let models = try global.loadModels(output)
        let hooks = try HookSet.load(directory: global.migrations, models: models, variables: global.variableValues)
        var options = PostgresMigration.Options(target: to, create: create, lockTimeout: lockTimeout,
                                                ddlLockTimeout: postgres.ddlLockTimeout,
                                                now: now.flatMap(DateText.parse).map { Date(timeIntervalSince1970: $0) },
                                                variables: global.variableValues)
        options.dryRun = dryRun
        options.runLateHooks = runLateHooks
        let report = try await PostgresMigration.run(url, models: models, hooks: hooks, options: options)
        output.json(report)
        if report.created {
            output.result(report.dryRun ? "dry run: would create \(report.store) at version \(report.toVersion); rolled back, nothing was written"
                                        : "created \(report.store) at version \(report.toVersion)")
        } else if report.nothingToDo {
            output.result("\(report.store) is at version \(report.toVersion): nothing to do")
        } else {
            let verb = report.dryRun ? "dry run: would migrate" : "migrated"
            for hook in report.hooks where hook.late { output.result(Self.postgresHookLine(hook)) }
            for step in report.steps {
                output.result("\(verb) version \(step.fromVersion) → \(step.toVersion) (\(step.statements.count) statements)")
                for entity in step.mapping ?? [] { for line in entity.lines { output.result("  " + line) } }
                for hook in report.hooks where hook.after == step.toVersion { output.result(Self.postgresHookLine(hook)) }
            }
            output.result(report.dryRun ? "dry run rolled back: \(report.store) stays at version \(report.fromVersion ?? report.toVersion)"
                                        : "\(report.store) is at version \(report.toVersion)")
        }
    }

    /// `hook fix-names (after v2): batchUpdate Recipe: 3 objects, batchDelete Tag: 1 object; audit: not audited`
    /// (`(after v2, late)` for a late hook).
    static func postgresHookLine(_ hook: HookRunResult) -> String {
        let steps = hook.steps.isEmpty ? "no steps" : hook.steps.map {
            "\($0.kind) \($0.entity): \($0.count) object\($0.count == 1 ? "" : "s")"
        }.joined(separator: ", ")
        return "hook \(hook.id) (\(hook.timing == .before ? "before" : "after") v\(hook.after)\(hook.late ? ", late" : "")): \(steps); audit: not audited"
    }
}
