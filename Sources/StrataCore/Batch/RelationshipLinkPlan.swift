/// The SQL of one `setRelationship` step.
public struct RelationshipLinkPlan: Sendable, Hashable {
    /// Where the link is stored, which decides what an ambiguity is.
    public enum Storage: String, Sendable, Hashable {
        /// On the source row: several destinations for one source are ambiguous.
        case sourceRow
        /// On the destination row: several sources for one destination are ambiguous.
        case destinationRow
        /// In a join table: every match is linked.
        case joinTable
    }

    public var entity: String
    public var relationship: String
    public var destination: String
    public var storage: Storage
    public var sourceTable: String
    public var destinationTable: String
    public var sourceKeys: [String]
    public var destinationKeys: [String]
    /// The ambiguity checks, in order: each a cheap query first, then the search for the ambiguous object.
    public var ambiguities: [Ambiguity] = []
    /// (source root, destination root, whether each is in a hierarchy table).
    public var roots: (source: String, destination: String, sourceDiscriminated: Bool, destinationDiscriminated: Bool) = ("", "", false, false)
    /// A one-to-one only: clears the links of the stored side's rows that point at an object the step links to
    /// another one (that object moves to its new partner), run before the link.
    public var unlinking: Unlink?
    /// `unlinking`'s statement.
    public var unlink: SQLText? { unlinking?.update }

    /// One way a match can be ambiguous (SPEC §11.4).
    public struct Ambiguity: Sendable, Hashable {
        /// A cheap query with a row only when an ambiguity is possible (two objects on the other side share a key).
        public var candidates: SQLText
        /// The first ambiguous object: its `_pk`, its entity, its key values, and the first two objects it matches.
        public var query: SQLText
        /// A source that matches several destinations (else a destination that several sources match).
        public var sourceIsAmbiguous: Bool

        /// Objects of `own` that match two rows of `other`; possible only when two rows of `other` share a key.
        init(_ own: Side, matching other: Side, sourceIsAmbiguous: Bool) {
            let pk = ColumnName("_pk", qualifier: own.alias), second: SQLText = "(" + other.matches + " LIMIT 1 OFFSET 1)"
            candidates = "SELECT 1 FROM \(other.table) AS \(keyword: other.alias) WHERE " + other.condition
                + other.keys.map { k -> SQLText in " AND \(k) IS NOT NULL" }.joined() + " GROUP BY \(other.keys) HAVING count(*) > 1 LIMIT 1"
            query = "SELECT \(pk), " + own.entity + ", " + own.keys.map { "\($0)" as SQLText }.joined(separator: ", ")
                + ", (" + other.matches + " LIMIT 1), " + second + " FROM \(own.table) AS \(keyword: own.alias) WHERE " + own.condition
                + " AND " + second + " IS NOT NULL ORDER BY \(pk) LIMIT 1"
            self.sourceIsAmbiguous = sourceIsAmbiguous
        }
    }

    /// One side of a link, for its ambiguity query: its table and alias, the condition on its rows, each row's
    /// entity, its `match` keys, and the rows of the other side that one of its rows matches (in `_pk` order).
    struct Side {
        var table: TableName
        var alias: String
        var condition: SQLText
        var entity: SQLText
        var keys: [ColumnName]
        var matches: SQLText
    }

    /// The one statement that sets the links (no record of which).
    public var link: SQLText = ""
    /// Fills `RelationshipLinkPlanner.keysTable` with the rows a keyed run writes.
    public var selectKeys: SQLText = ""
    /// Sets the links listed in the keys table (the join insert needs none).
    public var linkKeyed: SQLText = ""
    /// Records the written rows for the audit.
    public var recordTouched: [SQLText] = []
    /// The root entity of the rows written, for counts when the table holds one entity.
    public var changedRoot: String = ""
    /// Whether the keyed run is needed even without touched rows or IDs (ordered links).
    public var needsKeys = false

    /// A one-to-one's unlinking (SPEC §11.4: a match overwrites): the rows of a table whose key `column` holds
    /// one of `partners` and that are not among `kept` lose their link, in one statement. `setRelationship` and a
    /// batch insert that sets a one-to-one stored on the new row (`BatchInsertPlanner.unlinks`) run it.
    public struct Unlink: Sendable, Hashable {
        /// `UPDATE "T" AS o SET "column" = NULL WHERE …`.
        public var update: SQLText
        /// `update` with `RETURNING "_pk"[, "_entity"]`.
        public var returning: SQLText
        /// Records the rows `update` changes as touched (run before it).
        public var touched: SQLText
        /// The root entity of the rows `update` changes, and whether `returning` returns their `_entity`.
        public var root: String
        public var returnsEntity: Bool

        init(_ storage: EntityStorage, column: String, from partners: SQLText, keeping kept: SQLText) {
            let o = ColumnName(column, qualifier: "o"), pk = ColumnName("_pk", qualifier: "o"), table = TableName(storage.table)
            let condition: SQLText = "\(o) IN (" + partners + ") AND \(pk) NOT IN (" + kept + ")"
            update = "UPDATE \(table) AS o SET \(ColumnName(column)) = NULL WHERE " + condition
            returning = update + " RETURNING \(ColumnName("_pk"))" + (storage.isDiscriminated ? ", \(ColumnName("_entity"))" : "")
            touched = BatchPlanner.recordingTouched(storage.table, "\(pk) FROM \(table) AS o WHERE " + condition)
            root = storage.root
            returnsEntity = storage.isDiscriminated
        }
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.link == b.link && a.selectKeys == b.selectKeys && a.linkKeyed == b.linkKeyed && a.ambiguities == b.ambiguities
            && a.recordTouched == b.recordTouched && a.storage == b.storage
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(link)
        hasher.combine(selectKeys)
    }
}
