/// What a version step does to one destination table, in no SQL dialect: the shared product of
/// planning, which each engine renders (SQLite as `ALTER TABLE` or a 12-step rebuild, PostgreSQL as
/// in-place `ALTER TABLE`).
///
/// ```swift
/// let step = try MappingInference.plan(models: history.models, from: 1, to: 2)[0]
/// for plan in step.tablePlans.tables {
///     print(plan.table.name, plan.sourceTable ?? "(new)", plan.columns.map { "\($0.spec.name) ← \($0.source)" })
/// }
/// ```
public struct TablePlan: Hashable, Sendable {
    /// One destination column and where its values come from (read from the source row).
    public struct Column: Hashable, Sendable {
        public var spec: ColumnSpec
        public var source: ColumnSource

        public init(spec: ColumnSpec, source: ColumnSource) {
            self.spec = spec
            self.source = source
        }
    }

    /// The rows of one source entity that become rows of one destination kind, in a table filled from several
    /// sources (a merge, several mappings of one source, hierarchies joined), copied in ``parts`` order.
    public struct Part: Hashable, Sendable {
        /// The destination entity (`_entity`) and the source entity its rows come from.
        public var kind: String
        public var source: String
        public var sourceTable: String
        /// Every destination column, in order, with its value over the source row (`_pk` through the
        /// translation table when the rows get new IDs).
        public var columns: [Column]
        /// The mapping file's `filter:` for this source, over the source row.
        public var rowFilter: SQLText?

        public init(kind: String, source: String, sourceTable: String, columns: [Column], rowFilter: SQLText?) {
            self.kind = kind
            self.source = source
            self.sourceTable = sourceTable
            self.columns = columns
            self.rowFilter = rowFilter
        }
    }

    /// The table after the step (its name, columns, primary key and indexes as SQLite records them).
    public var table: TableSpec
    /// The table its rows come from before the step; nil for a new table (empty, or filled by ``linkFill``).
    public var sourceTable: String?
    /// The source entity names whose rows stay (by the source's `_entity`); nil = every row.
    public var keptKinds: [String]?
    /// Every destination column, in order, with its source.
    public var columns: [Column]
    /// Source column → destination column, for the columns carried as they are (possibly renamed).
    public var carried: [String: String]
    /// A mapping file's `filter:` over the source row: the rows it leaves out are dropped.
    public var rowFilter: SQLText?
    /// For a new join table filled from links held elsewhere: `SELECT own, other[, orders] FROM …`,
    /// reading the source tables by their names before the step.
    public var linkFill: SQLText?
    /// The source tables of a table filled from several sources (a merge, several mappings of one
    /// source, hierarchies joined); empty for a table with one source table.
    public var partSources: [String]
    /// The parts of a table filled from several sources, in copy order; empty otherwise.
    public var parts: [Part] = []
    /// For a table filled from parts: the source tables whose highest `_pk` ever used (their rows and key
    /// sequences) its new keys and its key sequence go above (SPEC §11.3 "IDs").
    public var usedIDTables: [String] = []
    /// Its rows get new `_pk`s through the translation table (SPEC §11.3 "IDs").
    public var newIDs: Bool
    /// How SQLite applies it: created, altered in place or rebuilt.
    public var sqliteKind: TableAction.Kind

    public init(table: TableSpec, sourceTable: String?, keptKinds: [String]?, columns: [Column], carried: [String: String],
                rowFilter: SQLText? = nil, linkFill: SQLText? = nil, partSources: [String] = [], newIDs: Bool = false,
                sqliteKind: TableAction.Kind) {
        self.table = table
        self.sourceTable = sourceTable
        self.keptKinds = keptKinds
        self.columns = columns
        self.carried = carried
        self.rowFilter = rowFilter
        self.linkFill = linkFill
        self.partSources = partSources
        self.newIDs = newIDs
        self.sqliteKind = sqliteKind
    }
}

/// The tables of a version step in no SQL dialect (``TablePlan`` per changed table), with the data
/// conditions the step needs. SQLite's statements (`VersionStep.operations`) are rendered from the same
/// plans; another engine renders these.
public struct TablePlans: Hashable, Sendable {
    /// The destination tables that change, with their sources.
    public var tables: [TablePlan] = []
    /// Tables identical in both versions (same name, columns, entities): not touched.
    public var unchanged: [String] = []
    /// Conditions over the source tables, checked before anything changes (e.g. at most one link per
    /// object when a join table's links move into a to-one column).
    public var preChecks: [MigrationCheck] = []
    /// Conditions over the destination tables, checked after the columns are filled and the defaults
    /// set (NULLs in attributes becoming non-optional, duplicates for a new uniqueness, …).
    public var checks: [MigrationCheck] = []
    /// Attributes becoming non-optional whose NULLs get their default, set before ``checks``.
    public var nullDefaults: [NullDefault] = []

    public init() {}

    /// The plan of the destination table `name`.
    public func table(_ name: String) -> TablePlan? { tables.first { $0.table.name == name } }
}

/// NULLs of an attribute becoming non-optional set to its default (SPEC §4).
public struct NullDefault: Hashable, Sendable {
    /// The destination table and column.
    public var table: String
    public var column: String
    /// The default, in its storage form (a bool as 0/1, a date as seconds since 1970).
    public var value: Value
    /// The destination entities whose rows it applies to; nil = every row of the table.
    public var kinds: [String]?

    public init(table: String, column: String, value: Value, kinds: [String]?) {
        self.table = table
        self.column = column
        self.value = value
        self.kinds = kinds
    }
}
