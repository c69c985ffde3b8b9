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
    /// Every column of another table that holds a one-to-one to this entity (destination rows a link may change).
    public var linkColumns: [LinkColumn] = []
    /// Foreign keys of the new rows whose values may name no object (literal primary keys, key paths), checked
    /// after the insert (`BatchInsertPlanner.danglingReferences`); a `$source` value is not among them.
    public var referenceChecks: [ReferenceCheck] = []
    /// With `onConflict: update` into a table with one uniqueness constraint: per statement of `statements`,
    /// the same work as an update of the rows whose key exists and an insert of the others
    /// (`BatchInsertPlanner.upsert`), the form PostgreSQL runs; nil where a statement's rows cannot conflict.
    public var upserts: [Upsert?] = []

    /// An upsert as two statements: no row is proposed to `ON CONFLICT`, so no identity value is spent on one.
    public struct Upsert: Sendable, Hashable {
        /// `UPDATE … FROM (proposals) … RETURNING x."_pk"[, x."_entity"]`: sets the named columns of the rows whose
        /// key is proposed; nil when the insert names no column to set (SQLite's `DO NOTHING`).
        public var update: SQLText?
        /// `INSERT … SELECT` of the proposals whose key no row has.
        public var insert: SQLText
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
