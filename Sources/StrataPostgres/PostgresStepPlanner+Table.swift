import StrataCore

extension PostgresStepPlanner {
    /// A table kept in place: rows of removed entities deleted, columns retyped, added and filled, dropped
    /// and renamed, `_entity` values renamed, the table renamed; its foreign keys and indexes follow.
    mutating func alter(_ plan: TablePlan, from sourceName: String) throws(PostgresStoreError) {
        guard let old = src.table(sourceName), let new = dst.table(plan.table.name) else {
            preconditionFailure("a plan names a table outside its layouts")
        }
        let table = TableName(sourceName)
        let oldTypes = PostgresTypes.columnTypes(of: old, attributeTypes: srcTypes)
        let newTypes = PostgresTypes.columnTypes(of: new, attributeTypes: dstTypes)
        // Destination column → the source column it continues in place (the first destination column to
        // claim a source column keeps it; another one copying it is added and filled).
        var kept: [String: String] = [:]
        var claimed: Set<String> = []
        for column in plan.columns {
            let from: String?
            switch column.source {
            case .column(let c), .cast(let c, _): from = c
            case .entityName(_, nil): from = "_entity"
            default: from = nil
            }
            if let from, old.column(from) != nil, !claimed.contains(from) {
                kept[column.spec.name] = from
                claimed.insert(from)
            }
        }
        let key = old.primaryKey.isEmpty ? ["_pk"] : old.primaryKey
        // The same key columns, possibly in another order (a join table whose sides swap names): the key's
        // constraint stays, with the same uniqueness.
        let continued = old.primaryKey.map { old -> String in kept.first { $0.value == old }?.key ?? old }
        guard key.allSatisfy(claimed.contains), new.primaryKey.count == continued.count, Set(new.primaryKey) == Set(continued) else {
            throw .notYetSupported(what: "changing the primary key of table \(new.name) \(place)")
        }
        // Columns taking a name another column holds until its own rename: renamed through a temporary name.
        var swapped: [SQLText] = []
        if let kinds = plan.keptKinds {
            deletes.append("DELETE FROM \(table) WHERE \(ColumnName("_entity")) NOT IN (" + kinds.map { "\($0)" as SQLText }.joined(separator: ", ") + ")")
        }
        // Retyped columns in one ALTER TABLE: PostgreSQL rewrites the table once for all of them.
        var conversions: [SQLText] = []
        // Fills computed from the same row (one UPDATE), then those reading other rows or tables.
        var direct: [SQLText] = []
        var joined: [SQLText] = []
        if let filter = plan.rowFilter { filterRows(filter, of: sourceName) }
        for (index, column) in plan.columns.enumerated() {
            let spec = new.column(column.spec.name)!
            let name = ColumnName(spec.name), type = newTypes[spec.name]!
            if let from = kept[spec.name] {
                let previous = old.column(from)!
                if previous.isPrimaryKey != spec.isPrimaryKey {
                    throw .notYetSupported(what: "changing the primary key of table \(new.name) \(place)")
                }
                if oldTypes[from] != type {
                    conversions.append("ALTER COLUMN \(ColumnName(from)) TYPE \(keyword: type) USING "
                                       + PostgresColumnSource.using(column.source, type: type))
                    dependents.append(.init(table: sourceName, column: from))
                }
                if previous.isNotNull && !spec.isNotNull { conversions.append("ALTER COLUMN \(ColumnName(from)) DROP NOT NULL") }
                if !previous.isNotNull && spec.isNotNull { notNull.append("ALTER TABLE \(TableName(new.name)) ALTER COLUMN \(name) SET NOT NULL") }
                keepForeignKey(previous, of: sourceName, as: spec, in: new.name)
                if from != spec.name, claimed.contains(spec.name) {
                    let temporary = ColumnName("strata_swap\(index)")
                    renames.append("ALTER TABLE \(table) RENAME COLUMN \(ColumnName(from)) TO \(temporary)")
                    swapped.append("ALTER TABLE \(table) RENAME COLUMN \(temporary) TO \(name)")
                } else if from != spec.name {
                    renames.append("ALTER TABLE \(table) RENAME COLUMN \(ColumnName(from)) TO \(name)")
                }
                if case .entityName(let map, nil) = column.source { renames += entityRenames(map, table: table) }
                continue
            }
            guard !spec.isPrimaryKey else { throw .notYetSupported(what: "adding a primary key to table \(new.name) \(place)") }
            if let previous = old.column(spec.name), !claimed.contains(spec.name) {
                // A mapping's new values, or a column removed and added under one name (a to-one whose destination
                // is removed: its links dropped): recomputed in place, or through a temporary column.
                if recompute(column, index: index, previous: previous, table: sourceName, key: key, type: type,
                             attribute: dstTypes[new.name]?[spec.name], newTable: new.name, into: &conversions) {
                    claimed.insert(spec.name)
                    kept[spec.name] = spec.name
                    if previous.references != nil {
                        // The old link's constraint goes before the step (its table may be dropped); the new one comes after.
                        dropConstraints.append("ALTER TABLE \(table) DROP CONSTRAINT \(IndexName(PostgresLayout.foreignKeyName(table: sourceName, column: previous.name)))")
                    }
                }
                if let fk = PostgresSchemaSQL.addForeignKey(spec, table: new.name) { constraints.append(fk) }
                continue
            }
            if old.column(spec.name) != nil {
                throw .notYetSupported(what: "adding column \(new.name).\(spec.name) while the table still has a column of that name \(place)")
            }
            let attribute = dstTypes[new.name]?[spec.name]
            if case .constant(let value) = column.source, !value.isNull, let attribute,
               let literal = PostgresTypes.literal(value, as: attribute) {
                // Filled with a constant: a DEFAULT on ADD COLUMN fills every row without rewriting the table,
                // and dropping it right after keeps the layout's columns default-free (rows keep the value).
                adds.append("ALTER TABLE \(table) ADD COLUMN \(name) \(keyword: type)" + (spec.isNotNull ? " NOT NULL" : "")
                            + " DEFAULT " + literal)
                adds.append("ALTER TABLE \(table) ALTER COLUMN \(name) DROP DEFAULT")
                if let fk = PostgresSchemaSQL.addForeignKey(spec, table: new.name) { constraints.append(fk) }
                continue
            }
            adds.append("ALTER TABLE \(table) ADD COLUMN \(name) \(keyword: type)")
            if column.source != .constant(.null) {
                if PostgresColumnSource.isRowValue(column.source) {
                    direct.append("\(name) = " + PostgresColumnSource.expression(column.source, attribute: attribute, type: type))
                } else {
                    joined.append(PostgresColumnSource.fill(table: sourceName, key: key, column: spec.name,
                                                           value: PostgresColumnSource.expression(column.source, attribute: attribute, type: type)))
                }
            }
            if spec.isNotNull { notNull.append("ALTER TABLE \(TableName(new.name)) ALTER COLUMN \(name) SET NOT NULL") }
            if let fk = PostgresSchemaSQL.addForeignKey(spec, table: new.name) { constraints.append(fk) }
        }
        if !conversions.isEmpty { retypes.append("ALTER TABLE \(table) " + conversions.joined(separator: ", ")) }
        if !direct.isEmpty {
            fills.append("UPDATE \(table) AS \(TableName(ColumnSource.oldAlias)) SET " + direct.joined(separator: ", "))
        }
        fills += joined
        for column in old.columns where !claimed.contains(column.name) {
            dropColumns.append("ALTER TABLE \(table) DROP COLUMN \(ColumnName(column.name))")
            dependents.append(.init(table: sourceName, column: column.name))
        }
        planIndexes(old: old, new: new, kept: kept)
        renames += swapped
        if sourceName != new.name, heldNames.contains(new.name) {
            let temporary = TableName(Self.temporaryName(new.name))
            renames.append("ALTER TABLE \(table) RENAME TO \(temporary)")
            laterRenames.append("ALTER TABLE \(temporary) RENAME TO \(TableName(new.name))")
        } else if sourceName != new.name {
            renames.append("ALTER TABLE \(table) RENAME TO \(TableName(new.name))")
        }
    }

