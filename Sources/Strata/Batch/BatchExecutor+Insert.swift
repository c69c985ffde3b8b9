import Foundation
import GRDB

extension BatchExecutor {
    /// Runs a batch insert: one `INSERT … SELECT` (`from:`), or one `INSERT` per literal or handler row.
    ///
    /// New rows get `_pk`s above every one the table ever used (`AUTOINCREMENT`), so the rows this insert
    /// made are exactly those above the table's high-water mark read before it: that range is what is
    /// recorded as touched and listed as inserted, set-based.
    /// - Throws: `BatchError` (invalid: 2; uniqueness without `onConflict`: 1551, 3).
    static func execute(_ request: BatchInsertRequest, in db: Database, model: Model, layout: StoreLayout,
                        storeUUID: String, context: PredicateContext, recordTouched: Bool,
                        collectObjectIDs: Bool = false) throws(BatchError) -> BatchResult {
        let planner = BatchInsertPlanner(model: model, layout: layout)
        let plan = try planner.plan(request, context: context)
        let wantIDs = request.resultType == .objectIDs || collectObjectIDs
        let table = TableName(plan.table)
        let pk = ColumnName("_pk")
        var changes = ChangeSet()
        changes.hasObjectIDs = wantIDs
        var count = 0
        var ids: [ObjectID] = []
        let updates = request.onConflict == .update
        try run(plan.statements.first?.sql ?? "INSERT") {
            let highWater: SQLText = "SELECT max(coalesce((SELECT \"seq\" FROM \"sqlite_sequence\" WHERE \"name\" = \(plan.table)), 0), "
                + "coalesce((SELECT max(\(pk)) FROM \(table)), 0))"
            let linksOthers = !plan.sourceLinks.isEmpty || plan.rowLinks.contains { !$0.isEmpty } || request.dictionaryHandler != nil && !plan.linkColumns.isEmpty
            let checksReferences = !plan.referenceChecks.isEmpty
            let unlinks = !plan.unlinkColumns.isEmpty
            let before = recordTouched || wantIDs || updates || linksOthers || checksReferences || unlinks ? try fetchOne(Int64.self, highWater, db) ?? 0 : 0
            // Existing rows an `onConflict: update` changed: listed by RETURNING (the new rows are above `before`).
            var updated: [(Int64, String)] = []
            // Per key column of a one-to-one stored on the rows, the existing rows a statement that sets it updated.
            var setting: [String: [Int64]] = [:]
            func insert(_ statement: SQLText, links: [SQLText] = [], unlinkColumns: [String]) throws {
                try insertOne(statement, unlinkColumns: unlinkColumns)
                for link in links { try execute(link, db) }
            }
            func insertOne(_ statement: SQLText, unlinkColumns: [String]) throws {
                if updates {
                    let returning: SQLText = statement + " RETURNING \(pk)" + (plan.isDiscriminated ? ", \(ColumnName("_entity"))" : "")
                    let (sql, arguments) = returning.rendered()
                    let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
                    while let row = try rows.next() {
                        let key: Int64 = row[0]
                        guard key <= before else { continue }
                        updated.append((key, plan.isDiscriminated ? row[1] : layout.storage(of: request.entity)!.root))
                        for column in unlinkColumns { setting[column, default: []].append(key) }
                    }
                } else {
                    try execute(statement, db)
                    count += db.changesCount
                }
            }
            for (i, statement) in plan.statements.enumerated() {
                try insert(statement, links: i < plan.rowLinks.count ? plan.rowLinks[i] : [],
                           unlinkColumns: i < plan.rowUnlinkColumns.count ? plan.rowUnlinkColumns[i] : [])
            }
            if let handler = request.dictionaryHandler {
                while true {
                    var row: [String: Value] = [:]
                    if handler(&row) { break }
                    let (statement, links, _) = try planner.insertRow(row.mapValues(UpdateValue.value), request: request, context: context)
                    try insert(statement, links: links, unlinkColumns: planner.unlinkColumns(plan, setBy: row.keys))
                }
            }
            for link in plan.sourceLinks { try execute(planner.linkStatement(link, table: plan.table, above: before), db) }
            // A one-to-one stored on the rows: an object a row that set it links to leaves its earlier partner.
            var unlinked: [ObjectID] = []   // in the change set, not in the result's IDs (which lists the new objects)
            for unlink in planner.unlinks(plan, above: before, updated: setting) {
                try run(unlink, db, recordTouched: recordTouched, storeUUID: storeUUID, into: &changes, ids: &unlinked, keepIDs: wantIDs)
            }
            if let dangling = planner.danglingReferences(plan, above: updates ? nil : before) {
                try checkReferences(dangling, entity: request.entity, db)
            }
            let inserted: SQLText = "FROM \(table) WHERE \(pk) > \(before)"
            if updates { count = try fetchOne(Int.self, "SELECT count(*) " + inserted, db) ?? 0 }
            if recordTouched {
                try execute("INSERT OR IGNORE INTO \(RelationshipLinkPlanner.touchedTable) (\"table\", \"pk\") SELECT \(plan.table), \(pk) " + inserted, db)
                if linksOthers {
                    // Destinations of one-to-ones stored on their side that now point at a new object.
                    for link in plan.linkColumns {
                        try execute("INSERT OR IGNORE INTO \(RelationshipLinkPlanner.touchedTable) (\"table\", \"pk\") SELECT \(link.table), \(pk) FROM \(TableName(link.table)) WHERE \(ColumnName(link.column)) > \(before)", db)
                    }
                }
                for (key, _) in updated {
                    try execute("INSERT OR IGNORE INTO \(RelationshipLinkPlanner.touchedTable) (\"table\", \"pk\") VALUES (\(plan.table), \(key))", db)
                }
            }
            if wantIDs {
                let entity: SQLText = plan.isDiscriminated ? "\(ColumnName("_entity"))" : "\(request.entity)"
                let (sql, arguments) = ("SELECT \(pk), " + entity + " " + inserted + " ORDER BY \(pk)").rendered()
                let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
                while let row = try rows.next() {
                    let id = ObjectID(storeUUID: storeUUID, entity: row[1], primaryKey: row[0])
                    ids.append(id)
                    changes.add(inserted: id)
                }
                for (key, entity) in updated { changes.add(updated: ObjectID(storeUUID: storeUUID, entity: entity, primaryKey: key)) }
            } else {
                changes.insertedCounts[request.entity] = count
                for (_, entity) in updated { changes.updatedCounts[entity, default: 0] += 1 }
            }
        }
        changes.normalize()
        return BatchResult(kind: .insert, entity: request.entity, count: count,
                           objectIDs: request.resultType == .objectIDs ? ids : nil, changes: changes)
    }

    /// Executes a statement built as `SQLText`.
    static func execute(_ statement: SQLText, _ db: Database) throws {
        let (sql, arguments) = statement.rendered()
        try db.execute(sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
    }

    /// The first column of the first row of a statement built as `SQLText`.
    static func fetchOne<T: DatabaseValueConvertible>(_ type: T.Type, _ statement: SQLText, _ db: Database) throws -> T? {
        let (sql, arguments) = statement.rendered()
        return try T.fetchOne(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
    }
}
