import Foundation
import StrataCore
import Strata

/// The validation audit of a PostgreSQL store (SPEC §7, §14.2): the same ``Auditor`` as on SQLite, its
/// rules planned by the same ``AuditPlanner`` and run in the same order (``AuditSchedule``), rendered for
/// PostgreSQL, with exact counts, capped samples and the same ``AuditResult`` (same rules, object IDs and
/// values). Length rules count Characters as on SQLite: ASCII text without CR in SQL, other text streamed
/// and counted in Swift.
///
/// ```swift
/// let store = try await PostgresStore.open(url)
/// let auditor = try await Auditor(store: store, history: history)
/// let result = try await auditor.run(on: store, scope: .full)
/// ```
extension Auditor {
    /// Audits the objects of `scope` in one read-only, repeatable-read transaction of `store`.
    /// - Parameters:
    ///   - maxSamples: the most sample objects kept per rule (counts stay exact); not negative.
    ///   - lockTimeout: seconds each statement may wait for a lock another session holds (`lock_timeout`, as
    ///     a migration's steps wait): a table an application or a migration holds exclusively ends the audit
    ///     instead of blocking it for ever.
    /// - Throws: `AuditError` for a scope naming an unknown entity or a rule that does not compile;
    ///   `PostgresRenderError` (exit 2) for a rule PostgreSQL cannot run; `PostgresLockWaitError` (exit 5) past
    ///   `lockTimeout`; `PostgresStoreError` from the server.
    public func run(on store: PostgresStore, scope: AuditScope, maxSamples: Int = 20, lockTimeout: Double = 5) async throws -> AuditResult {
        let session = store.session
        let rules = try AuditPlanner(model: model, layout: layout, now: now, variables: variables).rules(for: scope)
        let renderer = try await PostgresServerFeatures.renderer(for: try Self.requirements(of: rules), session: session)
        try await session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            try await session.execute(PostgresSchemaSQL.setSearchPath(store.url.schema, local: true))
            try await session.execute("SET LOCAL lock_timeout = \(keyword: String(Int((lockTimeout * 1000).rounded())))")
            let result = try await run(rules, scope: scope, maxSamples: maxSamples, session: session, renderer: renderer)
            try await session.execute("COMMIT")
            return result
        } catch {
            try? await session.execute("ROLLBACK")
            throw PostgresLockWaitError.lockWait(error, seconds: lockTimeout)
        }
    }

    /// What the rules' SQL needs from the server.
    /// - Throws: `PostgresRenderError` for a rule PostgreSQL cannot run (an ICU-only pattern, …).
    static func requirements(of rules: [AuditRule]) throws -> Set<PostgresRenderer.Requirement> {
        var requirements: Set<PostgresRenderer.Requirement> = []
        let renderer = PostgresRenderer()
        for rule in rules {
            if case .row(let condition, let value) = rule.check {
                requirements.formUnion(try renderer.rendering(condition).requirements)
                requirements.formUnion(try renderer.rendering(value).requirements)
            }
        }
        return requirements
    }

    /// Audits `rules` (planned for `scope`) inside the caller's transaction on `session`.
    func run(_ rules: [AuditRule], scope: AuditScope, maxSamples: Int, session: PostgresSession,
             renderer: PostgresRenderer) async throws -> AuditResult {
        precondition(maxSamples >= 0, "maxSamples must not be negative")
        let runner = PostgresAuditRunner(session: session, renderer: renderer, storeUUID: storeUUID)
        let modes: [AuditRunMode]
        if scope == .touched {
            let touched = try await runner.touchedTables()
            modes = rules.map { $0.mode(touchedTables: touched) }
        } else {
            modes = rules.map { _ in .all }
        }

        var tallies = [PostgresAuditRunner.Tally?](repeating: nil, count: rules.count)
        let schedule = AuditSchedule(rules: rules, modes: modes)
        for group in schedule.rowGroups {
            let started = Date()
            let found = try await runner.rowRules(group.rules.map { rules[$0] }, mode: group.mode, maxSamples: maxSamples)
            let share = Date().timeIntervalSince(started) / Double(group.rules.count)
            for (j, i) in group.rules.enumerated() { tallies[i] = found[j]; tallies[i]!.duration = share }
        }
        for i in schedule.uniqueness {
            let started = Date()
            tallies[i] = try await runner.uniqueness(rules[i], maxSamples: maxSamples)
            tallies[i]!.duration = Date().timeIntervalSince(started)
        }

        let results = rules.indices.compactMap { i in
            tallies[i].map { AuditRuleResult(rules[i], count: $0.count, samples: $0.samples, duration: $0.duration) }
        }
        return AuditResult(storeUUID: storeUUID, modelVersion: model.version, scope: scope, maxSamples: maxSamples, rules: results)
    }
}
