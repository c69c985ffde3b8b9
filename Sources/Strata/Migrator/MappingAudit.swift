import Foundation
import GRDB

/// The audit of a mapping step (SPEC §11.3 "Audit"): every destination entity the file names, in full,
/// against the new version's rules, inside the step's transaction. `onViolation: rollback` (the default)
/// undoes the step (exit 3); `warn` commits and reports. `--audit none` skips it (the nil check of
/// non-optional mapped values runs with the step's own checks regardless).
package enum MappingAudit {
    static func run(_ step: VersionStep, in db: Database, model: Model, storeUUID: String, options: HookRunner.Options,
                    warnings: inout [String]) throws -> AuditResult? {
        guard let file = step.mappingFile, options.audit != .none, !step.mappedEntities.isEmpty else { return nil }
        var auditor = Auditor(model: model, layout: step.destinationLayout, storeUUID: storeUUID, now: options.context.now)
        auditor.variables = options.context.variables
        let result = try auditor.run(in: db, scope: .entities(step.mappedEntities.map(\.entity)), maxSamples: options.maxSamples)
        return try verdict(result, of: step, file: file, warnings: &warnings)
    }

    /// What the mapping file's `onViolation` makes of its audit (both engines): `rollback` throws
    /// `MappingViolationError` when the audit found violations; `warn` adds a warning and keeps the result.
    package static func verdict(_ result: AuditResult, of step: VersionStep, file: MappingFile,
                                warnings: inout [String]) throws(MappingViolationError) -> AuditResult {
        guard result.totalViolations > 0 else { return result }
        if file.onViolation == .rollback { throw MappingViolationError(file: file.file, fromVersion: step.fromVersion, toVersion: step.toVersion, audit: result) }
        warnings.append("mapping \(file.file) broke v\(step.toVersion)'s rules (\(result.totalViolations) violation(s)); committed (onViolation: warn)")
        return result
    }
}

/// A mapping step whose result breaks the new version's rules under `onViolation: rollback`: exit 3, the step
/// rolled back.
public struct MappingViolationError: StrataError, Sendable {
    public var file: String
    public var fromVersion: Int
    public var toVersion: Int
    public var audit: AuditResult
    public var exitCode: ExitStatus { .validationViolations }
    public var diagnostics: [Diagnostic] {
        let rules = audit.violated.map { rule in
            "  - \(rule.code.rawValue) \(rule.subject) \(rule.rule): \(rule.count)"
                + rule.samples.map { "\n      \($0.objectID)\($0.value.map { " = " + $0 } ?? "")" }.joined()
        }
        return [Diagnostic(.error, "v\(fromVersion) → v\(toVersion): the mapping broke v\(toVersion)'s rules (\(audit.totalViolations) violation(s)); the step was rolled back\n"
                           + rules.joined(separator: "\n"),
                           at: SourceLocation(file: file, line: 1, column: 1),
                           hint: "fix the expressions or the data, or set `onViolation: warn` in the mapping file to commit and report")]
    }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
