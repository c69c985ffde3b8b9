import StrataCore

/// Counts what a step's mapping file carries, drops and fails to cast, and the links to dropped rows, on
/// the store before the step's statements run (inside its transaction), as SQLite's step report does
/// (SPEC §11.3 "Reports"): the same queries, from `VersionStep.mappedEntities` and `droppedLinks`.
enum PostgresMappingReport {
    /// - Parameters:
    ///   - storeUUID: the store's UUID, for the object IDs of failed-cast samples.
    ///   - maxSamples: the most failed casts listed per attribute, with the source values (`MappingReport.make` on SQLite).
    static func make(_ plan: PostgresStepPlan, session: PostgresSession, storeUUID: String,
                     maxSamples: Int) async throws(PostgresStoreError) -> [MappingEntityReport]? {
        guard plan.hasMapping else { return nil }
        func count(_ text: SQLText) async throws(PostgresStoreError) -> Int {
            guard let row = try await session.rows(text).first else { return 0 }
            return Int(try PostgresSession.decode(row[0], as: Int64.self, statement: text))
        }
        var reports: [MappingEntityReport] = []
        for e in plan.mappedEntities {
            var total = 0, carried = 0
            var failed: [MappingEntityReport.FailedCast] = []
            for part in e.parts {
                let rows = try await count(part.count(boolean(part.rows)))
                total += rows
                if e.filter == nil { carried += rows } else { carried += try await count(part.count(boolean(part.carried))) }
                for probe in part.probes {
                    let n = try await count(part.count(boolean(probe.condition)))
                    if !failed.contains(where: { $0.attribute == probe.attribute }) {
                        failed.append(.init(attribute: probe.attribute, expression: e.attributes[probe.attribute] ?? probe.expression,
                                            count: 0, samples: []))
                    }
                    let i = failed.firstIndex { $0.attribute == probe.attribute }!
                    failed[i].count += n
                    let wanted = maxSamples - failed[i].samples.count
                    guard n > 0, wanted > 0 else { continue }
                    // The `_pk` and the inputs' values, in SQLite's storage form (`PostgresCellValue`), as SQLite lists them.
                    var read = probe
                    read.condition = boolean(probe.condition)
                    let query = part.samples(read, limit: wanted)
                    for row in try await session.rows(query) {
                        let key = try PostgresSession.decode(row[0], as: Int64.self, statement: query)
                        var values: [String: String] = [:]
                        for (j, name) in probe.inputs.enumerated() { values[name] = try PostgresCellValue.value(row[j + 1], statement: query).description }
                        failed[i].samples.append(.init(objectID: ObjectID(storeUUID: storeUUID, entity: part.source, primaryKey: key).description,
                                                       values: values))
                    }
                }
            }
            var report = MappingEntityReport(entity: e.entity, source: e.source, filter: e.filter, carried: carried,
                                             dropped: total - carried, failedCasts: failed)
            report.newIDs = e.newIDs ? carried : 0
            for probe in plan.droppedLinks where probe.entity == e.entity {
                let n = try await count(probe.count)
                if n > 0 { report.linksDropped["\(probe.table).\(probe.column)", default: 0] += n }
            }
            reports.append(report)
        }
        return reports
    }

    /// A condition as PostgreSQL reads it: SQLite's "every row" (`1`, `1 AND …`) is `TRUE`.
    static func boolean(_ condition: SQLText) -> SQLText {
        guard case .text(let text)? = condition.pieces.first, text == "1" || text.hasPrefix("1 AND ") else { return condition }
        return SQLText(pieces: [.text("TRUE" + text.dropFirst())] + condition.pieces.dropFirst())
    }
}
