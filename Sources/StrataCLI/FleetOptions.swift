import ArgumentParser
import Foundation
import Strata

/// `--stores GLOB` / `--stores-from FILE`, `--jobs N`, `--continue-on-error`: one command over many stores
/// (SPEC §14.1), for `migrate`, `status` and `audit`.
struct FleetOptions: ParsableArguments {
    @Option(name: .customLong("stores"), help: ArgumentHelp("Run on every store this glob matches (quote it; ** matches folders), or on the schemas a "
                                                      + "postgres://USER@HOST/DB?schema=GLOB URL matches.", valueName: "GLOB"))
    var stores: String?

    @Option(name: .customLong("stores-from"), help: ArgumentHelp("Run on the stores this file lists, one path a line (- reads stdin).", valueName: "FILE"))
    var storesFrom: String?

    // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
    @Option(name: .customLong("jobs"), parsing: .unconditional, help: ArgumentHelp("Stores run at once with --stores (default 1).", valueName: "N"))
    var jobsOption: Int?
    var jobs: Int { jobsOption ?? 1 }

    @Flag(name: .customLong("continue-on-error"), help: "With --stores: go on past a failed store (default: start no new store after the first failure).")
    var continueOnError = false

    /// The most stores run at once.
    static let maxJobs = 64

    func validate() throws {
        if stores != nil && storesFrom != nil { throw ValidationError("--stores and --stores-from cannot be used together; give one") }
        guard (1...Self.maxJobs).contains(jobs) else { throw ValidationError("--jobs must be from 1 to \(Self.maxJobs), got '\(jobs)'") }
        if !isFleet && jobs != 1 { throw ValidationError("--jobs needs --stores or --stores-from") }
        if !isFleet && continueOnError { throw ValidationError("--continue-on-error needs --stores or --stores-from") }
    }

    /// Whether the command runs over a fleet.
    var isFleet: Bool { stores != nil || storesFrom != nil }

    /// Refuses options that name one store alongside a fleet (exit 2).
    func checkSingleStoreOptions(_ global: GlobalOptions, _ options: [(name: String, given: Bool)]) throws {
        guard isFleet else { return }
        if global.store != nil { throw ValidationError("--store cannot be used with \(source); give one store or a fleet") }
        for option in options where option.given {
            throw ValidationError("\(option.name) cannot be used with \(source): it names one file for one store"
                                  + (option.name == "--backup" ? " (use --backup-dir DIR)" : ""))
        }
    }

    /// `--stores` or `--stores-from`, for messages.
    var source: String { stores != nil ? "--stores" : "--stores-from" }

    /// A runner over `stores` that prints each failed store's errors as it ends, draws stores done / total
    /// on a terminal, and notes lock waits.
    func runner(_ stores: [String], global: GlobalOptions, output: Output) -> Fleet {
        var fleet = Fleet(stores: stores, jobs: jobs)
        fleet.continueOnError = continueOnError
        let bar = global.noProgress || global.quiet ? nil : TerminalProgressBar.standardError()
        fleet.progressSink = bar
        fleet.onStoreEnd = { row, error, warnings in
            if row.failed || !warnings.isEmpty { bar?.clearLine() }
            for warning in warnings { output.diagnostic(.warning("\(row.path): \(warning)")) }
            guard row.failed, let code = row.exitCode else { return }
            output.diagnostic(.error("store '\(row.path)' (exit \(code.rawValue)): \(row.message ?? row.outcome.rawValue)"))
            for d in (error.map(CommandLineHints.diagnostics(for:)) ?? []).dropFirst() { output.diagnostic(d) }
        }
        fleet.onLockWait = { path, holder in GlobalOptions.lockWaitNote(path, output)(holder) }
        return fleet
    }

    /// Checks that `--report` names no file of any store of the fleet (nor a model or hook file): exit 2.
    func checkReport(_ report: String?, stores: [String], global: GlobalOptions) throws {
        guard let report else { return }
        try global.checkOutputs([("--report", report)], storePath: nil)
        for store in stores { try StorePath.checkOutput(report, option: "--report", storePath: store, protectedFiles: []) }
    }

    /// Prints the fleet's summary (text table, or the JSON document), writes `--report`, sets the exit code
    /// (the first in SPEC §14.1's order; failing to write the report never replaces it).
    func emit(_ fleet: FleetReport, title: String, report file: String?, format: ReportFormat?, quiet: Bool = false, output: Output) {
        let document = Report(title: title, fleet: fleet)
        if let file {
            let chosen = format ?? AuditCommand.format(forFile: file)
            do { try OutputFile.write(Data(document.render(as: chosen).utf8), to: file) } catch {
                output.diagnostic(.error("cannot write --report '\(file)': \(error.localizedDescription)",
                                         hint: "the run's result is above; check the directory exists and is writable"))
                output.setExitCode(fleet.exitCode == .success ? .runtimeFailure : fleet.exitCode)
            }
        }
        output.jsonText(document.render(as: .json))
        if !output.isJSON && !quiet {
            output.result(document.render(as: file == nil ? format ?? .text : .text).trimmingCharacters(in: .newlines))
        }
        output.setExitCode(fleet.exitCode)
    }
}
