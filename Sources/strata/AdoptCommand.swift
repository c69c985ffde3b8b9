import ArgumentParser
import Strata

/// `strata adopt --version N`: baseline an existing SQLite file that has no Strata metadata.
struct AdoptCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "adopt",
        abstract: "Record Strata metadata in an existing database whose schema is version N's layout.",
        discussion: "Exits 6 with the differences when the live schema is not version N's layout.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "The model version the database's schema already has.")
    var version: Int

    @OptionGroup var locking: LockOptions

    struct Document: Encodable { var store: String; var version: Int; var storeUUID: String }

    func run(output: Output) async throws {
        let models = try global.loadModels(output)
        guard let model = models.model(version: version) else {
            throw Diagnostic.error("--version \(version): there is no model version \(version)",
                                   hint: "versions: \(models.versions.map(String.init).joined(separator: ", "))")
        }
        let hooks = try HookSet.load(directory: global.migrations, models: models, variables: global.variableValues)
        let path = try global.storePath()
        let (store, lock) = try global.openLocked(lockTimeout: locking.lockTimeout, output: output)
        defer { lock.release() }
        let metadata = try StoreAdoption.adopt(store, model: model, hooks: hooks)
        output.json(Document(store: path, version: version, storeUUID: metadata.storeUUID))
        output.line("adopted \(path) at version \(version) (store \(metadata.storeUUID))")
    }
}

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
