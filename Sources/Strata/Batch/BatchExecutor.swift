import Foundation
import GRDB

/// Runs batch requests on a GRDB `Database`, inside a transaction the caller already opened
/// (the hooks runner and `migrate` call it inside a version step's transaction; `Store.execute`
/// opens its own). Every statement is set-based; no loop over rows in Swift.
enum BatchExecutor {
    /// Runs a batch update.
    /// - Parameters:
    ///   - request: the update.
    ///   - db: a connection inside an open transaction.
    ///   - storeUUID: for object IDs.
    ///   - context: `$NOW`, `$VARIABLES` (the request carries its own `%@` arguments).
    ///   - recordTouched: record the updated rows in `temp.strata_touched` for the audit. With false
    ///     (and `.statusOnly`), the batch is exactly one `UPDATE`, as fast as the bare SQL.
    ///   - collectObjectIDs: list IDs in the change set even when the result type does not ask.
    ///   - keepKeys: with `recordTouched`, leave the matched keys in `temp.strata_batch_keys` for an audit of
    ///     this batch alone (`Auditor.afterBatch(batchKeysOf:)`) instead of copying them into
    ///     `temp.strata_touched`. Measured at 1,000,000 rows (78,000 matched): the copy was 32–36 ms, and the
    ///     counts read the rowid keys table 10–15 ms faster than the `("table", "pk")` key.
    /// - Throws: `BatchError`.
    static func execute(_ request: BatchUpdateRequest, in db: Database, model: Model, layout: StoreLayout,
                        storeUUID: String, context: PredicateContext, recordTouched: Bool,
                        collectObjectIDs: Bool = false, keepKeys: Bool = false) throws(BatchError) -> BatchResult {
        var context = context
        context.arguments = request.arguments
        let plan = try BatchPlanner(model: model, layout: layout).planUpdate(request, context: context)
        let wantIDs = request.resultType == .updatedObjectIDs || collectObjectIDs
        var changes = ChangeSet()
        changes.hasObjectIDs = wantIDs
        var count = 0
        var ids: [ObjectID] = []
        try run(plan.update(returning: false).sql) {
            if recordTouched {
                try db.execute(BatchPlanner.createTouchedTable)
                try prepareKeys(db)
                try db.execute(plan.selectKeys)
                try db.execute(plan.updateKeyed)
                count = db.changesCount
                if !keepKeys { try db.execute(plan.recordTouched) }
                if wantIDs || plan.isDiscriminated {
                    let rows = try Row.fetchCursor(db, "SELECT \(BatchPlanner.pkColumn), \(BatchPlanner.entityColumn) FROM \(BatchPlanner.keysTable) ORDER BY \(BatchPlanner.pkColumn)")
                    while let row = try rows.next() {
                        collect(row[1], row[0], storeUUID: storeUUID, into: &changes, ids: &ids, keepIDs: wantIDs, updated: true)
                    }
                } else {
                    changes.updatedCounts[plan.rootEntity] = count
                }
                if !keepKeys { try db.execute("DELETE FROM \(BatchPlanner.keysTable)") }
            } else if wantIDs || plan.isDiscriminated {
                let rows = try Row.fetchCursor(db, plan.update(returning: true))
                while let row = try rows.next() {
                    let entity: String = plan.isDiscriminated ? row[1] : plan.rootEntity
                    collect(entity, row[0], storeUUID: storeUUID, into: &changes, ids: &ids, keepIDs: wantIDs, updated: true)
                    count += 1
                }
            } else {
                try db.execute(plan.update(returning: false))
                count = db.changesCount
                changes.updatedCounts[plan.rootEntity] = count
            }
        }
        changes.normalize()
        ids.sort()
        return BatchResult(kind: .update, entity: request.entity, count: count,
                           objectIDs: request.resultType == .updatedObjectIDs ? ids : nil, changes: changes)
    }

    static func prepareKeys(_ db: Database) throws {
        try db.execute("CREATE TEMP TABLE IF NOT EXISTS \(TableName(BatchPlanner.keysTable.name)) (\(BatchPlanner.pkColumn) INTEGER PRIMARY KEY, \(BatchPlanner.entityColumn) TEXT NOT NULL)")
        try db.execute("DELETE FROM \(BatchPlanner.keysTable)")
    }

    /// Runs a one-to-one's unlinking (`setRelationship`, a batch insert that sets one): its rows recorded as touched
    /// first when asked, then the update, each changed row collected as updated.
    static func run(_ unlink: RelationshipLinkPlan.Unlink, _ db: Database, recordTouched: Bool, storeUUID: String,
                    into changes: inout ChangeSet, ids: inout [ObjectID], keepIDs: Bool) throws {
        if recordTouched { try execute(unlink.touched, db) }
        let (sql, arguments) = unlink.returning.rendered()
        let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
        while let row = try rows.next() {
            let entity: String = unlink.returnsEntity ? row[1] : unlink.root
            collect(entity, row[0], storeUUID: storeUUID, into: &changes, ids: &ids, keepIDs: keepIDs, updated: true)
        }
    }

    static func collect(_ entity: String, _ pk: Int64, storeUUID: String, into changes: inout ChangeSet, ids: inout [ObjectID],
                        keepIDs: Bool, updated: Bool) {
        if keepIDs {
            let id = ObjectID(storeUUID: storeUUID, entity: entity, primaryKey: pk)
            ids.append(id)
            if updated { changes.add(updated: id) } else { changes.add(deleted: id) }
        } else if updated {
            changes.updatedCounts[entity, default: 0] += 1
        } else {
            changes.deletedCounts[entity, default: 0] += 1
        }
    }

    /// Runs `body`, turning SQLite errors into `BatchError`s (uniqueness → 1551).
    static func run(_ sql: String, _ body: () throws -> Void) throws(BatchError) {
        do {
            try body()
        } catch let error as BatchError {
            throw error
        } catch let error as DatabaseError {
            throw classify(error, sql: sql)
        } catch {
            throw .database(message: "\(error)", sql: sql)
        }
    }

    static func classify(_ error: DatabaseError, sql: String) -> BatchError {
        let message = error.message ?? "\(error)"
        if error.resultCode == .SQLITE_FULL { return .outOfSpace(message: message) }
        if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE { return .uniqueness(message) }
        if error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY { return .danglingReference(message) }
        return .database(message: message, sql: error.sql ?? sql)
    }
}
