import ArgumentParser
import Strata

/// `strata repair`: re-record the checksums of applied hooks whose files were edited; with `--skip ID`, record
/// late hooks as skipped.
struct RepairCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Accept edited hook files (after a person checked the edit): re-record their checksums.",
        discussion: "With --skip ID, record a late hook (its version passed before it appeared) as skipped instead; it never runs.")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var locking: LockOptions

    @OptionGroup var postgres: PostgresOptions

    @Option(name: .customLong("skip"), help: ArgumentHelp("Record this late hook as skipped (repeatable); a late before-hook can never run.", valueName: "ID"))
    var skip: [String] = []

    struct Document: Encodable { var repaired: [HookState.EditedHook]; var mappings: [String] }
    struct SkipDocument: Encodable { var skipped: [String] }

    func run(output: Output) async throws {
        let models = try global.loadModels(output)
        let hooks = try HookSet.load(directory: try global.hooksDirectory(), models: models, variables: global.variableValues)
        if let url = try global.postgresStore() { return try await runPostgres(url, models: models, hooks: hooks, output: output) }
        let (store, lock) = try global.openLocked(lockTimeout: locking.lockTimeout, output: output)
        defer { lock.release() }
        if !skip.isEmpty {
            let skipped = try HookState.skip(skip, store: store, hooks: hooks)
            output.json(SkipDocument(skipped: skipped))
            for id in skipped { output.line("recorded \(id) as skipped: it will never run on this store") }
            return
        }
        let repaired = try HookState.repair(store, hooks: hooks)
        let mappings = try MappingState.repair(store, mappings: models.mappings)
        output.json(Document(repaired: repaired, mappings: mappings))
        if repaired.isEmpty && mappings.isEmpty { output.line("no edited hooks") }
        for file in mappings { output.line("re-recorded mapping file \(file)") }
        for hook in repaired { output.line("re-recorded \(hook.id): \(hook.recordedChecksum.prefix(12))… → \(hook.fileChecksum.prefix(12))…") }
    }
}
