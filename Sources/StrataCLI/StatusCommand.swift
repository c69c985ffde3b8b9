import ArgumentParser
import Strata

/// `strata status`: version, hashes, drift, pending versions and hooks.
struct StatusCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the store's version, hashes, drift and pending work.",
        discussion: "Exits 0 on a consistent store, 6 on drift; with --check, 7 when versions or hooks are pending.")

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Exit 7 when versions or hooks are pending (for pipelines).")
    var check = false

    func run(output: Output) async throws {
        let history = try global.loadModels(output)
        let path = try global.storePath()
        let store = try Store.open(path: path, readOnly: true)
        let hooks = try HookSet.load(directory: global.migrations, models: history, variables: global.variableValues)
        let status = try StoreStatus.read(store: store, history: history, hooks: hooks)
        output.json(status)
        let lateBefore = status.lateHooks.filter { hooks.hook(id: $0)?.timing == .before }
        let lateAfter = status.lateHooks.filter { !lateBefore.contains($0) }
        output.result("""
            store:    \(status.path)
            uuid:     \(status.storeUUID)
            version:  \(status.version) (latest model: \(status.latestVersion.map(String.init) ?? "none"); created at \(status.createdAtVersion))
            hash:     \(status.modelHash)
            drift:    \(status.drift.isEmpty ? "none" : "\(status.drift.count) item(s)")
            pending:  \(status.pendingVersions.isEmpty ? "no versions" : "versions " + status.pendingVersions.map(String.init).joined(separator: ", ")); \
            \(status.pendingHooks.isEmpty ? "no hooks" : "hooks " + status.pendingHooks.joined(separator: ", "))\
            \(lateAfter.isEmpty ? "" : "; late hooks " + lateAfter.joined(separator: ", ") + " (need --run-late-hooks)")\
            \(lateBefore.isEmpty ? "" : "; late before-hooks " + lateBefore.joined(separator: ", ") + " (never run: strata repair --skip ID)")
            """)
        for item in status.drift { output.result("  drift: \(item)") }
        // `--check` reports the first condition that applies (SPEC §8), each with the code `migrate` gives it:
        // drift or late hooks 6, a pending step that cannot be inferred 4, other pending work 7.
        if !status.drift.isEmpty {
            output.setExitCode(.drift)
        } else if check && !status.lateHooks.isEmpty {
            output.setExitCode(.drift)
        } else if check, let refusal = try refusal(history, status, layout: store.metadata().layout) {
            for d in refusal.diagnostics { output.diagnostic(d) }
            output.setExitCode(.notInferable)
        } else if check && status.hasPendingWork {
            // A declared Swift stage this binary does not register is work it cannot do (SPEC §11.2): named.
            let unregistered = StrataMain.stages.unregistered(in: status.pendingHooks.compactMap(hooks.hook(id:)))
            if !unregistered.isEmpty { for d in StageError.notRegistered(ids: unregistered).diagnostics { output.diagnostic(d) } }
            output.setExitCode(.pendingWork)
        }
    }

    /// Why the pending versions cannot be reached by inference, if they cannot (what `migrate` would refuse).
    func refusal(_ history: ModelHistory, _ status: StoreStatus, layout: StoreLayout) -> MappingError? {
        guard let latest = status.latestVersion, latest > status.version else { return nil }
        do {
            _ = try MappingInference.plan(models: history.models, from: status.version, to: latest, sourceLayout: layout, mappings: history.mappings,
                                           createdLayouts: history.createdLayouts)
            return nil
        } catch {
            return error
        }
    }
}
