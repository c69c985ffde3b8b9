import StrataCore
import Strata

extension PostgresHookRunner {
    /// PostgreSQL's form of `RelationshipLinkPlanner.keysTable` (`pg_temp."strata_link_keys"`): `bigint` keys,
    /// dropped when the step's transaction ends.
    static let createLinkKeys: SQLText = """
        CREATE TEMP TABLE IF NOT EXISTS "strata_link_keys" ("pk" bigint PRIMARY KEY, "entity" text NOT NULL, \
        "other" bigint NOT NULL, "rank" bigint NOT NULL) ON COMMIT DROP
        """

    /// One updated object into `changes`: its ID when IDs are wanted (returned), else its entity's count.
    func collect(_ entity: String, _ key: Int64, into changes: inout ChangeSet, wantIDs: Bool) -> ObjectID? {
        guard wantIDs else {
            changes.updatedCounts[entity, default: 0] += 1
            return nil
        }
        let id = ObjectID(storeUUID: storeUUID, entity: entity, primaryKey: key)
        changes.add(updated: id)
        return id
    }

    /// The first ambiguous match of a link, as SQLite reports it (`BatchExecutor.ambiguityError`): the object, its
    /// `match` values (in SQLite's storage form) and two of the objects it matches; nil when there is none. The
    /// cheap query runs first; the search only when an ambiguity is possible.
    func ambiguity(_ plan: RelationshipLinkPlan) async throws -> RelationshipAmbiguityError? {
        for check in plan.ambiguities {
            guard try await !run(check.candidates).rows.isEmpty, let row = try await run(check.query).rows.first else { continue }
            let query = check.query, roots = plan.roots
            let (own, other) = check.sourceIsAmbiguous ? (roots.source, roots.destination) : (roots.destination, roots.source)
            let otherDiscriminated = check.sourceIsAmbiguous ? roots.destinationDiscriminated : roots.sourceDiscriminated
            let otherTable = check.sourceIsAmbiguous ? plan.destinationTable : plan.sourceTable
            let keyNames = check.sourceIsAmbiguous ? plan.sourceKeys : plan.destinationKeys
            let ownEntity = row[1].bytes == nil ? own : try PostgresSession.decode(row[1], as: String.self, statement: query)
            let object = ObjectID(storeUUID: storeUUID, entity: ownEntity,
                                  primaryKey: try PostgresSession.decode(row[0], as: Int64.self, statement: query))
            var keys: [String] = []
            for (i, name) in keyNames.enumerated() { keys.append("\(name) = \(try PostgresCellValue.value(row[2 + i], statement: query))") }
            var matches: [ObjectID] = []
            for i in 0..<2 {
                let key = try PostgresSession.decode(row[2 + keyNames.count + i], as: Int64.self, statement: query)
                var entity = other
                if otherDiscriminated {
                    let lookup: SQLText = "SELECT \(ColumnName("_entity")) FROM \(TableName(otherTable)) WHERE \(ColumnName("_pk")) = \(key)"
                    entity = try await session.value(lookup, as: String.self) ?? other
                }
                matches.append(ObjectID(storeUUID: storeUUID, entity: entity, primaryKey: key))
            }
            return RelationshipAmbiguityError(relationship: "\(plan.entity).\(plan.relationship)", object: object, keys: keys,
                                              matches: matches, matchedEntity: check.sourceIsAmbiguous ? plan.destination : plan.entity)
        }
        return nil
    }
}
