import Foundation
import GRDB

/// Runs a model's validation rules against a store (SPEC §7): set-based SQL, exact counts,
/// capped samples, memory flat in the number of rows and violations.
///
/// ```swift
/// let metadata = try store.metadata()
/// let auditor = Auditor(model: model, layout: metadata.layout, storeUUID: metadata.storeUUID)
/// let result = try auditor.run(on: store, scope: .full)
/// ```
public struct Auditor: Sendable {
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

    /// Audits the objects of `scope` in one read transaction of `store`.
    /// - Parameters:
    ///   - store: the store, whose recorded layout this auditor was made with.
    ///   - scope: all objects or some entities (``AuditScope/touched`` needs a batch's transaction).
    ///   - maxSamples: the most sample objects kept per rule (counts stay exact); not negative.
    ///   - progress: counts the rows the scans have visited (an estimate from SQLite's progress handler); nil counts nothing.
    /// - Throws: `AuditError` for a scope naming an unknown entity or a rule that does not compile;
    ///   `StoreError` from SQLite.
    public func run(on store: Store, scope: AuditScope, maxSamples: Int = 20, progress: ProgressCounter? = nil) throws -> AuditResult {
        try store.read { db in
            try db.reportingEstimatedProgress(progress) { try run(in: db, scope: scope, maxSamples: maxSamples) }
        }
    }

    /// Audits the objects of `scope`.
    ///
    /// The connection must have Strata's SQL functions (`strata_length`, `strata_matches`), as every
    /// `Store` connection has. Read-only: run it in a read or inside a write transaction (hooks do,
    /// before committing).
    /// - Parameters:
    ///   - scope: all objects, some entities, or the rows in `temp.strata_touched`.
    ///   - maxSamples: the most sample objects kept per rule (counts stay exact).
    ///   - batchKeysOf: for a `.touched` scope, the table whose rows in `temp.strata_batch_keys` are the touched
    ///     rows (one batch update audited alone, which leaves its keys there), instead of `temp.strata_touched`.
    /// - Throws: `AuditError` for a scope naming an unknown entity or a rule that does not compile;
    ///   `DatabaseError` from SQLite.
    func run(in db: Database, scope: AuditScope, maxSamples: Int = 20, batchKeysOf keyedTable: String? = nil) throws -> AuditResult {
        precondition(maxSamples >= 0, "maxSamples must not be negative")
        let rules = try AuditPlanner(model: model, layout: layout, now: now, variables: variables).rules(for: scope)
        let modes = scope == .touched ? try Self.touchedModes(rules, batchKeysOf: keyedTable, db) : rules.map { _ in .all }

        var tallies = [Tally?](repeating: nil, count: rules.count)
        let schedule = AuditSchedule(rules: rules, modes: modes)
        for group in schedule.rowGroups {
            let started = Date()
            let found = try runRowRules(group.rules.map { rules[$0] }, mode: group.mode, maxSamples: maxSamples, db)
            let share = Date().timeIntervalSince(started) / Double(group.rules.count)
            for (j, i) in group.rules.enumerated() { tallies[i] = found[j]; tallies[i]!.duration = share }
        }
        for i in schedule.uniqueness {
            let started = Date()
            tallies[i] = try runUniqueness(rules[i], maxSamples: maxSamples, db)
            tallies[i]!.duration = Date().timeIntervalSince(started)
        }

        let results = rules.indices.compactMap { i in
            tallies[i].map { AuditRuleResult(rules[i], count: $0.count, samples: $0.samples, duration: $0.duration) }
        }
        return AuditResult(storeUUID: storeUUID, modelVersion: model.version, scope: scope, maxSamples: maxSamples, rules: results)
    }

    struct Tally {
        var count = 0
        var samples: [AuditSample] = []
        /// Seconds.
        var duration: Double = 0
    }

    /// Which of `tables` have rows in `temp.strata_touched` (none when that table does not exist): one indexed
    /// probe per table, not a scan of every touched row (measured: `SELECT DISTINCT` over 78,000 touched rows
    /// took 10–15 ms of a 1,000,000-row batch update's audit).
    static func touchedTables(_ db: Database, among tables: Set<String>) throws -> Set<String> {
        let exists = try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM temp.sqlite_master WHERE type = 'table' AND name = 'strata_touched'") ?? false
        guard exists else { return [] }
        return try tables.filter { table in
            try Bool.fetchOne(db, "SELECT EXISTS (SELECT 1 FROM \(BatchPlanner.touchedTable) WHERE \(ColumnName("table")) = \(table))") ?? false
        }
    }

    func objectID(_ rule: AuditRule, pk: Int64, entity: String?) -> String {
        ObjectID(storeUUID: storeUUID, entity: entity ?? rule.rootEntity, primaryKey: pk).uri
    }
}
