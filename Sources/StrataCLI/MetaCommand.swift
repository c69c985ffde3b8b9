import ArgumentParser
import Strata

/// `strata meta get|set|list`: store metadata.
struct MetaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meta", abstract: "Read and write store metadata.",
        subcommands: [Get.self, Set.self, List.self])

    struct Get: StrataSubcommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Print one key's value (user keys and strata.* keys).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The key.") var key: String

        struct Document: Encodable { var key: String; var value: String }

        func run(output: Output) async throws {
            if let url = try global.postgresStore() { return try await runPostgres(url, output: output) }
            let store = try Store.open(path: try global.storePath(), readOnly: true)
            _ = try store.metadata()
            try Self.emit(key: key, value: try store.metadataValue(forKey: key), output: output)
        }

        /// The value, or exit 2 for a key the store does not have (both engines).
        static func emit(key: String, value: String?, output: Output) throws {
            guard let value else {
                throw Diagnostic.error("no metadata key '\(key)'", hint: "`strata meta list` shows the keys")
            }
            output.json(Document(key: key, value: value))
            output.result(value)
        }
    }

    struct Set: StrataSubcommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Set a user key.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The key (not starting with 'strata.').") var key: String
        @Argument(help: "The value.") var value: String
        @OptionGroup var locking: LockOptions
        @OptionGroup var postgres: PostgresOptions

        struct Document: Encodable { var key: String; var value: String }

        func run(output: Output) async throws {
            if let url = try global.postgresStore() { return try await runPostgres(url, output: output) }
            let (store, lock) = try global.openLocked(lockTimeout: locking.lockTimeout, output: output)
            defer { lock.release() }
            _ = try store.metadata()
            try store.setUserMetadata(value, forKey: key)
            output.json(Document(key: key, value: value))
            output.line("\(key) = \(value)")
        }
    }

    struct List: StrataSubcommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the store's metadata (user keys and Strata's summary keys).")
        @OptionGroup var global: GlobalOptions

        struct Document: Encodable { var system: [String: String]; var user: [String: String] }

        func run(output: Output) async throws {
            if let url = try global.postgresStore() { return try await runPostgres(url, output: output) }
            let store = try Store.open(path: try global.storePath(), readOnly: true)
            Self.emit(try store.metadata(), user: try store.userMetadata(), output: output)
        }

        /// Strata's summary keys and the user keys, the same for both engines.
        static func emit(_ metadata: StoreMetadata, user: [(key: String, value: String)], output: Output) {
            let system = [
                "strata.uuid": metadata.storeUUID, "strata.version": String(metadata.version),
                "strata.modelHash": metadata.modelHash, "strata.createdAtVersion": String(metadata.createdAtVersion),
            ]
            output.json(Document(system: system, user: Dictionary(user.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })))
            for (k, v) in system.sorted(by: { $0.key < $1.key }) { output.result("\(k) = \(v)") }
            for (k, v) in user { output.result("\(k) = \(v)") }
        }
    }
}
