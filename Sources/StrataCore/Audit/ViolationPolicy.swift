/// What a hook does when the audit after its steps finds violations (SPEC §5).
public enum ViolationPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Undo the hook and its version step, stop the run, exit 3 (the default).
    case rollback
    /// Commit, report the violations, exit 0.
    case warn
}
