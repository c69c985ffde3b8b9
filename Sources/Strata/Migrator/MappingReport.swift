import Foundation
import GRDB

/// Counts what a step's mapping file carries, drops and fails to cast, on the store before the step
/// (inside its transaction), for the step's report.
enum MappingReport {
    static func make(_ step: VersionStep, db: Database, storeUUID: String, maxSamples: Int) throws -> [MappingEntityReport]? {
        guard step.mappingFile != nil else { return nil }
        func count(_ text: SQLText) throws -> Int {
            try Int.fetchOne(db, text) ?? 0
        }
        return try step.mappedEntities.map { e in
            let total = try count(e.count(e.rows))
            let carried = e.filter == nil ? total : try count(e.count(e.carried))
            var failed: [MappingEntityReport.FailedCast] = []
            for probe in e.probes {
                let n = try count(e.count(probe.condition))
                var samples: [MappingEntityReport.Sample] = []
                if n > 0, maxSamples > 0 {
                    for row in try Row.fetchAll(db, e.samples(probe, limit: maxSamples)) {
                        let pk: Int64 = row[0]
                        var values: [String: String] = [:]
                        for (i, name) in probe.inputs.enumerated() { values[name] = Value(databaseValue: row[i + 1] as DatabaseValue).description }
                        samples.append(.init(objectID: ObjectID(storeUUID: storeUUID, entity: e.source, primaryKey: pk).description, values: values))
                    }
                }
                failed.append(.init(attribute: probe.attribute, expression: probe.expression, count: n, samples: samples))
            }
            var report = MappingEntityReport(entity: e.entity, source: e.source, filter: e.filter, carried: carried,
                                             dropped: total - carried, failedCasts: failed)
            for probe in step.droppedLinks where probe.entity == e.entity {
                let n = try count(probe.count)
                if n > 0 { report.linksDropped["\(probe.table).\(probe.column)", default: 0] += n }
            }
            return report
        }
    }
}
