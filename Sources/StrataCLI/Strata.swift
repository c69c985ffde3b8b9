import ArgumentParser
import Foundation
import Strata

/// `strata`: schema migrations, batch operations and validation audits for SQLite stores.
///
/// An application builds its own `strata`, with its Swift stages registered, from a `main.swift` of one line:
/// `await StrataCommand.main(stages: stages)` (SPEC §11.2).
public struct StrataCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
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
            MappingCommand.self,
            BatchCommand.self,
            AuditCommand.self,
            AdoptCommand.self,
            RepairCommand.self,
            ImportCommand.self,
            InitCommand.self,
        ]
    )

    public init() {}

    /// Runs the command line with `stages` registered, then exits with the documented code.
    public static func main(stages: Stages) async -> Never {
        await StrataMain.main(stages: stages)
    }
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

enum StrataMain {
    /// The stages of the running binary: none for the stock `strata`.
    @TaskLocal static var stages = Stages()
    /// The models being loaded while the arguments parse, for the command to take (`ModelPrefetch`).
    @TaskLocal static var modelPrefetch: ModelPrefetch?

    static func main(stages: Stages) async -> Never {
        await $stages.withValue(stages) { await run() }
    }

    private static func run() async -> Never {
        // Before any connection: SQLite's memory count takes one process-wide mutex at each allocation,
        // which a fleet's workers queue on (250 stores v1 → v4, 4 interleaved runs, medians: --jobs 2 took
        // 3.18 s and 5.37 s of CPU with it, 2.63 s and 4.58 s without; --jobs 1 5.25 s and 5.07 s).
        SQLiteMemoryStatistics.disable()
        SignalCleanup.install()   // SIGINT/SIGTERM remove a dry run's snapshot and temporary files, then exit 130/143
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Until the arguments parse, the output is what they ask for as far as a scan can tell,
        // so that an error in them is still one JSON document with `--format json`.
        var output = scannedOutput(arguments)
        do {
            if let error = notUTF8Argument() ?? notUTF8Environment() { throw error }
            let prefetch = ModelPrefetch.start(arguments)
            var command = try StrataCommand.parseAsRoot(arguments)
            if let subcommand = command as? StrataSubcommand {
                output = Output(subcommand.global)
                try await $modelPrefetch.withValue(prefetch) { try await subcommand.run(output: output) }
            } else if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            output.flushAfterSuccess()
            SignalCleanup.waitIfTerminating()
            exit(output.exitCode.rawValue)
        } catch {
            output.fail(error)
        }
    }

    /// The first argument that is not UTF-8 text, as an error (exit 2) naming it with its bytes escaped.
    ///
    /// `CommandLine.arguments` repairs such bytes to U+FFFD, so `--store caf\xE9.sqlite` (a Latin-1 name) was
    /// `no store at 'caf�.sqlite'` although the file exists, and with `--create` made a store of another name.
    /// Every option (`--store`, `--models`, `--migrations`, `--backup`, `--report`, `--changes-out`, `--stores`,
    /// a predicate, a value) is read here from the raw `argv`, before any command parses it.
    static func notUTF8Argument() -> Diagnostic? {
        var previous: String?
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
            if let text = String(validating: bytes, as: UTF8.self) {
                previous = text
                continue
            }
            let after = previous.map { $0.hasPrefix("-") ? " (after \($0))" : "" } ?? ""
            return .error("the argument '\(PathText.escaped(bytes))'\(after) is not UTF-8 text",
                          hint: "Strata reads every argument as UTF-8 text: rename the file or folder to a UTF-8 name")
        }
        return nil
    }

    /// The first of Strata's environment variables that is set to bytes that are not UTF-8 text, as an error
    /// (exit 2): `ProcessInfo` repairs them to U+FFFD as it does arguments, so `STRATA_STORE=caf\xE9.sqlite` named
    /// `caf�.sqlite`, which `migrate --create` made beside the real store.
    static func notUTF8Environment() -> Diagnostic? {
        for name in ["STRATA_STORE", "STRATA_MODELS", "STRATA_MIGRATIONS"] {
            guard let pointer = getenv(name) else { continue }
            let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
            if String(validating: bytes, as: UTF8.self) != nil { continue }
            return .error("the environment variable \(name) ('\(PathText.escaped(bytes))') is not UTF-8 text",
                          hint: "Strata reads every path as UTF-8 text: rename the file or folder to a UTF-8 name")
        }
        return nil
    }

    /// The output the arguments ask for, read without parsing them: the last `--format`, `--color`
    /// (as `--name value` or `--name=value`) and `--quiet`, looking no further than `--`; a value
    /// that is not valid counts as absent. The defaults are the options' own.
    static func scannedOutput(_ arguments: [String]) -> Output {
        var format = OutputFormat.text
        var color = ColorMode.auto
        var quiet = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == "--quiet" { quiet = true }
            for name in ["--format", "--color"] {
                var value: String?
                if argument == name {
                    index += 1
                    value = index < arguments.count ? arguments[index] : nil
                } else if argument.hasPrefix(name + "=") {
                    value = String(argument.dropFirst(name.count + 1))
                }
                guard let value else { continue }
                if name == "--format" { format = OutputFormat(rawValue: value) ?? format } else { color = ColorMode(rawValue: value) ?? color }
            }
            index += 1
        }
        return Output(format: format, color: color, quiet: quiet)
    }
}
