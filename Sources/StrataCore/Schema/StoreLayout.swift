/// The SQLite schema Strata keeps for one model version (SPEC §2 "Storage layout").
///
/// Column names are assigned once and carried forward from version to version, so the
/// layout is recorded in the store's metadata (as JSON) and every SQL statement Strata
/// writes (batch requests, audits, migrations) is built from it, never from names guessed
/// off the model.
public struct StoreLayout: Codable, Hashable, Sendable {
    /// Entity tables and join tables, sorted by name.
    public var tables: [TableSpec]
    /// How each entity (abstract ones included) is stored, by entity name.
    public var entities: [String: EntityStorage]

    public init(tables: [TableSpec], entities: [String: EntityStorage]) {
        self.tables = tables.sorted { $0.name < $1.name }
        self.entities = entities
    }

    /// The table named `name` (binary search: `tables` is sorted by name; a linear search if it is not).
    public func table(_ name: String) -> TableSpec? {
        var low = 0, high = tables.count
        while low < high {
            let mid = (low + high) / 2
            if tables[mid].name < name { low = mid + 1 } else { high = mid }
        }
        if low < tables.count, tables[low].name == name { return tables[low] }
        return tables.first { $0.name == name }
    }

    public func storage(of entity: String) -> EntityStorage? { entities[entity] }

    /// The column holding a relationship's links (its key, or a join table's end); nil when the layout has
    /// none, as for a to-one that is its own inverse in layouts written before it kept its key.
    public func column(of storage: RelationshipStorage) -> ColumnSpec? { table(storage.table)?.column(storage.column) }

    /// The entities whose objects live in `table` (the root's hierarchy, pre-order).
    public func entityNames(inTable table: String) -> [String] {
        if let root = self.table(table)?.rootEntity, let storage = entities[root], storage.table == table { return storage.kinds }
        return entities.values.filter { $0.table == table }.map(\.entity)
    }
}

/// One table Strata manages.
public struct TableSpec: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Sendable { case entity, join }
    public var name: String
    public var kind: Kind
    /// For entity tables: the root entity stored here.
    public var rootEntity: String?
    /// Columns in creation order, `_pk` (and `_entity`) first for entity tables.
    public var columns: [ColumnSpec]
    /// For join tables: the primary key columns.
    public var primaryKey: [String]
    public var indexes: [IndexSpec]

    public init(name: String, kind: Kind, rootEntity: String? = nil, columns: [ColumnSpec],
                primaryKey: [String] = [], indexes: [IndexSpec] = []) {
        self.name = name
        self.kind = kind
        self.rootEntity = rootEntity
        self.columns = columns
        self.primaryKey = primaryKey
        self.indexes = indexes
    }

    public func column(_ name: String) -> ColumnSpec? { columns.first { $0.name == name } }
}

/// One column of a managed table.
public struct ColumnSpec: Codable, Hashable, Sendable {
    public var name: String
    /// Declared type: INTEGER, REAL, TEXT or BLOB.
    public var sqlType: String
    public var isPrimaryKey: Bool = false
    public var isNotNull: Bool = false
    /// Foreign key target table (always its `_pk`), if any.
    public var references: String?
    /// `CASCADE`, `SET NULL` or `RESTRICT` when `references` is set.
    public var onDelete: String?

    public init(name: String, sqlType: String, isPrimaryKey: Bool = false, isNotNull: Bool = false,
                references: String? = nil, onDelete: String? = nil) {
        self.name = name
        self.sqlType = sqlType
        self.isPrimaryKey = isPrimaryKey
        self.isNotNull = isNotNull
        self.references = references
        self.onDelete = onDelete
    }
}

/// An index Strata manages (names start with `strata_`).
public struct IndexSpec: Codable, Hashable, Sendable {
    public var name: String
    public var columns: [String]
    public var isUnique: Bool

    public init(name: String, columns: [String], isUnique: Bool) {
        self.name = name
        self.columns = columns
        self.isUnique = isUnique
    }
}

/// Where an entity's objects and properties live.
public struct EntityStorage: Codable, Hashable, Sendable {
    public var entity: String
    public var root: String
    public var table: String
    /// Whether the table has an `_entity` column (the root has sub-entities).
    public var isDiscriminated: Bool
    /// This entity and its sub-entities, for `includesSubentities` (pre-order).
    public var kinds: [String]
    /// Attribute name (inherited ones included) → column name.
    public var attributeColumns: [String: String]
    /// Relationship name (inherited ones included) → storage.
    public var relationships: [String: RelationshipStorage]

    public init(entity: String, root: String, table: String, isDiscriminated: Bool, kinds: [String],
                attributeColumns: [String: String], relationships: [String: RelationshipStorage]) {
        self.entity = entity
        self.root = root
        self.table = table
        self.isDiscriminated = isDiscriminated
        self.kinds = kinds
        self.attributeColumns = attributeColumns
        self.relationships = relationships
    }
}

/// How one relationship is stored.
public struct RelationshipStorage: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Sendable {
        /// A column on this entity's table holding the destination's `_pk`.
        case foreignKey
        /// Rows of another table (`table`) whose `column` holds this object's `_pk`
        /// (a to-many with a to-one inverse, or the non-storing side of a one-to-one).
        case inverseForeignKey
        /// A join table: `ownColumn` holds this object's `_pk`, `otherColumn` the destination's.
        case joinTable
    }
    public var kind: Kind
    public var destination: String
    public var isToMany: Bool
    /// The table holding the link: this entity's table, the destination's table, or the join table.
    public var table: String
    /// For `.foreignKey` and `.inverseForeignKey`: the FK column. For `.joinTable`: the column holding this side's `_pk`.
    public var column: String
    /// For `.joinTable`: the column holding the destination's `_pk`.
    public var otherColumn: String?
    /// The column keeping this side's order, when the relationship is ordered.
    public var orderColumn: String?

    public init(kind: Kind, destination: String, isToMany: Bool, table: String, column: String,
                otherColumn: String? = nil, orderColumn: String? = nil) {
        self.kind = kind
        self.destination = destination
        self.isToMany = isToMany
        self.table = table
        self.column = column
        self.otherColumn = otherColumn
        self.orderColumn = orderColumn
    }
}
