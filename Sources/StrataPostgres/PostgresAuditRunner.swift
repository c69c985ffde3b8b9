import Foundation
import PostgresNIO
import StrataCore
import Strata

/// Runs audit rules on a PostgreSQL session inside the caller's transaction: the same statements as the
/// SQLite auditor (``AuditSQL``), rendered for PostgreSQL, values read back in SQLite's storage forms.
struct PostgresAuditRunner {
    let session: PostgresSession
    let renderer: PostgresRenderer
    let storeUUID: String

    struct Tally {
        var count = 0
        var samples: [AuditSample] = []
        /// The `_pk` of each sample, for merging the samples counted in Swift in key order.
        var keys: [Int64] = []
        /// Seconds.
        var duration: Double = 0
    }

    /// Row rules of one table: one `COUNT(*) FILTER` scan, the rows length rules leave undecided counted in
    /// Swift, then the first samples in `_pk` order. A sample query is capped at the samples still wanted
    /// (the first rule completes within that many rows) and restarts after the last row read without the
    /// rules that have their samples, as on SQLite.
    func rowRules(_ rules: [AuditRule], mode: AuditRunMode, maxSamples: Int) async throws -> [Tally] {
        var tallies = [Tally](repeating: Tally(), count: rules.count)
        let counts = AuditSQL.counts(rules, mode: mode)
        guard let row = try await rows(counts).first else { return tallies }
        for i in rules.indices { tallies[i].count = Int(try Self.integer(row[i], counts)) }

        let wanted = rules.indices.map { min(tallies[$0].count, maxSamples) }
        var open = rules.indices.filter { wanted[$0] > 0 }
        var after: Int64?
        while !open.isEmpty {
            let active = open
            let limit = active.reduce(0) { $0 + wanted[$1] - tallies[$1].samples.count }
            let statement = AuditSQL.samples(active.map { rules[$0] }, mode: mode, after: after, limit: limit)
            var closed = false
            for row in try await rows(statement) {
                let pk = try Self.integer(row[0], statement)
                let entity = try Self.text(row[1], statement)
                for (j, i) in active.enumerated() {
                    guard try Self.flag(row[2 + j], statement) else { continue }
                    let rule = rules[i]
                    let value = try PostgresCellValue.value(row[2 + active.count + j], statement: statement)
                    tallies[i].samples.append(AuditSample(objectID: objectID(rule, pk: pk, entity: entity),
                                                          value: AuditSample.display(value, as: rule.valueType)))
                    tallies[i].keys.append(pk)
                    if tallies[i].samples.count == wanted[i] { closed = true }
                }
                if closed {
                    open.removeAll { tallies[$0].samples.count == wanted[$0] }
                    after = pk
                    break
                }
            }
            if !closed { open = [] }
        }

        for i in rules.indices where rules[i].lengthLimit != nil {
            let counted = try await undecidedLengths(rules[i], mode: mode, maxSamples: maxSamples)
            tallies[i].count += counted.count
            tallies[i].merge(counted, maxSamples: maxSamples)
        }
        return tallies
    }

    /// Duplicate groups of a uniqueness rule: the first `maxSamples` groups by key (each with up to
    /// `maxSamples` members), and the exact number of groups. The member query is capped at
    /// `maxSamples² + 1` rows: enough to see the first member of the group after the last one kept.
    func uniqueness(_ rule: AuditRule, maxSamples: Int) async throws -> Tally {
        guard case .uniqueness(let columns, let types) = rule.check else { preconditionFailure("uniqueness rule") }
        var tally = Tally()
        var currentKey: [Value]?
        var complete = maxSamples > 0
        if maxSamples > 0 {
            let statement = AuditSQL.duplicateMembers(rule, perGroup: maxSamples, limit: maxSamples * maxSamples + 1)
            for row in try await rows(statement) {
                let key = try columns.indices.map { try PostgresCellValue.value(row[$0], statement: statement) }
                let id = objectID(rule, pk: try Self.integer(row[columns.count], statement),
                                  entity: try Self.text(row[columns.count + 1], statement))
                if key == currentKey {
                    tally.samples[tally.samples.count - 1].related.append(id)
                    continue
                }
                if tally.samples.count == maxSamples { complete = false; break }
                currentKey = key
                let shown = zip(key, types).map { AuditSample.display($0, as: $1) ?? "nil" }
                tally.samples.append(AuditSample(objectID: id, value: shown.joined(separator: ", ")))
            }
        }
        if complete {
            tally.count = tally.samples.count
        } else {
            let statement = AuditSQL.duplicateGroupCount(rule)
            let row = try await rows(statement).first
            tally.count = Int(try row.map { try Self.integer($0[0], statement) } ?? 0)
        }
        return tally
    }

    /// The tables with rows in `pg_temp.strata_touched` (none when the table does not exist).
    func touchedTables() async throws -> Set<String> {
        let exists = try await session.value("SELECT to_regclass('pg_temp.strata_touched') IS NOT NULL", as: Bool.self)
        guard exists == true else { return [] }
        let statement: SQLText = "SELECT DISTINCT CAST(\(ColumnName("table")) AS text) FROM \(BatchPlanner.touchedTable)"
        return Set(try await rows(statement).compactMap { try Self.text($0[0], statement) })
    }

    func rows(_ statement: SQLText) async throws -> [PostgresRandomAccessRow] {
        try await session.run(try renderer.rendering(statement)).rows
    }

    func objectID(_ rule: AuditRule, pk: Int64, entity: String?) -> String {
        ObjectID(storeUUID: storeUUID, entity: entity ?? rule.rootEntity, primaryKey: pk).uri
    }

    static func integer(_ cell: PostgresCell, _ statement: SQLText) throws -> Int64 {
        guard case .integer(let i) = try PostgresCellValue.value(cell, statement: statement) else {
            throw PostgresStoreError.server(message: "expected an integer in column \(cell.columnName)", sqlState: nil,
                                            statement: statement.rendered(for: .postgresql).sql)
        }
        return i
    }

    static func text(_ cell: PostgresCell, _ statement: SQLText) throws -> String? {
        guard cell.bytes != nil else { return nil }
        return try PostgresSession.decode(cell, as: String.self, statement: statement)
    }

    /// A rule's flag: true, false or NULL (not violated).
    static func flag(_ cell: PostgresCell, _ statement: SQLText) throws -> Bool {
        guard cell.bytes != nil else { return false }
        return try PostgresSession.decode(cell, as: Bool.self, statement: statement)
    }
}

extension PostgresAuditRunner.Tally {
    /// Adds samples found outside the SQL sample query, keeping the first `maxSamples` in `_pk` order.
    mutating func merge(_ other: PostgresAuditRunner.Tally, maxSamples: Int) {
        guard !other.samples.isEmpty else { return }
        let merged = zip(keys + other.keys, samples + other.samples).sorted { $0.0 < $1.0 }.prefix(maxSamples)
        keys = merged.map(\.0)
        samples = merged.map(\.1)
    }
}
