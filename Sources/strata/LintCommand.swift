import ArgumentParser
import Strata

/// `strata lint`: checks model (and hook) files without a store.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check model and hook files without a store.")

    @OptionGroup var global: GlobalOptions

    struct Document: Encodable {
        var ok: Bool
        var versions: [Int]
        var hooks: Int
        var diagnostics: [JSONDiagnostic]
    }

    func run() async throws {
        var diagnostics: [Diagnostic] = []
        var versions: [Int] = []
        var hookCount = 0
        var refusals = 0
        do {
            let history = try ModelHistory.load(directory: global.models)
            versions = history.versions
            diagnostics += history.warnings
            let mapping = MappingInference.lintFindings(history.models)
            diagnostics += mapping.diagnostics
            refusals = mapping.refusals
            do {
                let hooks = try HookSet.load(directory: global.migrations, models: history, variables: global.variableValues)
                hookCount = hooks.hooks.count
                diagnostics += hooks.warnings
            } catch {
                diagnostics += error.diagnostics
            }
        } catch {
            diagnostics += error.diagnostics
        }
        for d in diagnostics { Output.diagnostic(d) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        Output.json(Document(ok: errors == 0, versions: versions, hooks: hookCount, diagnostics: diagnostics.map(JSONDiagnostic.init)))
        Output.result("\(global.models): \(versions.count) model version(s)\(versions.isEmpty ? "" : " (" + versions.map(String.init).joined(separator: ", ") + ")"), \(global.migrations): \(hookCount) hook(s), \(errors) error(s), \(warnings) warning(s)")
        // One condition, one exit code (SPEC §10): a step that cannot be inferred is 4, as in `diff` and
        // `migrate`. Invalid input comes first: it is 2 whenever any other error is found, since a step's
        // inferability means little while the files themselves are wrong.
        if errors > refusals { Output.setExitCode(.invalidInput) } else if errors > 0 { Output.setExitCode(.notInferable) }
    }
}
