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

/// A command that does work: it reads the global options and writes through the `Output` it is given.
protocol StrataSubcommand: AsyncParsableCommand {
    var global: GlobalOptions { get }
    func run(output: Output) async throws
}

extension StrataSubcommand {
    /// ArgumentParser's entry point, for callers other than `main`: the output its options ask for.
    func run() async throws { try await run(output: Output(global)) }
}

@main
enum StrataMain {
    static func main() async {
        SignalCleanup.install()   // SIGINT/SIGTERM remove a dry run's snapshot and temporary files, then exit 130/143
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Until the arguments parse, the output is what they ask for as far as a scan can tell,
        // so that an error in them is still one JSON document with `--format json`.
        var output = scannedOutput(arguments)
        do {
            var command = try StrataCommand.parseAsRoot(arguments)
            if let subcommand = command as? StrataSubcommand {
                output = Output(subcommand.global)
                try await subcommand.run(output: output)
            } else if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            output.flush()
            exit(output.exitCode.rawValue)
        } catch {
            output.fail(error)
        }
    }

    /// The output the arguments ask for, read without parsing them: `--format json` (or `--format=json`)
    /// and nothing else, looking no further than `--`.
    static func scannedOutput(_ arguments: [String]) -> Output {
        requestsJSON(arguments) ? Output(format: .json, color: .never, quiet: false) : Output(format: .text, color: .never, quiet: false)
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
