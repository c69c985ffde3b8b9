import Yams

/// What a hook does when the audit after its steps finds violations (SPEC §5).
public enum ViolationPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Undo the hook and its version step, stop the run, exit 3 (the default).
    case rollback
    /// Commit, report the violations, exit 0.
    case warn
}

extension YAMLReader {
    /// An `onViolation:` value (hook and mapping files), or nil with the error recorded at `node`.
    mutating func violationPolicy(_ node: Node) -> ViolationPolicy? {
        guard let text = string(node, what: "onViolation") else { return nil }
        guard let policy = ViolationPolicy(rawValue: text) else {
            error("unknown onViolation '\(text)'", at: node,
                  hint: NameSuggestion.hint(for: text, in: ViolationPolicy.allCases.map(\.rawValue)) ?? "use rollback or warn")
            return nil
        }
        return policy
    }
}
