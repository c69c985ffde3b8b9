import StrataCore

/// Where an entity's objects and properties live, for code that queries a store directly (both engines).
extension StoreLayout {
    /// The storage of `entity`.
    /// - Throws: ``FetchError/unknownEntity(_:hint:)`` with the nearest name.
    package func fetchStorage(of entity: String) throws -> EntityStorage {
        guard let storage = storage(of: entity) else {
            throw FetchError.unknownEntity(entity, hint: NameSuggestion.hint(for: entity, in: entities.keys))
        }
        return storage
    }

    /// The column holding `entity.property`: an attribute, or a to-one relationship stored as a foreign key
    /// in the entity's own table.
    /// - Throws: ``FetchError`` (unknown entity or property, a relationship stored in another table).
    package func column(for entity: String, property: String) throws -> String {
        let storage = try fetchStorage(of: entity)
        if let column = storage.attributeColumns[property] { return column }
        if let relationship = storage.relationships[property] {
            guard relationship.kind == .foreignKey, relationship.table == storage.table else {
                throw FetchError.notAColumn(entity: entity, property: property, table: relationship.table)
            }
            return relationship.column
        }
        let names = Array(storage.attributeColumns.keys) + Array(storage.relationships.keys)
        throw FetchError.unknownProperty(entity: entity, property: property, hint: NameSuggestion.hint(for: property, in: names))
    }
}
