import Foundation

/// Errors of a migration run, each with its exit code.
public enum MigrationError: StrataError, Sendable {
    /// `--to` below the store's version.
    case targetBelowCurrent(current: Int, target: Int)
    /// A target version with no model file.
    case unknownVersion(Int, available: [Int])
    /// Data the step needs is not there (exit 3); nothing was changed.
    case violations(fromVersion: Int, toVersion: Int, [MigrationViolation])
    /// `PRAGMA foreign_key_check` found rows after a rebuild (exit 3); the step was rolled back.
    case foreignKeyViolations(fromVersion: Int, toVersion: Int, [ForeignKeyViolation])
    /// A unique index the user added to a rebuilt table no longer holds for the rows the step wrote
    /// (exit 3); the step was rolled back, the index kept.
    case userIndexViolated(fromVersion: Int, toVersion: Int, index: String, detail: String)
    /// The store differs from what its recorded version should be (exit 6).
    case drift(DriftReport)
    /// Foreign keys could not be turned off for a rebuild (exit 1).
    case foreignKeysStillOn
    /// Foreign keys could not be turned back on after a rebuild (exit 1); the step had committed, the
    /// connection is not used again.
    case foreignKeysNotRestored(detail: String)
    /// Another run moved the store to a version this run did not plan for while it waited (exit 1);
    /// nothing was written by this step.
    case storeChanged(expected: Int, found: Int)

    public struct ForeignKeyViolation: Hashable, Sendable, Codable {
        public var table: String
        public var rowid: Int64?
        public var parent: String
    }

    public var exitCode: ExitStatus {
        switch self {
        case .targetBelowCurrent, .unknownVersion: return .invalidInput
        case .violations, .foreignKeyViolations, .userIndexViolated: return .validationViolations
        case .drift: return .drift
        case .foreignKeysStillOn, .foreignKeysNotRestored, .storeChanged: return .runtimeFailure
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .targetBelowCurrent(let current, let target):
            return [.error("the target version \(target) is below the store's version \(current)",
                           hint: "Strata migrates forward only; restore a backup to go back")]
        case .unknownVersion(let v, let available):
            return [.error("the target version \(v) has no model",
                           hint: "versions: \(available.map(String.init).joined(separator: ", "))")]
        case .violations(let from, let to, let violations):
            return violations.map { v in
                var lines = ["v\(from) → v\(to): \(v.summary): \(v.objects.count) object\(v.objects.count == 1 ? "" : "s") (code \(v.code))"]
                if v.groups.isEmpty {
                    lines += v.objects.prefix(50).map { "  \($0)" }
                    if v.objects.count > 50 { lines.append("  … and \(v.objects.count - 50) more") }
                } else {
                    for g in v.groups.prefix(50) {
                        lines.append("  \(g.values.map(\.description).joined(separator: ", ")): " + g.objects.map(\.uri).joined(separator: " "))
                    }
                }
                let hint: String
                switch v.check {
                case .nullInMandatoryAttribute: hint = "add a default to \(v.entity).\(v.properties.joined()), or fill the NULLs in a hook of an earlier version"
                case .rowsForNewMandatoryAttribute: hint = "give \(v.entity).\(v.properties.joined()) a default, or make it optional"
                case .rowsForNewMandatoryRelationship: hint = "make \(v.entity).\(v.properties.joined()) optional, link the objects in a hook, then make it non-optional in a later version"
                case .duplicates: hint = "remove the duplicates in a hook of an earlier version, then add the uniqueness constraint"
                case .rowsOfAbstractEntity: hint = "delete or convert the \(v.entity) objects in a hook of an earlier version"
                case .nilMappedValue: hint = "fix the source values before the step, or give the mapping a fallback (coalesce(EXPRESSION, VALUE))"
                case .multipleLinks: hint = "keep the relationship to-many, or unlink the extra objects in a hook of an earlier version"
                }
                return Diagnostic.error(lines.joined(separator: "\n"), hint: hint + "; the store was not changed")
            }
        case .foreignKeyViolations(let from, let to, let rows):
            let list = rows.prefix(50).map { "  \($0.table) row \($0.rowid.map(String.init) ?? "?") → \($0.parent)" }
            return [.error((["v\(from) → v\(to): foreign key check failed after the rebuild (\(rows.count) row\(rows.count == 1 ? "" : "s"))"] + list).joined(separator: "\n"),
                           hint: "the step was rolled back; fix the dangling references (strata audit lists them) and retry")]
        case let .userIndexViolated(from, to, index, detail):
            return [.error("v\(from) → v\(to): your unique index \(index) does not hold for the rows after the rebuild (\(detail))",
                           hint: "the step was rolled back and the index kept; make the rows unique in a hook of an earlier version, or drop the index")]
        case .drift(let report):
            return report.diagnostics
        case .foreignKeysStillOn:
            return [.error("foreign keys could not be turned off for a table rebuild", hint: "is another transaction open on this connection?")]
        case .foreignKeysNotRestored(let detail):
            return [.error("foreign keys could not be turned back on after a version step (\(detail)); the step was committed and the run stopped",
                           hint: "rerun `strata migrate`: it continues from the recorded version")]
        case let .storeChanged(expected, found):
            return [.error("the store moved from version \(expected) to \(found) while this run was planning (another run migrated it); nothing was written by this step",
                           hint: "rerun `strata migrate`: it continues from the recorded version")]
        }
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
