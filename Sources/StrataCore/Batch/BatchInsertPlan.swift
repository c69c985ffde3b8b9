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
    /// With `onConflict: update`, per statement of `statements`, the form PostgreSQL runs where its own
    /// `ON CONFLICT` cannot: a `from:` insert into a table with one uniqueness constraint, a literal row into a
    /// table with several (`BatchInsertPlanner.upsert`); nil where a statement needs none (a literal row into a
    /// table with one constraint: PostgreSQL's own `ON CONFLICT` does as SQLite does).
    public var upserts: [Upsert?] = []

    /// An upsert that proposes each key once, its new objects keyed as SQLite's would be.
    public struct Upsert: Sendable, Hashable {
        /// The number of source rows (each takes one `_pk` on SQLite, inserted or not).
        public var count: SQLText
        /// The insert before and after its bound `base` key (`insert(above:)`).
        public var head: SQLText
        public var tail: SQLText
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
