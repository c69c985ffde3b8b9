import Foundation
import StrataCore
import Strata

extension PostgresMigration {
    /// The audit of a mapping step (SPEC §11.3, §11.4 step 3), as SQLite's `MappingAudit`: every destination entity
    /// the file names, in full, against the new version's rules, inside the step's transaction, after its
    /// statements and checks. `onViolation: rollback` (the default) throws `MappingViolationError` (exit 3, the
    /// step rolled back); `warn` commits and adds a warning; `--audit none` skips it.
    /// - Returns: the audit, or nil when the step has no mapping file or the audit is off.
    static func auditMapping(_ step: VersionStep, model: Model, store: PostgresStore, storeUUID: String, options: Options,
                             warnings: inout [String]) async throws -> AuditResult? {
        guard let file = step.mappingFile, options.audit != .none, !step.mappedEntities.isEmpty else { return nil }
        let now = (options.now ?? Date()).timeIntervalSince1970
        var auditor = Auditor(model: model, layout: step.destinationLayout, storeUUID: storeUUID, now: now)
        auditor.variables = options.variables
        let scope = AuditScope.entities(step.mappedEntities.map(\.entity))
        let rules = try AuditPlanner(model: model, layout: step.destinationLayout, now: now, variables: options.variables).rules(for: scope)
        let renderer = try await PostgresServerFeatures.renderer(for: try Auditor.requirements(of: rules), session: store.session)
        let result = try await auditor.run(rules, scope: scope, maxSamples: options.maxSamples, session: store.session, renderer: renderer)
        return try MappingAudit.verdict(result, of: step, file: file, warnings: &warnings)
    }
}
