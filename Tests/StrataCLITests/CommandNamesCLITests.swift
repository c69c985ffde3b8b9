import ArgumentParser
import Testing
@testable import StrataCLI

/// Every command in `strata`'s tree names itself. ArgumentParser builds the whole tree on every run, and
/// derives a missing name from the type with `String(describing:)`, which costs the Swift runtime first-time
/// conformance lookups in every command (Docs/performance.md, "Where a small command's time goes").
@Suite struct CommandNamesCLITests {
    /// The command types under `root`, depth first, with the name each one's configuration gives.
    static func tree(_ root: ParsableCommand.Type, path: String = "") -> [(path: String, name: String?)] {
        let name = root.configuration.commandName
        let here = path.isEmpty ? (name ?? "?") : path + " " + (name ?? "?")
        return [(here, name)] + root.configuration.subcommands.flatMap { tree($0, path: here) }
    }

    @Test func everyCommandNamesItself() {
        let commands = Self.tree(StrataCommand.self)
        #expect(commands.filter { $0.name == nil }.map(\.path) == [])
        #expect(commands.map(\.path) == [
            "strata", "strata migrate", "strata status", "strata lint", "strata history", "strata meta",
            "strata meta get", "strata meta set", "strata meta list", "strata diff", "strata mapping",
            "strata batch", "strata batch update", "strata batch delete", "strata audit", "strata adopt",
            "strata repair", "strata import", "strata import coredata", "strata init",
        ])
    }
}
