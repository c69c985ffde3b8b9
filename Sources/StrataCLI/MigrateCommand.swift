import ArgumentParser
import Foundation
import Strata

/// `strata migrate`: brings the store to the target version (creating it with --create), running
/// pending hooks inside their version step's transaction and auditing what they touched.
struct MigrateCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate the store to the target version (default: the newest), running pending hooks.",
        discussion: """
            Exit codes: 0 done (or nothing to do), 2 invalid input, 3 violations (rolled back), 4 not inferable, \
            5 store busy, 6 drift or late hooks.
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var fleet: FleetOptions

    @Option(name: .customLong("to"), help: "Target model version (default: the newest).")
    var to: Int?

    @Flag(name: .customLong("create"), help: "Create the store at the target version when it does not exist.")
    var create = false

    @Flag(name: .customLong("dry-run"), help: "Run everything on a private snapshot and report exact counts; never write the store.")
    var dryRun = false

    @Option(name: .customLong("backup"), help: ArgumentHelp("Write a consistent copy of the store here before the first change.", valueName: "PATH"))
    var backup: String?

    @Option(name: .customLong("backup-dir"), help: ArgumentHelp("With --stores: write each store's backup into DIR before its first change.", valueName: "DIR"))
    var backupDir: String?

    @Flag(name: .customLong("force"), help: "Overwrite an existing --backup file (with --backup-dir, existing backups).")
    var force = false

    // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
    @Option(name: .customLong("audit"), help: "What the audit after each hook checks: touched, full or none (default: touched).")
    var auditOption: AuditMode?
    var audit: AuditMode { auditOption ?? .touched }

    // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
    @Option(name: .customLong("lock-timeout"), parsing: .unconditional, help: LockOptions.help)
    var lockTimeoutOption: Double?
    var lockTimeout: Double { lockTimeoutOption ?? LockOptions.defaultTimeout }

    @Option(name: .customLong("changes-out"), help: ArgumentHelp("Write the change set (object IDs per entity) as JSON.", valueName: "FILE"))
    var changesOut: String?

    @Option(name: .customLong("now"), parsing: .unconditional,   // a date before year 0 starts with `-`
            help: ArgumentHelp("Pin $NOW (ISO 8601), so a dry run and the real run match the same rows.", valueName: "ISO8601"))
    var now: String?

    @Flag(name: .customLong("run-late-hooks"), help: "Run hooks whose version the store passed before they appeared.")
    var runLateHooks = false

    @Option(name: .customLong("report-format"), help: "Report format for --report: text, json, junit, markdown or html.")
    var reportFormat: ReportFormat?

    @Option(name: .customLong("report"), help: ArgumentHelp("Write the report (plan, hooks, audits) to FILE.", valueName: "FILE"))
    var report: String?

    // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
    @Option(name: .customLong("max-samples"), parsing: .unconditional, help: "Samples per violated rule in audits. (default: \(OptionCheck.defaultMaxSamples))")
    var maxSamplesOption: Int?
    var maxSamples: Int { maxSamplesOption ?? OptionCheck.defaultMaxSamples }

    @OptionGroup var postgres: PostgresOptions

    @Flag(name: .customLong("skip-integrity-check"), help: "Skip the PRAGMA quick_check preflight (it reads the whole store; steps like ADD COLUMN are O(1) without it).")
    var skipIntegrityCheck = false

    func validate() throws {
        if let now, DateText.parse(now) == nil { throw ValidationError("--now expects an ISO 8601 date, got '\(now)'") }
        try OptionCheck.lockTimeout(lockTimeout)
        try OptionCheck.maxSamples(maxSamples)
        try fleet.checkSingleStoreOptions(global, [("--backup", backup != nil), ("--changes-out", changesOut != nil)])
        if backupDir != nil && !fleet.isFleet { throw ValidationError("--backup-dir needs --stores or --stores-from (one store takes --backup PATH)") }
        try checkPostgresGlob()
    }

    func run(output: Output) async throws {
        if fleet.isFleet { return try await runFleet(output: output) }
        if let url = try global.postgresStore() { return try await runPostgres(url, output: output) }
        let path = try global.storePath()
        try global.checkOutputs([("--report", report), ("--changes-out", changesOut), ("--backup", backup)], storePath: path)
        let models = try global.loadModels(output)
        let hooks = try HookSet.load(directory: try global.hooksDirectory(), models: models, variables: global.variableValues)
        var options = runOptions()
        options.collectObjectIDs = changesOut != nil
        options.backupPath = backup
        options.onLockWait = GlobalOptions.lockWaitNote(path, output)
        options.progressSink = global.noProgress ? nil : TerminalProgressBar.standardError()
        let result: MigrationRunReport
        do {
            result = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
        } catch let error as MigrationRunError {
            // The run's own outcome decides the exit code: failing to write its report or change set
            // is printed, never put in its place (SPEC §10).
            do { try emit(error.report, failure: error, output: output) } catch { for d in (error as? StrataError)?.diagnostics ?? [.error("\(error)")] { output.diagnostic(d) } }
            output.fail(error.underlying)
        }
        try emit(result, output: output)
        if result.warnedViolations > 0 { output.note("warning: \(result.warnedViolations) violation(s) committed under `onViolation: warn`") }
    }

    /// One store's run options from the command line (no backup, change set, lock note or progress yet).
    func runOptions() -> MigrationRun.Options {
        var options = MigrationRun.Options(now: now.flatMap(DateText.parse) ?? Date().timeIntervalSince1970)
        options.target = to
        options.create = create
        options.dryRun = dryRun
        options.audit = audit
        options.maxSamples = maxSamples
        options.variables = global.variableValues
        options.runLateHooks = runLateHooks
        options.forceBackup = force
        options.lockTimeout = lockTimeout
        options.checkIntegrity = !skipIntegrityCheck
        options.stages = StrataMain.stages
        return options
    }

    /// `--stores`: models, hooks and mapping files loaded and checked once, then each store migrated
    /// (`--jobs` at once); one summary.
    func runFleet(output: Output) async throws {
        if fleet.isPostgresGlob && backupDir != nil { throw Self.postgresBackupRefused }   // before connecting
        let models = try global.loadModels(output)
        let hooks = try HookSet.load(directory: try global.hooksDirectory(), models: models, variables: global.variableValues)
        let stores = try await fleet.storeList(excluding: backupDir.map { [$0] } ?? [])
        try fleet.checkReport(report, stores: stores, global: global)
        let summary = try migrateFleet(fleet.runner(stores, global: global, output: output), models: models, hooks: hooks)
        fleet.emit(summary, title: dryRun ? "Strata migrate (fleet, dry run)" : "Strata migrate (fleet)", report: report,
                   format: reportFormat, quiet: output.isQuiet, output: output)
    }

    /// Prints the report (text or JSON), writes --report and --changes-out; a run that stopped passes the error
    /// that stopped it, which the report carries (JSON's `error`).
    func emit(_ result: MigrationRunReport, failure: MigrationRunError? = nil, output: Output) throws {
        if output.isJSON || output.isQuiet { for warning in result.warnings { output.diagnostic(.warning(warning)) } }
        let document = Report(title: dryRun ? "Strata migrate (dry run)" : "Strata migrate", migration: result,
                              failure: failure.map { Output.failure(for: $0.underlying) })
        if let file = report {
            let format = reportFormat ?? ReportFormat.allCases.first { file.hasSuffix("." + $0.fileExtension) } ?? .text
            do { try OutputFile.write(Data(document.render(as: format).utf8), to: file, noWiderThan: global.storeFile) } catch {
                // Printed, and exit 1 only when the run itself succeeded: a failed report never hides 3, 4, 5 or 6.
                output.diagnostic(.error("cannot write --report '\(file)': \(error.localizedDescription)",
                                         hint: "the run's result is above; check the directory exists and is writable"))
                output.setExitCode(.runtimeFailure)
            }
        }
        // A dry run writes the change set it made on the snapshot: what the real run would change (it left an
        // older file as it was, exit 0, so an app read a stale set).
        if let changesOut { try result.changes.write(toFile: changesOut, noWiderThan: global.storeFile) }
        output.jsonText(document.render(as: .json))
        if output.isJSON { return }
        if !output.isQuiet { print(document.render(as: .text), terminator: "") }
    }
}
