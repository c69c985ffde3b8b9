import StrataCore

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
}
