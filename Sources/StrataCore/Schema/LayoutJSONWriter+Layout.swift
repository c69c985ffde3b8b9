// The members of each type in the order of their keys' bytes, as `.sortedKeys` writes them; nil optionals are
// left out, as the synthesized `encode(to:)` does.
extension LayoutJSONWriter {
    mutating func write(_ layout: StoreLayout) {
        raw(#"{"entities":"#); dictionary(layout.entities) { $0.write($1) }
        raw(#","tables":"#); array(layout.tables) { $0.write($1) }
        raw("}")
    }

    mutating func write(_ table: TableSpec) {
        raw(#"{"columns":"#); array(table.columns) { $0.write($1) }
        raw(#","indexes":"#); array(table.indexes) { $0.write($1) }
        raw(#","kind":"#); string(table.kind.rawValue)
        raw(#","name":"#); string(table.name)
        raw(#","primaryKey":"#); strings(table.primaryKey)
        if let rootEntity = table.rootEntity { raw(#","rootEntity":"#); string(rootEntity) }
        raw("}")
    }

    mutating func write(_ column: ColumnSpec) {
        raw(#"{"isNotNull":"#); bool(column.isNotNull)
        raw(#","isPrimaryKey":"#); bool(column.isPrimaryKey)
        raw(#","name":"#); string(column.name)
        if let onDelete = column.onDelete { raw(#","onDelete":"#); string(onDelete) }
        if let references = column.references { raw(#","references":"#); string(references) }
        raw(#","sqlType":"#); string(column.sqlType)
        raw("}")
    }

    mutating func write(_ index: IndexSpec) {
        raw(#"{"columns":"#); strings(index.columns)
        raw(#","isUnique":"#); bool(index.isUnique)
        raw(#","name":"#); string(index.name)
        raw("}")
    }

    mutating func write(_ storage: EntityStorage) {
        raw(#"{"attributeColumns":"#); dictionary(storage.attributeColumns) { $0.string($1) }
        raw(#","entity":"#); string(storage.entity)
        raw(#","isDiscriminated":"#); bool(storage.isDiscriminated)
        raw(#","kinds":"#); strings(storage.kinds)
        raw(#","relationships":"#); dictionary(storage.relationships) { $0.write($1) }
        raw(#","root":"#); string(storage.root)
        raw(#","table":"#); string(storage.table)
        raw("}")
    }

    mutating func write(_ relationship: RelationshipStorage) {
        raw(#"{"column":"#); string(relationship.column)
        raw(#","destination":"#); string(relationship.destination)
        raw(#","isToMany":"#); bool(relationship.isToMany)
        raw(#","kind":"#); string(relationship.kind.rawValue)
        if let orderColumn = relationship.orderColumn { raw(#","orderColumn":"#); string(orderColumn) }
        if let otherColumn = relationship.otherColumn { raw(#","otherColumn":"#); string(otherColumn) }
        raw(#","table":"#); string(relationship.table)
        raw("}")
    }
}
