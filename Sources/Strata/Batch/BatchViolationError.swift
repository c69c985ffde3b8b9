/// A batch broke the model's rules and was rolled back (`onViolation: rollback`): exit 3.
public struct BatchViolationError: StrataError, Sendable {
    /// The batch's result, with the audit that found the violations; nothing of it was committed.
    public var result: BatchResult

    public init(result: BatchResult) {
        self.result = result
    }

    public var exitCode: ExitStatus { .validationViolations }
    public var diagnostics: [Diagnostic] {
        let rules = result.audit?.violated.map { "  - \($0.code.rawValue) \($0.subject) \($0.rule): \($0.count)" } ?? []
        return [.error("the batch \(result.kind.rawValue) on \(result.entity) broke the model's rules (\(result.audit?.totalViolations ?? 0) violation(s)); it was rolled back\n"
                       + rules.joined(separator: "\n"),
                       hint: "fix the predicate or the values, or use onViolation: .warn to commit and report")]
    }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
