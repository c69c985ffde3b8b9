import Foundation
import GRDB

extension BatchExecutor {
    /// Runs a `setRelationship` step: the ambiguity check (a cheap query first; the search for the
    /// ambiguous object only when one is possible), then one set-based statement.
    /// - Throws: `BatchError` (invalid: 2), `RelationshipAmbiguityError` (3).
    static func execute(_ request: SetRelationshipRequest, in db: Database, model: Model, layout: StoreLayout,
                        storeUUID: String, context: PredicateContext, recordTouched: Bool,
                        collectObjectIDs: Bool = false) throws -> BatchResult {
        let plan = try RelationshipLinkPlanner(model: model, layout: layout).plan(request, context: context)
        let wantIDs = request.resultType == .objectIDs || collectObjectIDs
        var changes = ChangeSet()
        changes.hasObjectIDs = wantIDs
        var count = 0
        var ids: [ObjectID] = []
        var ambiguous: RelationshipAmbiguityError?
        var unlinked: [ObjectID] = []   // in the change set, not in the result's IDs (which lists the links set)
        try run(plan.link.sql) {
            for check in plan.ambiguities {
                guard try fetchOne(Int.self, check.candidates, db) != nil else { continue }
                let (sql, arguments) = check.query.rendered()
                if let row = try Row.fetchOne(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue))) {
                    ambiguous = try ambiguityError(row, check: check, plan: plan, storeUUID: storeUUID, db: db)
                    return
                }
            }
            if let unlink = plan.unlinking {
                // A one-to-one: the objects linked anew leave their old partners (SPEC §11.4: a match overwrites).
                try run(unlink, db, recordTouched: recordTouched, storeUUID: storeUUID, into: &changes, ids: &unlinked, keepIDs: wantIDs)
            }
            guard recordTouched || wantIDs || plan.needsKeys else {
                try execute(plan.link, db)
                count = db.changesCount
                changes.updatedCounts[plan.changedRoot, default: 0] += count
                return
            }
            try execute(RelationshipLinkPlanner.createKeysTable, db)
            try execute("DELETE FROM \(RelationshipLinkPlanner.keysTable)", db)
            try execute(plan.selectKeys, db)
            try execute(plan.linkKeyed, db)
            count = db.changesCount
            if recordTouched { for statement in plan.recordTouched { try execute(statement, db) } }
            let (sql, _) = ("SELECT \"pk\", \"entity\" FROM \(RelationshipLinkPlanner.keysTable) ORDER BY \"pk\"" as SQLText).rendered()
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                collect(row[1], row[0], storeUUID: storeUUID, into: &changes, ids: &ids, keepIDs: wantIDs, updated: true)
            }
            try execute("DELETE FROM \(RelationshipLinkPlanner.keysTable)", db)
        }
        if let ambiguous { throw ambiguous }
        changes.normalize()
        ids.sort()
        return BatchResult(kind: .link, entity: request.entity, count: count,
                           objectIDs: request.resultType == .objectIDs ? ids : nil, changes: changes)
    }

    /// The error naming the ambiguous object, its keys and two of the objects it matched.
    static func ambiguityError(_ row: Row, check: RelationshipLinkPlan.Ambiguity, plan: RelationshipLinkPlan, storeUUID: String,
                               db: Database) throws -> RelationshipAmbiguityError {
        let roots = plan.roots
        let (ambiguousRoot, otherRoot) = check.sourceIsAmbiguous ? (roots.source, roots.destination) : (roots.destination, roots.source)
        let otherDiscriminated = check.sourceIsAmbiguous ? roots.destinationDiscriminated : roots.sourceDiscriminated
        let keyNames = check.sourceIsAmbiguous ? plan.sourceKeys : plan.destinationKeys
        let otherTable = check.sourceIsAmbiguous ? plan.destinationTable : plan.sourceTable
        let ownEntity: String? = row[1]
        let object = ObjectID(storeUUID: storeUUID, entity: ownEntity ?? ambiguousRoot, primaryKey: row[0])
        let keys = keyNames.enumerated().map { i, name in "\(name) = \(Value(databaseValue: row[2 + i] as DatabaseValue))" }
        var matches: [ObjectID] = []
        for i in 0..<2 {
            let key: Int64 = row[2 + keyNames.count + i]
            var entity = otherRoot
            if otherDiscriminated {
                entity = try fetchOne(String.self, "SELECT \(ColumnName("_entity")) FROM \(TableName(otherTable)) WHERE \(ColumnName("_pk")) = \(key)", db) ?? otherRoot
            }
            matches.append(ObjectID(storeUUID: storeUUID, entity: entity, primaryKey: key))
        }
        return RelationshipAmbiguityError(relationship: "\(plan.entity).\(plan.relationship)", object: object, keys: keys,
                                          matches: matches, matchedEntity: check.sourceIsAmbiguous ? plan.destination : plan.entity)
    }
}
