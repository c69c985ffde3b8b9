import StrataCore

extension PostgresHookRunner {
    /// PostgreSQL's form of `RelationshipLinkPlanner.keysTable` (`pg_temp."strata_link_keys"`): `bigint` keys,
    /// dropped when the step's transaction ends.
    static let createLinkKeys: SQLText = """
        CREATE TEMP TABLE IF NOT EXISTS "strata_link_keys" ("pk" bigint PRIMARY KEY, "entity" text NOT NULL, \
        "other" bigint NOT NULL, "rank" bigint NOT NULL) ON COMMIT DROP
        """

    /// Whether a `setRelationship` runs keyed, as SQLite runs it: the links it sets listed first in the keys
    /// table (an ordered relationship appends in `_pk` order from it; `objectIDs` lists the rows it names).
    static func runsKeyed(_ plan: RelationshipLinkPlan, _ request: SetRelationshipRequest) -> Bool {
        plan.needsKeys || request.resultType == .objectIDs
    }

    /// A keyed `setRelationship` (after its ambiguity checks): a one-to-one's unlink (listing the objects it
    /// changes), the links to set into the keys table, one statement setting them from it, then the keys read
    /// back in `_pk` order: the same statements, counts and object IDs as SQLite's keyed run.
    func runKeyed(_ plan: RelationshipLinkPlan, _ request: SetRelationshipRequest) async throws -> BatchResult {
        let wantIDs = request.resultType == .objectIDs
        var changes = ChangeSet()
        changes.hasObjectIDs = wantIDs
        if let unlink = plan.unlinkReturning {
            for row in try await run(unlink).rows {
                let key = try PostgresSession.decode(row[0], as: Int64.self, statement: unlink)
                let entity = plan.unlinkReturnsEntity ? try PostgresSession.decode(row[1], as: String.self, statement: unlink) : plan.unlinkRoot
                _ = collect(entity, key, into: &changes, wantIDs: wantIDs)
            }
        }
        let keys = RelationshipLinkPlanner.keysTable
        try await run(Self.createLinkKeys)
        try await run("DELETE FROM \(keys)")
        try await run(plan.selectKeys)
        let count = try await run(plan.linkKeyed).affected
        var ids: [ObjectID] = []
        let listed: SQLText = "SELECT \"pk\", \"entity\" FROM \(keys) ORDER BY \"pk\""
        for row in try await run(listed).rows {
            let entity = try PostgresSession.decode(row[1], as: String.self, statement: listed)
            let key = try PostgresSession.decode(row[0], as: Int64.self, statement: listed)
            if let id = collect(entity, key, into: &changes, wantIDs: wantIDs) { ids.append(id) }
        }
        try await run("DELETE FROM \(keys)")
        changes.normalize()
        return BatchResult(kind: .link, entity: request.entity, count: count, objectIDs: wantIDs ? ids.sorted() : nil, changes: changes)
    }

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
}
