import Foundation
import StrataCore
import Strata

/// Runs a model's validation rules against a PostgreSQL store (SPEC §7, §14.2): the statements the SQLite
/// ``Auditor`` runs, planned by the same ``AuditPlanner`` and rendered for PostgreSQL, with exact counts,
/// capped samples and the same ``AuditResult`` (same rules, object IDs and values). Length rules count
/// Characters as on SQLite: ASCII text without CR in SQL, other text streamed and counted in Swift.
///
/// ```swift
/// let store = try await PostgresStore.open(url)
/// let auditor = try await PostgresAuditor(store: store, history: history)
/// let result = try await auditor.run(on: store, scope: .full)
/// ```
public struct PostgresAuditor: Sendable {
    public var model: Model
    public var layout: StoreLayout
    public var storeUUID: String
    /// `$NOW` for validation predicates: the time the auditor was made, unless set.
    public var now: Double
    /// `$VARIABLES` for validation predicates (`--var`).
    public var variables: [String: String] = [:]

    public init(model: Model, layout: StoreLayout, storeUUID: String, now: Double = Date().timeIntervalSince1970) {
        self.model = model
        self.layout = layout
        self.storeUUID = storeUUID
        self.now = now
    }

    /// Audits the objects of `scope` in one read-only, repeatable-read transaction of `store`.
    /// - Parameter maxSamples: the most sample objects kept per rule (counts stay exact); not negative.
    /// - Throws: `AuditError` for a scope naming an unknown entity or a rule that does not compile;
    ///   `PostgresRenderError` (exit 2) for a rule PostgreSQL cannot run; `PostgresStoreError` from the server.
    public func run(on store: PostgresStore, scope: AuditScope, maxSamples: Int = 20) async throws -> AuditResult {
        let session = store.session
        let rules = try AuditPlanner(model: model, layout: layout, now: now, variables: variables).rules(for: scope)
        let renderer = try await PostgresServerFeatures.renderer(for: try Self.requirements(of: rules), session: session)
        try await session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            try await session.execute(PostgresSchemaSQL.setSearchPath(store.url.schema, local: true))
            let result = try await run(rules, scope: scope, maxSamples: maxSamples, session: session, renderer: renderer)
            try await session.execute("COMMIT")
            return result
        } catch {
            try? await session.execute("ROLLBACK")
            throw error
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
        // Row rules, together per table and mode, in the order the SQLite auditor runs them.
        var groups: [GroupKey: [Int]] = [:]
        for (i, rule) in rules.enumerated() where modes[i] != .skip {
            if case .row = rule.check { groups[GroupKey(table: rule.table, mode: modes[i]), default: []].append(i) }
        }
        for key in groups.keys.sorted(by: { ($0.table, $0.mode == .all ? 0 : 1) < ($1.table, $1.mode == .all ? 0 : 1) }) {
            let indices = groups[key]!
            let started = Date()
            let found = try await runner.rowRules(indices.map { rules[$0] }, mode: key.mode, maxSamples: maxSamples)
            let share = Date().timeIntervalSince(started) / Double(indices.count)
            for (j, i) in indices.enumerated() { tallies[i] = found[j]; tallies[i]!.duration = share }
        }
        for (i, rule) in rules.enumerated() where modes[i] != .skip {
            if case .uniqueness = rule.check {
                let started = Date()
                tallies[i] = try await runner.uniqueness(rule, maxSamples: maxSamples)
                tallies[i]!.duration = Date().timeIntervalSince(started)
            }
        }

        let results = rules.indices.compactMap { i in
            tallies[i].map { AuditRuleResult(rules[i], count: $0.count, samples: $0.samples, duration: $0.duration) }
        }
        return AuditResult(storeUUID: storeUUID, modelVersion: model.version, scope: scope, maxSamples: maxSamples, rules: results)
    }

    struct GroupKey: Hashable {
        var table: String
        var mode: AuditRunMode
    }
}
