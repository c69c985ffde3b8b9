import ArgumentParser
import Strata
import StrataPostgres

/// `strata lint`: checks model (and hook) files without a store.
struct LintCommand: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check model and hook files without a store.")

    @OptionGroup var global: GlobalOptions
    // No default in the declaration, the help says it (NamedOptionValue.swift, "Option defaults").
    @Option(name: .customLong("engine"), help: "Also warn about what a store of this engine would refuse: sqlite (default) or postgresql.")
    var engineOption: SQLDialect?
    var engine: SQLDialect { engineOption ?? .sqlite }

    struct Document: Encodable {
        var ok: Bool
        var versions: [Int]
        var hooks: Int
        var diagnostics: [JSONDiagnostic]
        /// Declared Swift stages this binary does not register (not an error: the application's own `strata` runs them).
        var unregisteredStages: [String]
    }

    /// What `lint` finds: the versions and hooks read, and every diagnostic. `refusals` counts the errors that are
    /// changes inference cannot make; `stepRefusals` are those errors (located in the destination version's file,
    /// found through `files`).
    struct Outcome {
        var versions: [Int] = []
        var hooks = 0
        var diagnostics: [Diagnostic] = []
        var refusals = 0
        var stepRefusals: [Diagnostic] = []
        var files: [String: Int] = [:]
        /// Declared Swift stages (`swift: true`) that the binary does not register, with their files.
        var unregisteredStages: [(id: String, file: String)] = []
    }

    /// The lint of a models and a migrations directory (also run by `strata import coredata`).
    static func lint(models: String, migrations: String, variables: [String: String], stages: Stages = Stages(),
                     engine: SQLDialect = .sqlite) -> Outcome {
        var outcome = Outcome()
        do {
            let history = try CommandLineHints.loadModels(directory: models)
            outcome.versions = history.versions
            outcome.files = Dictionary(history.models.map { ($0.file, $0.version) }, uniquingKeysWith: { a, _ in a })
            outcome.diagnostics += history.warnings
            var mappings: [Int: MappingFile] = [:]
            var mappingErrors: [Diagnostic] = []
            do { mappings = try MappingFileSet.load(directory: migrations, models: history, variables: variables) } catch { mappingErrors = error.diagnostics }
            var mapping = MappingInference.lintFindings(history.models, mappings: mappings, createdLayouts: history.createdLayouts,
                                                         variables: variables)
            if !mappingErrors.isEmpty {
                // A step's inferability means little while its mapping file is wrong: report the file only.
                mapping = (mapping.diagnostics.filter { $0.severity != .error }, 0)
                outcome.diagnostics += mappingErrors
            }
            outcome.diagnostics += mapping.diagnostics
            outcome.refusals = mapping.refusals
            outcome.stepRefusals = mapping.diagnostics.filter { $0.severity == .error }
            // The files that are right are checked on (their `sql:` against SQLite) while another file has
            // errors, so one lint finds every bad file.
            let (hooks, found) = HookSet.loadEach(directory: migrations, models: history, variables: variables)
            outcome.diagnostics += found
            if !found.contains(where: { $0.severity == .error }) {
                outcome.hooks = hooks.hooks.count
                outcome.diagnostics += stages.check(against: hooks)
                let unregistered = Set(stages.unregistered(in: hooks.hooks))
                outcome.unregisteredStages = hooks.hooks.filter { unregistered.contains($0.id) }.map { ($0.id, $0.file) }
            }
            outcome.diagnostics += SQLPreCheck.lint(hooks, models: history, variables: variables)
            if engine == .postgresql { outcome.diagnostics += PostgresLint.warnings(for: hooks, models: history, variables: variables) }
        } catch {
            outcome.diagnostics += error.diagnostics
        }
        return outcome
    }

    func run(output: Output) async throws {
        let outcome = Self.lint(models: global.models, migrations: try global.hooksDirectory(), variables: global.variableValues,
                                stages: StrataMain.stages, engine: engine)
        let (diagnostics, versions, hookCount) = (outcome.diagnostics, outcome.versions, outcome.hooks)
        for d in diagnostics { output.diagnostic(d) }
        for stage in outcome.unregisteredStages {
            // Not an error: the application's own `strata` (StrataCLI with its stages) runs it.
            output.note("note: \(stage.file) declares Swift stage '\(stage.id)', which this binary does not register; "
                        + "its declaration is checked, its code is not (run the application's own `strata` to lint and run it)")
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        output.json(Document(ok: errors == 0, versions: versions, hooks: hookCount, diagnostics: diagnostics.map(JSONDiagnostic.init),
                             unregisteredStages: outcome.unregisteredStages.map(\.id)))
        output.result("\(global.models): \(versions.count) model version(s)\(versions.isEmpty ? "" : " (" + versions.map(String.init).joined(separator: ", ") + ")"), \(global.migrations): \(hookCount) hook(s), \(errors) error(s), \(warnings) warning(s)")
        // One condition, one exit code (SPEC §10): a step that cannot be inferred is 4, as in `diff` and
        // `migrate`. Invalid input comes first: it is 2 whenever any other error is found, since a step's
        // inferability means little while the files themselves are wrong.
        if errors > outcome.refusals { output.setExitCode(.invalidInput) } else if errors > 0 { output.setExitCode(.notInferable) }
    }
}