    /// `UPDATE … SET "_entity" = CASE …` for the entities renamed in this table.
    func entityRenames(_ map: [String: String], table: TableName) -> [SQLText] {
        let changed = map.filter { $0.key != $0.value }.sorted { $0.key < $1.key }
        guard !changed.isEmpty else { return [] }
        let entity = ColumnName("_entity")
        return ["UPDATE \(table) SET \(entity) = CASE \(entity)" + changed.map { " WHEN \($0.key) THEN \($0.value)" as SQLText }.joined()
                + " ELSE \(entity) END WHERE \(entity) IN (" + changed.map { "\($0.key)" as SQLText }.joined(separator: ", ") + ")"]
    }

    /// A kept column's foreign key: left alone (renamed when its table or column is), or dropped before the
    /// step and added after it when its target or delete rule changes.
    mutating func keepForeignKey(_ previous: ColumnSpec, of sourceTable: String, as spec: ColumnSpec, in table: String) {
        let oldName = PostgresLayout.foreignKeyName(table: sourceTable, column: previous.name)
        let newName = PostgresLayout.foreignKeyName(table: table, column: spec.name)
        let target = previous.references.map { tableNames[$0] ?? "" }
        if let target, target == spec.references, previous.onDelete == spec.onDelete {
            if oldName != newName {
                constraints.append("ALTER TABLE \(TableName(table)) RENAME CONSTRAINT \(IndexName(oldName)) TO \(IndexName(newName))")
            }
            return
        }
        if previous.references != nil { dropConstraints.append("ALTER TABLE \(TableName(sourceTable)) DROP CONSTRAINT \(IndexName(oldName))") }
        if let fk = PostgresSchemaSQL.addForeignKey(spec, table: table) { constraints.append(fk) }
    }

    /// Indexes kept (same columns and uniqueness, renamed when their name changes), dropped before the step
    /// and created after it. A new uniqueness is checked for duplicates first (the step's checks).
    mutating func planIndexes(old: TableSpec, new: TableSpec, kept: [String: String]) {
        let renamed = Dictionary(kept.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var matched: Set<String> = []
        for index in old.indexes {
            let columns = index.columns.map { renamed[$0] ?? "" }
            if let same = new.indexes.first(where: { $0.columns == columns && $0.isUnique == index.isUnique && !matched.contains($0.name) }) {
                matched.insert(same.name)
                if same.name != index.name { indexes.append("ALTER INDEX \(IndexName(index.name)) RENAME TO \(IndexName(same.name))") }
            } else {
                dropConstraints.append("DROP INDEX \(IndexName(index.name))")
            }
        }
        for index in new.indexes where !matched.contains(index.name) {
            indexes.append(PostgresSchemaSQL.createIndex(index, on: new.name))
        }
    }
}
