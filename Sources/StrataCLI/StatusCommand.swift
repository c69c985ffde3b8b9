import ArgumentParser
import Strata

/// `strata status`: version, hashes, drift, pending versions and hooks.
struct StatusCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the store's version, hashes, drift and pending work.",
        discussion: "Exits 0 on a consistent store, 6 on drift; with --check, 7 when versions or hooks are pending.")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var fleet: FleetOptions

    @Flag(name: .customLong("check"), help: "Exit 7 when versions or hooks are pending (for pipelines).")
    var check = false

    @Option(name: .customLong("report-format"), help: "With --stores: report format for --report: text, json, junit, markdown or html.")
    var reportFormat: ReportFormat?

    @Option(name: .customLong("report"), help: ArgumentHelp("With --stores: write the summary to FILE.", valueName: "FILE"))
    var report: String?

    func validate() throws {
        try fleet.checkSingleStoreOptions(global, [])
        if !fleet.isFleet && (report != nil || reportFormat != nil) { throw ValidationError("--report and --report-format need --stores or --stores-from") }
    }

    func run(output: Output) async throws {
        if !fleet.isFleet, let url = try global.postgresStore() { return try await runPostgres(url, output: output) }
        let history = try global.loadModels(output)
        if fleet.isFleet {
            let hooks = try HookSet.load(directory: try global.hooksDirectory(), models: history, variables: global.variableValues)
            let stores = try await fleet.storeList()
            try fleet.checkReport(report, stores: stores, global: global)
            let summary = try statusFleet(fleet.runner(stores, global: global, output: output), history: history, hooks: hooks)
            return fleet.emit(summary, title: "Strata status (fleet)", report: report, format: reportFormat, output: output)
        }
        let path = try global.storePath()
        let store = try Store.open(path: path, readOnly: true)
        let hooks = try HookSet.load(directory: try global.hooksDirectory(), models: history, variables: global.variableValues)
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
        // `--check` reports the first condition that applies (SPEC §8), each with the code `migrate` gives it.
        let (code, diagnostics) = status.exitCode(check: check, history: history, hooks: hooks, layout: try store.metadata().layout,
                                                  stages: StrataMain.stages)
        for d in diagnostics { output.diagnostic(d) }
        if code != .success { output.setExitCode(code) }
    }
}
