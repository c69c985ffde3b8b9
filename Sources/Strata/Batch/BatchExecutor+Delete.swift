import Foundation
import GRDB

extension BatchExecutor {
    /// Runs a batch delete, applying the model's delete rules (cascade, nullify, deny) in SQL.
    /// - Parameters: as for updates; with `recordTouched`, rows whose relationships were nullified and
    ///   the related objects whose relationship counts changed are recorded in `temp.strata_touched`.
    /// - Throws: `BatchError.denied` listing the blockers (nothing is deleted), or another `BatchError`.
    static func execute(_ request: BatchDeleteRequest, in db: Database, model: Model, layout: StoreLayout,
                        storeUUID: String, context: PredicateContext, recordTouched: Bool,
                        collectObjectIDs: Bool = false) throws(BatchError) -> BatchResult {
        var context = context
        context.arguments = request.arguments
        let plan = try BatchPlanner(model: model, layout: layout).planDelete(request, context: context)
        let wantIDs = request.resultType == .objectIDs || collectObjectIDs
        var changes = ChangeSet()
        changes.hasObjectIDs = wantIDs
        var ids: [ObjectID] = []
        var count = 0

        if plan.isSimple && !recordTouched {
            try run(plan.directDelete.sql) {
                if wantIDs || plan.isDiscriminated {
                    let rows = try Row.fetchCursor(db, plan.direct(returning: true))
                    while let row = try rows.next() {
                        let entity: String = plan.isDiscriminated ? row[1] : plan.entity
                        collect(entity, row[0], storeUUID: storeUUID, into: &changes, ids: &ids, keepIDs: wantIDs, updated: false)
                        count += 1
                    }
                } else {
                    try db.execute(plan.directDelete)
                    count = db.changesCount
                    changes.deletedCounts[plan.entity] = count
                }
            }
            if count > 0 { try run(plan.directDelete.sql) { try checkUserReferences(after: layout, db) } }
            changes.normalize()
            ids.sort()
            return BatchResult(kind: .delete, entity: request.entity, count: count,
                               objectIDs: request.resultType == .objectIDs ? ids : nil, changes: changes)
        }

        var blockers: [DeleteBlocker] = []
        var blockerTotal = 0
        try run(plan.seed.sql) {
            try db.execute(BatchPlanner.createDoomedTable)
            try db.execute("DELETE FROM \(BatchPlanner.doomedTable)")
            if recordTouched { try db.execute(BatchPlanner.createTouchedTable) }
            try db.execute(plan.seed)
            count = db.changesCount
            // Cascades, level by level: round r expands only the rows round r − 1 added, until a round adds none.
            // Leaf cascades (see `BatchPlanner.leafDelete`) skip the doomed set unless touched rows are recorded.
            let leaves = recordTouched ? [] : plan.cascades.compactMap(\.leaf)
            let cascades = recordTouched ? plan.cascades : plan.cascades.filter { $0.leaf == nil }
            var added = count
            var round = 0
            while added > 0 && !cascades.isEmpty {
                round += 1
                try db.execute("DELETE FROM \(BatchPlanner.roundTable); INSERT INTO \(BatchPlanner.roundTable) (\(ColumnName("r"))) VALUES (\(round))")
                added = 0
                for cascade in cascades {
                    try db.execute(cascade.statement)
                    added += db.changesCount
                }
            }
            for check in plan.denyChecks {
                let rows = try Row.fetchCursor(db, check.query)
                while let row = try rows.next() {
                    blockerTotal += 1
                    guard blockers.count < BatchError.blockerLimit else { continue }
                    blockers.append(DeleteBlocker(
                        object: ObjectID(storeUUID: storeUUID, entity: row[0], primaryKey: row[1]),
                        relationship: check.relationship,
                        related: ObjectID(storeUUID: storeUUID, entity: row[2], primaryKey: row[3])))
                }
            }
            if blockerTotal > 0 {
                try db.execute("DELETE FROM \(BatchPlanner.doomedTable)")
                return
            }
            for leaf in leaves {
                if wantIDs {
                    let rows = try Row.fetchCursor(db, leaf.returningStatement)
                    while let row = try rows.next() {
                        changes.add(deleted: ObjectID(storeUUID: storeUUID, entity: leaf.entity, primaryKey: row[0]))
                    }
                } else {
                    try db.execute(leaf.statement)
                    if db.changesCount > 0 { changes.deletedCounts[leaf.entity, default: 0] += db.changesCount }
                }
            }
            let cleanup = plan.beforeDelete
            if recordTouched { for statement in cleanup.relatedTouched { try db.execute(statement) } }
            for nullify in cleanup.nullify {
                if recordTouched { try db.execute(nullify.touched) }
                if wantIDs || layout.entities.values.contains(where: { $0.root == nullify.rootEntity && $0.isDiscriminated }) {
                    let rows = try Row.fetchCursor(db, nullify.updateReturning)
                    while let row = try rows.next() {
                        let entity: String = nullify.returnsEntity ? row[1] : nullify.rootEntity
                        var ignored: [ObjectID] = []
                        collect(entity, row[0], storeUUID: storeUUID, into: &changes, ids: &ignored, keepIDs: wantIDs, updated: true)
                    }
                } else {
                    try db.execute(nullify.update)
                    if db.changesCount > 0 { changes.updatedCounts[nullify.rootEntity, default: 0] += db.changesCount }
                }
            }
            for statement in cleanup.unlink { try db.execute(statement) }
            for statement in cleanup.joinDeletes { try db.execute(statement) }
            // What is deleted: the request's own rows (result IDs) and every doomed row (change set).
            if wantIDs {
                let rows = try Row.fetchCursor(db, "SELECT \(BatchPlanner.entityColumn), \(BatchPlanner.pkColumn), \(ColumnName("cascaded")) = 0 FROM \(BatchPlanner.doomedTable)")
                var seedIDs: [ObjectID] = []
                while let row = try rows.next() {
                    let id = ObjectID(storeUUID: storeUUID, entity: row[0], primaryKey: row[1])
                    changes.add(deleted: id)
                    if row[2] as Bool { seedIDs.append(id) }
                }
                ids = seedIDs
            } else {
                let rows = try Row.fetchCursor(db, "SELECT \(BatchPlanner.entityColumn), COUNT(*) FROM \(BatchPlanner.doomedTable) GROUP BY \(BatchPlanner.entityColumn)")
                while let row = try rows.next() { changes.deletedCounts[row[0], default: 0] += row[1] as Int }
            }
            for statement in plan.deletes { try db.execute(statement) }
            try db.execute("DELETE FROM \(BatchPlanner.doomedTable)")
            if count > 0 { try checkUserReferences(after: layout, db) }
        }
        if blockerTotal > 0 { throw .denied(blockers: blockers, total: blockerTotal) }
        changes.normalize()
        return BatchResult(kind: .delete, entity: request.entity, count: count,
                           objectIDs: request.resultType == .objectIDs ? ids.sorted() : nil, changes: changes)
    }
}
