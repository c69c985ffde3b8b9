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
}
