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
        do {
            let history = try ModelHistory.load(directory: global.models)
            versions = history.versions
            diagnostics += history.warnings
            diagnostics += MappingInference.lint(history.models)
            do {
                hookCount = try HookSet.load(directory: global.migrations, models: history, variables: global.variableValues).hooks.count
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
        if errors > 0 { Output.setExitCode(.invalidInput) }
    }
}
