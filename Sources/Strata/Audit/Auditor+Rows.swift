import GRDB

extension Auditor {
    /// Runs the row rules of one table: samples first, in `_pk` order, reading only violating rows;
    /// once a rule has `maxSamples` samples it leaves the sample query (which restarts after the last
    /// row read) and is counted by one `COUNT(*) FILTER` scan. A rule still open when the sample query
    /// ends has all its violations in hand, so its count is exact without another scan.
    /// Swift reads at most `rules.count × maxSamples` rows; SQLite scans the table at most twice.
    func runRowRules(_ rules: [AuditRule], mode: AuditRunMode, maxSamples: Int, _ db: Database) throws -> [Tally] {
        var tallies = [Tally](repeating: Tally(), count: rules.count)
        var open = maxSamples > 0 ? Array(rules.indices) : []
        var full: [Int] = maxSamples > 0 ? [] : Array(rules.indices)
        var after: Int64?
        while !open.isEmpty {
            let active = open
            let statement = AuditSQL.samples(active.map { rules[$0] }, mode: mode, after: after)
            let cursor = try Row.fetchCursor(db, sql: statement.sql, arguments: statement.auditArguments)
            var closed = false
            while let row = try cursor.next() {
                let pk: Int64 = row[0]
                let entity: String? = row[1]
                for (j, i) in active.enumerated() {
                    let flag: Int64? = row[2 + j]
                    guard let flag, flag != 0 else { continue }
                    let rule = rules[i]
                    let value = Value(auditing: row[2 + active.count + j])
                    tallies[i].samples.append(AuditSample(objectID: objectID(rule, pk: pk, entity: entity),
                                                          value: AuditSample.display(value, as: rule.valueType)))
                    if tallies[i].samples.count == maxSamples { closed = true }
                }
                if closed {
                    let filled = active.filter { tallies[$0].samples.count == maxSamples }
                    full += filled
                    open.removeAll { filled.contains($0) }
                    after = pk
                    break
                }
            }
            if !closed {
                for i in open { tallies[i].count = tallies[i].samples.count }
                open = []
            }
        }
        if !full.isEmpty {
            full.sort()
            let statement = AuditSQL.counts(full.map { rules[$0] }, mode: mode)
            let row = try Row.fetchOne(db, sql: statement.sql, arguments: statement.auditArguments)!
            for (j, i) in full.enumerated() { tallies[i].count = row[j] }
        }
        return tallies
    }

    /// Duplicate groups of a uniqueness rule: the first `maxSamples` groups by key (each with up to
    /// `maxSamples` members), and the exact number of groups.
    func runUniqueness(_ rule: AuditRule, maxSamples: Int, _ db: Database) throws -> Tally {
        guard case .uniqueness(let columns, let types) = rule.check else { preconditionFailure("uniqueness rule") }
        var tally = Tally()
        var currentKey: [DatabaseValue]?
        var complete = true
        if maxSamples > 0 {
            let statement = AuditSQL.duplicateMembers(rule, perGroup: maxSamples)
            let cursor = try Row.fetchCursor(db, sql: statement.sql, arguments: statement.auditArguments)
            while let row = try cursor.next() {
                let key = columns.indices.map { row[$0] as DatabaseValue }
                let id = objectID(rule, pk: row[columns.count], entity: row[columns.count + 1])
                if key == currentKey {
                    tally.samples[tally.samples.count - 1].related.append(id)
                    continue
                }
                if tally.samples.count == maxSamples { complete = false; break }
                currentKey = key
                let shown = zip(key, types).map { AuditSample.display(Value(auditing: $0), as: $1) ?? "nil" }
                tally.samples.append(AuditSample(objectID: id, value: shown.joined(separator: ", ")))
            }
        } else {
            complete = false
        }
        if complete {
            tally.count = tally.samples.count
        } else {
            let statement = AuditSQL.duplicateGroupCount(rule)
            tally.count = try Int.fetchOne(db, sql: statement.sql, arguments: statement.auditArguments) ?? 0
        }
        return tally
    }
}
