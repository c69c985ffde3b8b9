import ArgumentParser
import Foundation
import Strata

/// `strata`: schema migrations, batch operations and validation audits for SQLite stores.
struct StrataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Versioned models, inferred migrations, exactly-once post-migration hooks and validation audits for SQLite.",
        version: StrataVersion.current,
        subcommands: [
            MigrateCommand.self,
            StatusCommand.self,
            LintCommand.self,
            HistoryCommand.self,
            MetaCommand.self,
            DiffCommand.self,
            BatchCommand.self,
            AuditCommand.self,
            AdoptCommand.self,
            RepairCommand.self,
            ImportCommand.self,
        ]
    )
}

@main
enum StrataMain {
    static func main() async {
        SignalCleanup.install()   // SIGINT/SIGTERM remove a dry run's snapshot and temporary files, then exit 130/143
        // The format is configured in `GlobalOptions.validate()`, which never runs when parsing fails:
        // read it from argv first, so an error in the arguments is still one JSON document.
        if requestsJSON(Array(CommandLine.arguments.dropFirst())) { Output.configure(format: .json, color: .never, quiet: false) }
        do {
            var command = try StrataCommand.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Output.flush()
            exit(Output.exitCode.rawValue)
        } catch {
            Output.fail(error)
        }
    }

    /// Whether the arguments ask for `--format json` (or `--format=json`), looking no further than `--`.
    static func requestsJSON(_ arguments: [String]) -> Bool {
        var json = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == "--format" {
                index += 1
                if index < arguments.count { json = arguments[index] == "json" }
            } else if argument.hasPrefix("--format=") {
                json = argument.dropFirst("--format=".count) == "json"
            }
            index += 1
        }
        return json
    }
}
