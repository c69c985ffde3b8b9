import StrataCore

/// Turns the rows of a fetch statement (`SELECT t.* …`) into ``FetchedObject``s, for either engine: the
/// columns are matched to the attributes of each row's own entity (its `_entity` in a shared table) once
/// per entity, then every row is read by index.
package struct FetchedObjectReader {
    private let layout: StoreLayout
    private let entity: EntityStorage
    private let storeUUID: String
    private let names: [String]
    private let primaryKeyIndex: Int
    private let kindIndex: Int?
    /// Per entity kind: (attribute, column index) pairs, computed at its first row.
    private var columns: [String: [(property: String, index: Int)]] = [:]

    /// - Parameters:
    ///   - columnNames: the result's column names (the table's), in order; they include `_pk`.
    package init(layout: StoreLayout, entity: EntityStorage, storeUUID: String, columnNames: [String]) {
        self.layout = layout
        self.entity = entity
        self.storeUUID = storeUUID
        self.names = columnNames
        guard let primaryKeyIndex = columnNames.firstIndex(of: "_pk") else { preconditionFailure("a fetch selects _pk") }
        self.primaryKeyIndex = primaryKeyIndex
        self.kindIndex = entity.isDiscriminated ? columnNames.firstIndex(of: "_entity") : nil
    }

    /// The object of one row, whose column `i` holds `value(i)` in SQLite's storage form.
    package mutating func object(_ value: (Int) throws -> Value) rethrows -> FetchedObject {
        var kind = entity.entity
        if let kindIndex, case .text(let name) = try value(kindIndex) { kind = name }
        let pairs = columns[kind] ?? attributeColumns(kind)
        var values: [String: Value] = [:]
        values.reserveCapacity(pairs.count)
        for (property, index) in pairs { values[property] = try value(index) }
        guard case .integer(let pk) = try value(primaryKeyIndex) else { preconditionFailure("_pk is an integer") }
        return FetchedObject(id: ObjectID(storeUUID: storeUUID, entity: kind, primaryKey: pk), values: values)
    }

    private mutating func attributeColumns(_ kind: String) -> [(property: String, index: Int)] {
        let attributes = (layout.storage(of: kind) ?? entity).attributeColumns
        let pairs = attributes.sorted { $0.key < $1.key }.compactMap { property, column in
            names.firstIndex(of: column).map { (property, $0) }
        }
        columns[kind] = pairs
        return pairs
    }
}
