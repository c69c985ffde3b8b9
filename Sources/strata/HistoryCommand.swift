import ArgumentParser
import Strata

/// `strata history`: applied migrations and hooks.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "List applied migrations and hooks.")

    @OptionGroup var global: GlobalOptions

    struct Document: Encodable {
        var migrations: [HistoryEntry]
        var hooks: [HookRecord]
    }

    func run() async throws {
        let store = try Store.open(path: try global.storePath(), readOnly: true)
        let (entries, hooks) = try store.wrap {
            try store.queue.read { db in
                guard try db.tableExists(StoreMetadata.table) else { throw StoreError.notAdopted(path: store.path) }
                return (try History.entries(db), try History.hooks(db))
            }
        }
        Output.json(Document(migrations: entries, hooks: hooks))
        for e in entries {
            let step = e.fromVersion.map { "\($0) → \(e.toVersion)" } ?? "at \(e.toVersion)"
            Output.result("\(e.finished)  \(e.kind.padding(toLength: 8, withPad: " ", startingAt: 0)) \(step)  (\(String(format: "%.3f", e.duration)) s, strata \(e.toolVersion))")
        }
        for h in hooks {
            Output.result("\(h.finished)  hook     \(h.id) after v\(h.afterVersion): \(h.status)\(h.status == "applied" ? ", \(h.rowsAffected) row(s)" : "")")
        }
    }
}
