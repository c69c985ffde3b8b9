import Foundation

/// A hook's audit found violations and its policy is `rollback`: exit 3, the hook and its version
/// step are rolled back, and the run stops.
public struct HookViolationError: StrataError, Sendable {
    public var result: HookRunResult

    public init(result: HookRunResult) {
        self.result = result
    }

    public var exitCode: ExitStatus { .validationViolations }
    public var diagnostics: [Diagnostic] {
        let rules = result.audit?.violated.map { "  - \($0.code.rawValue) \($0.subject) \($0.rule): \($0.count)" } ?? []
        return [Diagnostic(.error, "hook '\(result.id)' broke the model's rules (\(result.violationCount) violation(s)); it was rolled back with its version step\n"
                           + rules.joined(separator: "\n"),
                           at: SourceLocation(file: result.file, line: 1, column: 1),
                           hint: "fix the hook or the data, or set `onViolation: warn` to commit and report")]
    }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
