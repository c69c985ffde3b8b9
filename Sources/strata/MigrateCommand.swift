import ArgumentParser
import Foundation
import Strata

/// `strata migrate`: brings the store to the target version (creating it with --create).
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate the store to the target version (default: the newest), running pending hooks.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Target model version (default: the newest).")
    var to: Int?

    @Flag(name: .long, help: "Create the store at the target version when it does not exist.")
    var create = false

    struct Document: Encodable {
        var store: String
        var created: Bool
        var fromVersion: Int?
        var toVersion: Int
        var storeUUID: String
    }

    func run() async throws {
        let history = try global.loadModels()
        let path = try global.storePath()
        guard let latest = history.latest else { throw Diagnostic.error("no model versions") }
        let target = to ?? latest.version
        guard let targetModel = history.model(version: target) else {
            throw Diagnostic.error("--to \(target): there is no model version \(target)",
                                   hint: "versions: \(history.versions.map(String.init).joined(separator: ", "))")
        }
        if !FileManager.default.fileExists(atPath: path) {
            guard create else { throw StoreError.missing(path: path) }
            let store = try StoreCreator.create(at: path, model: targetModel)
            let metadata = try store.metadata()
            Output.json(Document(store: path, created: true, fromVersion: nil, toVersion: target, storeUUID: metadata.storeUUID))
            Output.line("created \(path) at version \(target) (store \(metadata.storeUUID))")
            return
        }
        let store = try Store.open(path: path)
        let metadata = try store.metadata()
        if target < metadata.version {
            throw Diagnostic.error("--to \(target) is below the store's version \(metadata.version)",
                                   hint: "Strata migrates forward only; restore a backup to go back")
        }
        let drift = StoreStatus.hashDrift(metadata, history: history)
        if !drift.isEmpty { throw DriftError(path: path, items: drift) }
        if target == metadata.version {
            Output.json(Document(store: path, created: false, fromVersion: metadata.version, toVersion: target, storeUUID: metadata.storeUUID))
            Output.line("\(path) is at version \(target): nothing to do")
            return
        }
        let result = try Migrator.migrate(store, history: history, options: MigrationOptions(target: target))
        for run in result.steps {
            for warning in run.warnings { Output.diagnostic(.warning(warning)) }
            let actions = run.step.tableActions.map { "\($0.kind.rawValue) \($0.table)" }
            Output.line("v\(run.step.fromVersion) → v\(run.step.toVersion): \(actions.isEmpty ? "metadata only" : actions.joined(separator: ", ")) (\(String(format: "%.3f", run.duration)) s)")
        }
        Output.json(Document(store: path, created: false, fromVersion: result.fromVersion, toVersion: result.toVersion, storeUUID: metadata.storeUUID))
        Output.line("migrated \(path) from version \(result.fromVersion) to \(result.toVersion)")
    }
}
