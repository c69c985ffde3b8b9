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
            var total = 0, carried = 0
            var failed: [String: MappingEntityReport.FailedCast] = [:]
            var order: [String] = []
            for part in e.parts {
                let rows = try count(part.count(part.rows))
                total += rows
                carried += e.filter == nil ? rows : try count(part.count(part.carried))
                for probe in part.probes {
                    let n = try count(part.count(probe.condition))
                    var samples: [MappingEntityReport.Sample] = []
                    if n > 0, maxSamples > 0 {
                        for row in try Row.fetchAll(db, part.samples(probe, limit: maxSamples)) {
                            let pk: Int64 = row[0]
                            var values: [String: String] = [:]
                            for (i, name) in probe.inputs.enumerated() { values[name] = Value(databaseValue: row[i + 1] as DatabaseValue).description }
                            samples.append(.init(objectID: ObjectID(storeUUID: storeUUID, entity: part.source, primaryKey: pk).description, values: values))
                        }
                    }
                    if failed[probe.attribute] == nil {
                        order.append(probe.attribute)
                        failed[probe.attribute] = .init(attribute: probe.attribute, expression: e.attributes[probe.attribute] ?? probe.expression,
                                                        count: 0, samples: [])
                    }
                    failed[probe.attribute]!.count += n
                    failed[probe.attribute]!.samples += samples.prefix(max(0, maxSamples - failed[probe.attribute]!.samples.count))
                }
            }
            var report = MappingEntityReport(entity: e.entity, source: e.source, filter: e.filter, carried: carried,
                                             dropped: total - carried, failedCasts: order.map { failed[$0]! })
            report.newIDs = e.newIDs ? carried : 0
            for probe in step.droppedLinks where probe.entity == e.entity {
                let n = try count(probe.count)
                if n > 0 { report.linksDropped["\(probe.table).\(probe.column)", default: 0] += n }
            }
            return report
        }
    }
}
