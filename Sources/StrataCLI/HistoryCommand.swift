import ArgumentParser
import Strata

/// `strata history`: applied migrations and hooks.
struct HistoryCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "List applied migrations and hooks.")

    @OptionGroup var global: GlobalOptions

    struct Document: Encodable {
        var migrations: [HistoryEntry]
        var hooks: [HookRecord]
    }

    func run(output: Output) async throws {
        if let url = try global.postgresStore() { return try await runPostgres(url, output: output) }
        let store = try Store.open(path: try global.storePath(), readOnly: true)
        let (entries, hooks) = try store.history()
        Self.emit(entries, hooks, output: output)
    }

    /// The JSON document or the text timeline, the same for both engines.
    static func emit(_ entries: [HistoryEntry], _ hooks: [HookRecord], output: Output) {
        output.json(Document(migrations: entries, hooks: hooks))
        // One timeline: steps and hooks by the time they finished (timestamps are ISO 8601 UTC with
        // milliseconds, so they sort as text); ties by version, a step before the hooks that ran in it.
        var lines: [(finished: String, version: Int, order: Int, id: String, text: String)] = []
        for e in entries {
            let step = e.fromVersion.map { "\($0) → \(e.toVersion)" } ?? "at \(e.toVersion)"
            lines.append((e.finished, e.toVersion, 0, String(format: "%020lld", e.id),
                          "\(e.finished)  \(e.kind.padding(toLength: 8, withPad: " ", startingAt: 0)) \(step)  (\(String(format: "%.3f", e.duration)) s, strata \(e.toolVersion))"))
        }
        for h in hooks {
            lines.append((h.finished, h.afterVersion, 1, h.id,
                          "\(h.finished)  hook     \(h.id) \(h.timing.rawValue) v\(h.afterVersion): \(h.status)\(h.status == "applied" ? ", \(h.rowsAffected) row(s)" : "")"))
        }
        lines.sort { ($0.finished, $0.version, $0.order, $0.id) < ($1.finished, $1.version, $1.order, $1.id) }
        output.resultLines(lines.map(\.text))
    }
}
