import GRDB

extension Auditor {
    /// Runs the row rules of one table: one `COUNT(*) FILTER` scan counts every rule exactly; then
    /// the violated rules' samples are read in `_pk` order, reading only violating rows. A rule leaves
    /// the sample query once it has its samples (the query restarts after the last row read, without it),
    /// so Swift reads at most `rules.count × maxSamples` rows and the sample query stops at the last
    /// sample needed: with many violations, after a short prefix of the table.
    func runRowRules(_ rules: [AuditRule], mode: AuditRunMode, maxSamples: Int, _ db: Database) throws -> [Tally] {
        var tallies = [Tally](repeating: Tally(), count: rules.count)
        let counts = AuditSQL.counts(rules, mode: mode)
        let row = try Row.fetchOne(db, counts)!
        for i in rules.indices { tallies[i].count = row[i] }

        let wanted = rules.indices.map { min(tallies[$0].count, maxSamples) }
        var open = rules.indices.filter { wanted[$0] > 0 }
        var after: Int64?
        while !open.isEmpty {
            let active = open
            let statement = AuditSQL.samples(active.map { rules[$0] }, mode: mode, after: after)
            let cursor = try Row.fetchCursor(db, statement)
            var closed = false
            while let row = try cursor.next() {
                let pk: Int64 = row[0]
                let entity: String? = row[1]
                for (j, i) in active.enumerated() {
                    let flag: Int64? = row[2 + j]
                    guard let flag, flag != 0 else { continue }
                    let rule = rules[i]
                    let value = Value(databaseValue: row[2 + active.count + j])
                    tallies[i].samples.append(AuditSample(objectID: objectID(rule, pk: pk, entity: entity),
                                                          value: AuditSample.display(value, as: rule.valueType)))
                    if tallies[i].samples.count == wanted[i] { closed = true }
                }
                if closed {
                    open.removeAll { tallies[$0].samples.count == wanted[$0] }
                    after = pk
                    break
                }
            }
            if !closed { open = [] }   // rows changed under us (not in one transaction): keep what was found
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
            let cursor = try Row.fetchCursor(db, statement)
            while let row = try cursor.next() {
                let key = columns.indices.map { row[$0] as DatabaseValue }
                let id = objectID(rule, pk: row[columns.count], entity: row[columns.count + 1])
                if key == currentKey {
                    tally.samples[tally.samples.count - 1].related.append(id)
                    continue
                }
                if tally.samples.count == maxSamples { complete = false; break }
                currentKey = key
                let shown = zip(key, types).map { AuditSample.display(Value(databaseValue: $0), as: $1) ?? "nil" }
                tally.samples.append(AuditSample(objectID: id, value: shown.joined(separator: ", ")))
            }
        } else {
            complete = false
        }
        if complete {
            tally.count = tally.samples.count
        } else {
            let statement = AuditSQL.duplicateGroupCount(rule)
            tally.count = try Int.fetchOne(db, statement) ?? 0
        }
        return tally
    }
}
