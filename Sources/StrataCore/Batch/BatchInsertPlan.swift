/// The SQL of one batch insert.
public struct BatchInsertPlan: Sendable, Hashable {
    public var entity: String
    public var table: String
    public var isDiscriminated: Bool
    public var onConflict: BatchInsertConflictPolicy
    /// One `INSERT … SELECT` (`from:`), or one `INSERT … VALUES` per literal row.
    public var statements: [SQLText]
    /// After each statement of `statements`: the updates linking the new row from one-to-ones stored on the other side.
    public var rowLinks: [[SQLText]] = []
    /// For `from:`: the one-to-ones stored on the destination's side that the insert sets (`linkStatement`).
    public var sourceLinks: [SourceLink] = []
    /// The key columns of one-to-ones stored on the new rows that the insert may set: an object a row that sets
    /// one links to leaves its earlier partner (`BatchInsertPlanner.unlinks`), as with `setRelationship`.
    public var unlinkColumns: [String] = []
    /// Per statement of `statements`, the columns of `unlinkColumns` it sets (each of them for `from:`): an existing
    /// row an `onConflict: update` wrote keeps its link only if a statement that sets the column wrote it.
    public var rowUnlinkColumns: [[String]] = []
    /// Every column of another table that holds a one-to-one to this entity (destination rows a link may change).
    public var linkColumns: [LinkColumn] = []
    /// Foreign keys of the new rows whose values may name no object (literal primary keys, key paths), checked
    /// after the insert (`BatchInsertPlanner.danglingReferences`); a `$source` value is not among them.
    public var referenceChecks: [ReferenceCheck] = []
    /// With `onConflict: update`, per statement of `statements`, the form PostgreSQL runs where its own
    /// `ON CONFLICT` cannot: a `from:` insert into a table with one uniqueness constraint, a literal row into a
    /// table with several (`BatchInsertPlanner.upsert`); nil where a statement needs none (a literal row into a
    /// table with one constraint: PostgreSQL's own `ON CONFLICT` does as SQLite does).
    public var upserts: [Upsert?] = []
    /// With `onConflict: update`, a `from:` insert into a table with several uniqueness constraints in the form
    /// PostgreSQL runs: SQLite's row-by-row upsert replayed on the server (`BatchInsertPlanner.rowByRowUpsert`);
    /// nil for every other insert.
    public var rowByRow: RowByRowUpsert? = nil

    /// An upsert that proposes each key once, its new objects keyed as SQLite's would be. It returns the rows it
    /// wrote, `_pk`[, `_entity`], each once.
    public struct Upsert: Sendable, Hashable {
        /// The number of source rows (each takes one `_pk` on SQLite, inserted or not).
        public var count: SQLText
        /// The insert before and after its bound `base` key (`insert(above:)`).
        public var head: SQLText
        public var tail: SQLText
        /// Whether each returned row ends with the number of source rows that wrote it (a `from:` insert, where
        /// several source rows may share a key): SQLite's `RETURNING` lists a row once per source row that wrote it.
        public var returnsWriters: Bool = false
    }

    /// A `from:` upsert run row by row on the server, as SQLite runs it: the source rows are written to the work
    /// table `pg_temp."strata_upsert"` (one bound statement), then a PL/pgSQL block takes them in source order.
    public struct RowByRowUpsert: Sendable, Hashable {
        /// Drops the work table once the block has run, so that a later insert of the same transaction can create it.
        public var drop: SQLText
        /// Creates the work table, empty: `strata_k` (the key the source row takes), `strata_target` (the
        /// existing row it updated, or NULL) and `strata_v0`, … (the inserted columns, of the table's types).
        public var create: SQLText
        /// Fills the work table, before and after its bound `base` key (`fill(above:)`); it writes one row per source row.
        public var fillHead: SQLText
        public var fillTail: SQLText
        /// The work table's primary key, `strata_k`, added once it is filled (built in one pass): the block records
        /// each row it updates by its key, one index lookup each rather than a scan of the work table.
        public var key: SQLText
        /// The `DO` block that inserts or updates the rows in `strata_k` order.
        public var loop: SQLText
        /// The rows the source rows updated, one per source row that updated one, in source order: `_pk`[, `_entity`].
        public var updated: SQLText

        /// The fill, its source rows keyed `base + 1`, `base + 2`, … in source `_pk` order.
        public func fill(above base: Int64) -> SQLText { fillHead + .bind(.integer(base)) + fillTail }
    }

    /// A foreign-key column of the inserted table and the table it references.
    public struct ReferenceCheck: Sendable, Hashable {
        public var column: String
        public var parentTable: String
    }

    /// A one-to-one of a `from:` insert stored on the destination's row: `targets` selects, per source row in
    /// `_pk` order, the destination's `_pk` as `"target"` and the row's rank as `"k"`.
    public struct SourceLink: Sendable, Hashable {
        public var table: String
        public var column: String
        public var targets: SQLText
    }

    public struct LinkColumn: Sendable, Hashable {
        public var table: String
        public var column: String
    }
}
