import StrataCore

/// Counts what a step's mapping file carries, drops and fails to cast, and the links to dropped rows, on
/// the store before the step's statements run (inside its transaction), as SQLite's step report does
/// (SPEC §11.3 "Reports"): the same queries, from `VersionStep.mappedEntities` and `droppedLinks`.
enum PostgresMappingReport {
    static func make(_ plan: PostgresStepPlan, session: PostgresSession) async throws(PostgresStoreError) -> [MappingEntityReport]? {
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
                    if let i = failed.firstIndex(where: { $0.attribute == probe.attribute }) {
                        failed[i].count += n
                    } else {
                        failed.append(.init(attribute: probe.attribute, expression: e.attributes[probe.attribute] ?? probe.expression,
                                            count: n, samples: []))
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
