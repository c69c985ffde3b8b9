import ArgumentParser
import Strata

/// `strata repair`: re-record the checksums of applied hooks whose files were edited.
struct RepairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Accept edited hook files (after a person checked the edit): re-record their checksums.")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var locking: LockOptions

    struct Document: Encodable { var repaired: [HookState.EditedHook] }

    func run() async throws {
        let models = try global.loadModels()
        let hooks = try HookSet.load(directory: global.migrations, models: models, variables: global.variableValues)
        let (store, lock) = try global.openLocked(lockTimeout: locking.lockTimeout)
        defer { lock.release() }
        let repaired = try HookState.repair(store, hooks: hooks)
        Output.json(Document(repaired: repaired))
        if repaired.isEmpty { Output.line("no edited hooks") }
        for hook in repaired { Output.line("re-recorded \(hook.id): \(hook.recordedChecksum.prefix(12))… → \(hook.fileChecksum.prefix(12))…") }
    }
}
