import ArgumentParser
import Strata

/// `strata adopt --version N`: baseline an existing SQLite file (or PostgreSQL schema) that has no Strata metadata.
struct AdoptCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "adopt",
        abstract: "Record Strata metadata in an existing database (or PostgreSQL schema) whose tables are version N's layout.",
        discussion: "Exits 6 with the differences when the live schema is not version N's layout.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("version"), help: "The model version the database's schema already has.")
    var version: Int

    @OptionGroup var locking: LockOptions

    @OptionGroup var postgres: PostgresOptions

    struct Document: Encodable { var store: String; var version: Int; var storeUUID: String }

    func run(output: Output) async throws {
        let models = try global.loadModels(output)
        guard let model = models.model(version: version) else {
            throw Diagnostic.error("--version \(version): there is no model version \(version)",
                                   hint: "versions: \(models.versions.map(String.init).joined(separator: ", "))")
        }
        let hooks = try HookSet.load(directory: try global.hooksDirectory(), models: models, variables: global.variableValues)
        if let url = try global.postgresStore() { return try await runPostgres(url, model: model, hooks: hooks, output: output) }
        let path = try global.storePath()
        let (store, lock) = try global.openLocked(lockTimeout: locking.lockTimeout, output: output)
        defer { lock.release() }
        let metadata = try StoreAdoption.adopt(store, model: model, hooks: hooks)
        output.json(Document(store: path, version: version, storeUUID: metadata.storeUUID))
        output.line("adopted \(path) at version \(version) (store \(metadata.storeUUID))")
    }
}
