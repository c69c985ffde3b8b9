import ArgumentParser
import Foundation
import Strata

/// `strata audit`: checks the model's validation rules against the store's data (SPEC §7).
struct AuditCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Audit the store's data against the model's validation rules.",
        discussion: """
            Exits 3 when a violation's code counts as a failure (--fail-on, default all codes), 0 otherwise.
            Without --report the report goes to stdout; with --report FILE it is written there (its format
            from --report-format, else from the file's extension) and stdout gets the text summary.
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var fleet: FleetOptions

    @OptionGroup var postgres: PostgresOptions

    @Option(name: .customLong("entity"), help: ArgumentHelp("Audit only this entity and its sub-entities (repeatable).", valueName: "entity"))
    var entity: [String] = []

    @Option(name: .customLong("report-format"), help: "Report format: text, json, junit, markdown or html.")
    var reportFormat: ReportFormat?

    @Option(name: .customLong("report"), help: ArgumentHelp("Write the report to this file.", valueName: "file"))
    var report: String?

    // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
    @Option(name: .customLong("max-samples"), parsing: .unconditional, help: "Sample objects kept per rule (counts are always exact). (default: \(OptionCheck.defaultMaxSamples))")
    var maxSamplesOption: Int?
    var maxSamples: Int { maxSamplesOption ?? OptionCheck.defaultMaxSamples }

    // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
    @Option(name: .customLong("fail-on"), help: ArgumentHelp("Codes that count as failures, comma-separated (e.g. 1570,1610), or 'all'. (default: all)", valueName: "codes"))
    var failOnOption: String?
    var failOn: String { failOnOption ?? "all" }

    mutating func validate() throws {
        try OptionCheck.maxSamples(maxSamples)
        _ = try failingCodes()
        try fleet.checkSingleStoreOptions(global, [])
    }

    /// The `--fail-on` codes, nil for all.
    func failingCodes() throws -> Set<AuditCode>? {
        let items = failOn.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if items.isEmpty || items == ["all"] { return nil }
        var codes: Set<AuditCode> = []
        for item in items {
            guard let number = Int(item), let code = AuditCode(rawValue: number) else {
                throw ValidationError("--fail-on: '\(item)' is not an audit code (codes: \(AuditCode.allCases.map(\.description).joined(separator: ", ")))")
            }
            codes.insert(code)
        }
        return codes
    }

    func run(output: Output) async throws {
        if fleet.isFleet { return try await runFleet(output: output) }
        if let url = try global.postgresStore() { return try await runPostgres(url, output: output) }
        let path = try global.storePath()
        try global.checkOutputs([("--report", report)], storePath: path)
        let store = try Store.open(path: path, readOnly: true)
        var auditor = try Auditor(store: store, modelsDirectory: global.models) { warnings in
            for warning in warnings { output.diagnostic(warning) }
        }
        auditor.variables = global.variableValues
        let scope: AuditScope = entity.isEmpty ? .full : .entities(entity)
        // A bar on a terminal: SQLite's progress handler estimates the rows the scans have visited.
        let progress = (global.noProgress ? nil : TerminalProgressBar.standardError()).map { ProgressCounter(label: "audit", total: nil, sink: $0) }
        let result = try auditor.run(on: store, scope: scope, maxSamples: maxSamples, progress: progress)
        try emit(result, output: output)
    }

    /// Writes the audit's report (stdout, or `--report FILE` plus the text summary) and sets exit 3 on failures;
    /// the same on every engine.
    func emit(_ result: AuditResult, output: Output) throws {
        let report = Report(title: "Strata audit", audit: result, failOn: try failingCodes())

        if let file = self.report {
            let format = reportFormat ?? Self.format(forFile: file)
            var written = true
            do {
                try OutputFile.write(Data(report.render(as: format).utf8), to: file, noWiderThan: global.storeFile)
            } catch {
                written = false
                // Printed; the exit code stays the audit's (3 on failures), else 1 (SPEC §10).
                output.diagnostic(.error("cannot write the report to '\(file)': \(error.localizedDescription)",
                                         hint: "check the directory exists and is writable"))
                if report.hasFailures { output.setExitCode(.validationViolations) }
                output.setExitCode(.runtimeFailure)
            }
            if output.isJSON {
                print(report.render(as: .json), terminator: "")
            } else {
                output.line(TextReport().render(report).trimmingCharacters(in: .newlines))
                if written { output.note("report written to \(file) (\(format.rawValue))") }
            }
        } else if output.isJSON {
            print(report.render(as: .json), terminator: "")
        } else {
            output.result(report.render(as: reportFormat ?? .text).trimmingCharacters(in: .newlines))
        }
        if report.hasFailures { output.setExitCode(.validationViolations) }
    }

    /// `--stores`: the model files loaded once, each store audited (`--jobs` at once); one summary of
    /// failing violations per store.
    func runFleet(output: Output) async throws {
        var isDirectory: ObjCBool = false
        var history: ModelHistory?
        if FileManager.default.fileExists(atPath: global.models, isDirectory: &isDirectory), isDirectory.boolValue {
            history = try ModelHistory.load(directory: global.models)
            for warning in history!.warnings { output.diagnostic(warning) }
        }
        let stores = try await fleet.storeList()
        try fleet.checkReport(report, stores: stores, global: global)
        let summary = try auditFleet(fleet.runner(stores, global: global, output: output), history: history)
        fleet.emit(summary, title: "Strata audit (fleet)", report: report, format: reportFormat, output: output)
    }

    /// The report format a file name suggests: .json, .xml (JUnit), .md, .html; else text.
    static func format(forFile file: String) -> ReportFormat {
        switch URL(fileURLWithPath: file).pathExtension.lowercased() {
        case "json": return .json
        case "xml": return .junit
        case "md", "markdown": return .markdown
        case "html", "htm": return .html
        default: return .text
        }
    }
}
