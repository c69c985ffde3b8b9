import ArgumentParser
import Strata

/// `strata repair`: re-record the checksums of applied hooks whose files were edited.
struct RepairCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Accept edited hook files (after a person checked the edit): re-record their checksums.")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var locking: LockOptions

    struct Document: Encodable { var repaired: [HookState.EditedHook] }

    func run(output: Output) async throws {
        let models = try global.loadModels(output)
        let hooks = try HookSet.load(directory: global.migrations, models: models, variables: global.variableValues)
        let (store, lock) = try global.openLocked(lockTimeout: locking.lockTimeout, output: output)
        defer { lock.release() }
        let repaired = try HookState.repair(store, hooks: hooks)
        output.json(Document(repaired: repaired))
        if repaired.isEmpty { output.line("no edited hooks") }
        for hook in repaired { output.line("re-recorded \(hook.id): \(hook.recordedChecksum.prefix(12))… → \(hook.fileChecksum.prefix(12))…") }
    }
}
