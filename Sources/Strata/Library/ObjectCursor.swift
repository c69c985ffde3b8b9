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
    private let layout: StoreLayout
    private let entity: EntityStorage
    private let storeUUID: String
    private let storePath: String
    /// Made at the first row, from the result's column names.
    private var reader: FetchedObjectReader?

    init(rows: RowCursor, layout: StoreLayout, entity: EntityStorage, storeUUID: String, storePath: String) {
        self.storePath = storePath
        self.rows = rows
        self.layout = layout
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
        if reader == nil {
            reader = FetchedObjectReader(layout: layout, entity: entity, storeUUID: storeUUID, columnNames: Array(row.columnNames))
        }
        return reader!.object { Value(databaseValue: row[$0]) }
    }

    /// Every remaining object (memory grows with the count: prefer ``next()`` for large results).
    public func all() throws -> [FetchedObject] {
        var objects: [FetchedObject] = []
        while let object = try next() { objects.append(object) }
        return objects
    }
}
