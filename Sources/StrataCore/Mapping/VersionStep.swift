/// The plan of one version step (v → v+1): what changed, and the exact SQL that applies it.
///
/// Produced by `MappingInference` (pure), executed by the `Migrator` in one `BEGIN IMMEDIATE`
/// transaction together with the metadata update. A store several versions behind runs one
/// `VersionStep` per version.
public struct VersionStep: Hashable, Sendable {
    public var fromVersion: Int
    public var toVersion: Int
    /// What the model changes, as a person reads it (`strata diff`).
    public var changes: [MappingChange]
    /// What happens to each table the step touches.
    public var tableActions: [TableAction]
    /// The work, in order.
    public var operations: [MigrationOperation]
    /// The layout the store has before the step (its recorded layout).
    public var sourceLayout: StoreLayout
    /// The layout the store has after the step (recorded in the metadata).
    public var destinationLayout: StoreLayout
    /// The step's mapping file (SPEC §11.3), whose checksum is recorded with the step.
    public var mappingFile: MappingFile?
    /// The destination entities the mapping file names, for reports.
    public var mappedEntities: [MappedEntity] = []
    /// Links to rows a mapping's filter drops (counted for reports).
    public var droppedLinks: [DroppedLinkProbe] = []
    /// The same work per table, in no SQL dialect: what ``operations`` renders for SQLite, and what
    /// another engine renders its own way.
    public var tablePlans = TablePlans()

    public init(fromVersion: Int, toVersion: Int, changes: [MappingChange], tableActions: [TableAction],
                operations: [MigrationOperation], sourceLayout: StoreLayout, destinationLayout: StoreLayout) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.changes = changes
        self.tableActions = tableActions
        self.operations = operations
        self.sourceLayout = sourceLayout
        self.destinationLayout = destinationLayout
    }

    /// Tables rebuilt with the 12-step procedure (destination names).
    public var rebuiltTables: [String] { tableActions.filter { $0.kind == .rebuild }.map(\.table) }

    /// Whether the step drops or rebuilds a table: it then ends with `PRAGMA foreign_key_check` (every step runs
    /// with foreign keys off, so no inbound `ON DELETE CASCADE` fires while a table is dropped).
    public var needsForeignKeysOff: Bool {
        tableActions.contains { $0.kind == .rebuild || $0.kind == .drop }
    }

    /// No SQL at all: only the metadata changes (equal hashes, or rule/default changes).
    public var isMetadataOnly: Bool { operations.isEmpty }

    /// Changes that lose data (removed entities, attributes, relationships).
    public var destructiveChanges: [MappingChange] { changes.filter(\.isDestructive) }

    /// Every SQL statement, in order, as text (checks included, user-object markers as comments).
    public var sqlText: [String] { operations.map(\.sqlText) }
}

/// What a step does to one table.
public struct TableAction: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A new table (possibly filled from existing links).
        case create
        /// Dropped (its entity or relationship was removed).
        case drop
        /// Rebuilt with SQLite's 12-step procedure.
        case rebuild
        /// Changed in place: `ALTER TABLE … RENAME / RENAME COLUMN / ADD COLUMN`, backfills, indexes.
        case alter
    }
    public var table: String
    /// The table's name before the step, when it existed.
    public var sourceTable: String?
    public var kind: Kind
    /// Why, in a few words (e.g. "column rating dropped", "ON DELETE of author changes").
    public var reasons: [String]

    public init(table: String, sourceTable: String?, kind: Kind, reasons: [String]) {
        self.table = table
        self.sourceTable = sourceTable
        self.kind = kind
        self.reasons = reasons
    }
}

/// One unit of work in a version step.
public enum MigrationOperation: Hashable, Sendable {
    /// DDL or DML with bound arguments.
    case execute(SQLText)
    /// A table copy (`INSERT … SELECT` into a rebuilt, new or link-filled table): the long part of a
    /// step, run with progress reports.
    case copy(SQLText)
    /// A query that must return no rows; rows are violations (exit 3) and roll the step back.
    case check(MigrationCheck)
    /// Remember the user's triggers, views and indexes and drop the triggers and views (they are re-created by
    /// `.restoreUserObjects`; an index goes with its table).
    case saveUserObjects
    /// Re-create the user's views, the indexes of dropped tables and the triggers saved by `.saveUserObjects`.
    case restoreUserObjects
    /// `PRAGMA foreign_key_check`: any row rolls the step back.
    case foreignKeyCheck
    /// The old → new object IDs of the rows that got new `_pk`s (SPEC §11.3 "IDs"): `list` returns
    /// `(old entity, old _pk, new entity, new _pk)`, `counts` `(new entity, count)`; collected for the
    /// change set (`remapped`).
    case remapped(list: SQLText, counts: SQLText)

    public var sqlText: String {
        switch self {
        case .execute(let s), .copy(let s): return s.description
        case .check(let c): return "-- check: \(c.summary)\n\(c.statement.description)"
        case .saveUserObjects: return "-- save and drop user triggers and views (re-created after the rebuild)"
        case .restoreUserObjects: return "-- re-create user triggers and views"
        case .foreignKeyCheck: return "PRAGMA foreign_key_check"
        case .remapped(let list, _): return "-- objects with new IDs (old → new, for the change set)\n\(list.description)"
        }
    }
}

/// A data condition a step needs: violations are listed with object IDs, and the step rolls back.
///
/// The statement returns rows of `(_pk, entity name, values…)`.
public struct MigrationCheck: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// optional → non-optional without a default: no row may be NULL.
        case nullInMandatoryAttribute
        /// A new non-optional attribute without a default: the entity must have no rows.
        case rowsForNewMandatoryAttribute
        /// A new non-optional to-one relationship (or one whose destination entity was replaced): the
        /// entity must have no rows, since no object can be linked yet.
        case rowsForNewMandatoryRelationship
        /// A new uniqueness constraint: no duplicates (the values columns are the group key).
        case duplicates
        /// An entity became abstract: it may have no objects of its own.
        case rowsOfAbstractEntity
        /// Links of a to-many stored in a join table move into a to-one column: at most one per object.
        case multipleLinks
        /// A mapping file's value for a non-optional attribute came out nil (a failed cast, a nil input).
        case nilMappedValue
    }
    public var kind: Kind
    public var entity: String
    public var properties: [String]
    public var statement: SQLText
    /// The Core Data-style code reported for violations (1570 missing mandatory, 1551 uniqueness, …).
    public var code: Int

    public init(kind: Kind, entity: String, properties: [String], statement: SQLText, code: Int) {
        self.kind = kind
        self.entity = entity
        self.properties = properties
        self.statement = statement
        self.code = code
    }

    public var summary: String {
        let target = properties.isEmpty ? entity : "\(entity).\(properties.joined(separator: ", "))"
        switch kind {
        case .nullInMandatoryAttribute: return "\(target) has no NULLs (it becomes non-optional and has no default)"
        case .rowsForNewMandatoryAttribute: return "\(entity) has no objects (new non-optional \(target) has no default)"
        case .rowsForNewMandatoryRelationship: return "\(entity) has no objects (new non-optional to-one \(target) links none of them)"
        case .duplicates: return "no duplicates of \(target) (new uniqueness constraint)"
        case .rowsOfAbstractEntity: return "\(entity) has no objects of its own (it becomes abstract)"
        case .multipleLinks: return "each \(entity) has at most one link in \(target) (it moves into a to-one column)"
        case .nilMappedValue: return "\(target) is not nil (non-optional; its mapped value failed to cast or was nil)"
        }
    }
}
