import Foundation
import Strata
import StrataPostgres

extension AuditCommand {
    /// `strata audit` on a PostgreSQL store (SPEC §7, §14.2, Docs/postgresql.md): the same rules, report
    /// formats and exit codes as on SQLite, in one read-only transaction.
    func runPostgres(_ url: PostgresStoreURL, output: Output) async throws {
        try global.checkOutputs([("--report", report)], storePath: nil)
        var isDirectory: ObjCBool = false
        var history: ModelHistory?
        if FileManager.default.fileExists(atPath: global.models, isDirectory: &isDirectory), isDirectory.boolValue {
            history = try ModelHistory.load(directory: global.models)
            for warning in history!.warnings { output.diagnostic(warning) }
        }
        let store = try await PostgresStore.open(url)
        let result: AuditResult
        do {
            var auditor = try await Auditor(store: store, history: history)
            auditor.variables = global.variableValues
            result = try await auditor.run(on: store, scope: entity.isEmpty ? .full : .entities(entity), maxSamples: maxSamples,
                                           lockTimeout: postgres.ddlLockTimeout)
            await store.close()
        } catch {
            await store.close()
            throw error
        }
        try emit(result, output: output)
    }
}
