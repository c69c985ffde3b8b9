import Strata
import StrataPostgres

extension StatusCommand {
    /// `strata status` on a PostgreSQL store: version, hash, drift, pending versions and hooks (Docs/postgresql.md).
    /// `--check` gives the codes it gives on SQLite: 6 for drift or late hooks, 4 for a pending step that
    /// cannot be inferred, 7 for other pending work.
    func runPostgres(_ url: PostgresStoreURL, output: Output) async throws {
        let history = try global.loadModels(output)
        let hooks = try HookSet.load(directory: try global.hooksDirectory(), models: history, variables: global.variableValues)
        let status = try await PostgresStatus.read(url, models: history, hooks: hooks)
        output.json(status)
        let lateBefore = status.lateHooks.filter { hooks.hook(id: $0)?.timing == .before }
        let lateAfter = status.lateHooks.filter { !lateBefore.contains($0) }
        output.result("""
            store:    \(status.store)
            uuid:     \(status.storeUUID)
            version:  \(status.version) (latest model: \(status.latestVersion.map(String.init) ?? "none"); created at \(status.createdAtVersion))
            hash:     \(status.modelHash)\(status.hashMatches ? "" : " (differs from the model file: drift)")
            drift:    \(status.drift.isEmpty ? "none" : "\(status.drift.count) item(s)")
            pending:  \(status.pendingVersions.isEmpty ? "no versions" : "versions " + status.pendingVersions.map(String.init).joined(separator: ", ")); \
            \(status.pendingHooks.isEmpty ? "no hooks" : "hooks " + status.pendingHooks.joined(separator: ", "))\
            \(lateAfter.isEmpty ? "" : "; late hooks " + lateAfter.joined(separator: ", ") + " (need --run-late-hooks)")\
            \(lateBefore.isEmpty ? "" : "; late before-hooks " + lateBefore.joined(separator: ", ") + " (never run: strata repair --skip ID)")
            """)
        for item in status.drift { output.result("  drift: \(item)") }
        // `--check` reports the first condition that applies (SPEC §8), with the codes it has on SQLite.
        let (code, diagnostics) = status.exitCode(check: check, history: history, hooks: hooks, stages: StrataMain.stages)
        for d in diagnostics { output.diagnostic(d) }
        if code != .success { output.setExitCode(code) }
    }
}
