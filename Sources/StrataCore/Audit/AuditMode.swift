/// Which rows the audit after a hook (or an ad-hoc batch) checks (SPEC §8 `--audit`).
public enum AuditMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The rows the hook changed, plus the entity-wide rules of the entities it touched (the default).
    case touched
    /// Every rule over the whole store.
    case full
    /// No audit (benchmarks against bare SQL; the audit's cost is reported separately).
    case none
}
