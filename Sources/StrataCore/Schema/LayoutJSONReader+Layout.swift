// Each type's members, as the synthesized `init(from:)` reads them through `JSONDecoder`: keys compared as Swift
// strings; of a key given twice the first value counts and the others are skipped; unknown keys are skipped; a
// missing key is an error, except for an optional, which a missing key or `null` leaves nil.
extension LayoutJSONReader {
    mutating func readLayout() throws -> StoreLayout {
        var tables: [TableSpec]?, entities: [String: EntityStorage]?
        try readObject { reader, key in
            switch key {
            case "tables" where tables == nil: tables = try reader.readElements { try $0.readTable() }
            case "entities" where entities == nil: entities = try reader.readDictionary { try $0.readEntityStorage() }
            default: try reader.skipValue()
            }
        }
        guard let tables, let entities else { throw error("a layout needs tables and entities") }
        // Not through `init`, which sorts the tables: `JSONDecoder` keeps them in the order they are written.
        var layout = StoreLayout(tables: [], entities: entities)
        layout.tables = tables
        return layout
    }

    mutating func readTable() throws -> TableSpec {
        var name: String?, kind: TableSpec.Kind?, rootEntity: String??, columns: [ColumnSpec]?
        var primaryKey: [String]?, indexes: [IndexSpec]?
        try readObject { reader, key in
            switch key {
            case "name" where name == nil: name = try reader.readString()
            case "kind" where kind == nil: kind = try reader.readKind()
            case "rootEntity" where rootEntity == nil: rootEntity = .some(try reader.readOptionalString())
            case "columns" where columns == nil: columns = try reader.readElements { try $0.readColumn() }
            case "primaryKey" where primaryKey == nil: primaryKey = try reader.readStrings()
            case "indexes" where indexes == nil: indexes = try reader.readElements { try $0.readIndex() }
            default: try reader.skipValue()
            }
        }
        guard let name, let kind, let columns, let primaryKey, let indexes else {
            throw error("a table needs name, kind, columns, primaryKey and indexes")
        }
        return TableSpec(name: name, kind: kind, rootEntity: rootEntity ?? nil, columns: columns, primaryKey: primaryKey,
                         indexes: indexes)
    }

    mutating func readColumn() throws -> ColumnSpec {
        var name: String?, sqlType: String?, isPrimaryKey: Bool?, isNotNull: Bool?, references: String??, onDelete: String??
        try readObject { reader, key in
            switch key {
            case "name" where name == nil: name = try reader.readString()
            case "sqlType" where sqlType == nil: sqlType = try reader.readString()
            case "isPrimaryKey" where isPrimaryKey == nil: isPrimaryKey = try reader.readBool()
            case "isNotNull" where isNotNull == nil: isNotNull = try reader.readBool()
            case "references" where references == nil: references = .some(try reader.readOptionalString())
            case "onDelete" where onDelete == nil: onDelete = .some(try reader.readOptionalString())
            default: try reader.skipValue()
            }
        }
        guard let name, let sqlType, let isPrimaryKey, let isNotNull else {
            throw error("a column needs name, sqlType, isPrimaryKey and isNotNull")
        }
        return ColumnSpec(name: name, sqlType: sqlType, isPrimaryKey: isPrimaryKey, isNotNull: isNotNull,
                          references: references ?? nil, onDelete: onDelete ?? nil)
    }

    mutating func readIndex() throws -> IndexSpec {
        var name: String?, columns: [String]?, isUnique: Bool?
        try readObject { reader, key in
            switch key {
            case "name" where name == nil: name = try reader.readString()
            case "columns" where columns == nil: columns = try reader.readStrings()
            case "isUnique" where isUnique == nil: isUnique = try reader.readBool()
            default: try reader.skipValue()
            }
        }
        guard let name, let columns, let isUnique else { throw error("an index needs name, columns and isUnique") }
        return IndexSpec(name: name, columns: columns, isUnique: isUnique)
    }

    mutating func readEntityStorage() throws -> EntityStorage {
        var entity: String?, root: String?, table: String?, isDiscriminated: Bool?, kinds: [String]?
        var attributeColumns: [String: String]?, relationships: [String: RelationshipStorage]?
        try readObject { reader, key in
            switch key {
            case "entity" where entity == nil: entity = try reader.readString()
            case "root" where root == nil: root = try reader.readString()
            case "table" where table == nil: table = try reader.readString()
            case "isDiscriminated" where isDiscriminated == nil: isDiscriminated = try reader.readBool()
            case "kinds" where kinds == nil: kinds = try reader.readStrings()
            case "attributeColumns" where attributeColumns == nil:
                attributeColumns = try reader.readDictionary { try $0.readString() }
            case "relationships" where relationships == nil:
                relationships = try reader.readDictionary { try $0.readRelationshipStorage() }
            default: try reader.skipValue()
            }
        }
        guard let entity, let root, let table, let isDiscriminated, let kinds, let attributeColumns, let relationships else {
            throw error("an entity's storage needs entity, root, table, isDiscriminated, kinds, attributeColumns and relationships")
        }
        return EntityStorage(entity: entity, root: root, table: table, isDiscriminated: isDiscriminated, kinds: kinds,
                             attributeColumns: attributeColumns, relationships: relationships)
    }

    mutating func readRelationshipStorage() throws -> RelationshipStorage {
        var kind: RelationshipStorage.Kind?, destination: String?, isToMany: Bool?, table: String?, column: String?
        var otherColumn: String??, orderColumn: String??
        try readObject { reader, key in
            switch key {
            case "kind" where kind == nil: kind = try reader.readKind()
            case "destination" where destination == nil: destination = try reader.readString()
            case "isToMany" where isToMany == nil: isToMany = try reader.readBool()
            case "table" where table == nil: table = try reader.readString()
            case "column" where column == nil: column = try reader.readString()
            case "otherColumn" where otherColumn == nil: otherColumn = .some(try reader.readOptionalString())
            case "orderColumn" where orderColumn == nil: orderColumn = .some(try reader.readOptionalString())
            default: try reader.skipValue()
            }
        }
        guard let kind, let destination, let isToMany, let table, let column else {
            throw error("a relationship's storage needs kind, destination, isToMany, table and column")
        }
        return RelationshipStorage(kind: kind, destination: destination, isToMany: isToMany, table: table, column: column,
                                   otherColumn: otherColumn ?? nil, orderColumn: orderColumn ?? nil)
    }

    /// An object read as a dictionary; of a key given twice the first value counts.
    mutating func readDictionary<T>(_ value: (inout LayoutJSONReader) throws -> T) throws -> [String: T] {
        var result: [String: T] = [:]
        try readObject { reader, key in
            if result[key] == nil { result[key] = try value(&reader) } else { try reader.skipValue() }
        }
        return result
    }

    mutating func readElements<T>(_ element: (inout LayoutJSONReader) throws -> T) throws -> [T] {
        var result: [T] = []
        try readArray { result.append(try element(&$0)) }
        return result
    }

    mutating func readStrings() throws -> [String] {
        try readElements { try $0.readString() }
    }

    mutating func readOptionalString() throws -> String? {
        try readNull() ? nil : try readString()
    }

    /// A `String`-backed enum's case, by `init(rawValue:)`.
    mutating func readKind<T: RawRepresentable>() throws -> T where T.RawValue == String {
        guard let kind = T(rawValue: try readString()) else { throw error("unknown kind") }
        return kind
    }
}
