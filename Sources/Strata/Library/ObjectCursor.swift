import GRDB

/// The objects of a fetch, read one at a time from SQLite: memory stays flat however many rows match.
/// Valid only inside the closure it is handed to (like GRDB's cursors, it lives in a read transaction).
///
/// ```swift
/// try store.fetch("Recipe", where: "rating >= 4") { cursor in
///     while let recipe = try cursor.next() { print(recipe.id, recipe["name"] ?? .null) }
/// }
/// ```
public final class ObjectCursor {
    private let rows: RowCursor
    private let storage: StoreLayout
    private let entity: EntityStorage
    private let storeUUID: String
    private let storePath: String
    /// Per entity kind: (attribute, column index) pairs, computed at its first row.
    private var columns: [String: [(property: String, index: Int)]] = [:]
    private var kindIndex: Int?
    private var primaryKeyIndex: Int?
    /// The result's column names (the table's), read at the first row.
    private var names: [String] = []

    init(rows: RowCursor, layout: StoreLayout, entity: EntityStorage, storeUUID: String, storePath: String) {
        self.storePath = storePath
        self.rows = rows
        self.storage = layout
        self.entity = entity
        self.storeUUID = storeUUID
    }

    /// The next object, or nil at the end.
    /// - Throws: `StoreError` when SQLite fails while stepping.
    public func next() throws -> FetchedObject? {
        let row: Row
        do {
            guard let next = try rows.next() else { return nil }
            row = next
        } catch let error as DatabaseError {
            throw StoreError.from(error, path: storePath)
        }
        if primaryKeyIndex == nil {
            names = Array(row.columnNames)
            primaryKeyIndex = names.firstIndex(of: "_pk")
            kindIndex = entity.isDiscriminated ? names.firstIndex(of: "_entity") : nil
        }
        let kind = kindIndex.flatMap { row[$0] as String? } ?? entity.entity
        let pairs = columns[kind] ?? attributeColumns(kind)
        var values: [String: Value] = [:]
        values.reserveCapacity(pairs.count)
        for (property, index) in pairs { values[property] = Value(databaseValue: row[index]) }
        let id = ObjectID(storeUUID: storeUUID, entity: kind, primaryKey: row[primaryKeyIndex!])
        return FetchedObject(id: id, values: values)
    }

    /// Every remaining object (memory grows with the count: prefer ``next()`` for large results).
    public func all() throws -> [FetchedObject] {
        var objects: [FetchedObject] = []
        while let object = try next() { objects.append(object) }
        return objects
    }

    private func attributeColumns(_ kind: String) -> [(property: String, index: Int)] {
        let attributes = (storage.storage(of: kind) ?? entity).attributeColumns
        let pairs = attributes.sorted { $0.key < $1.key }.compactMap { property, column in
            names.firstIndex(of: column).map { (property, $0) }
        }
        columns[kind] = pairs
        return pairs
    }
}
