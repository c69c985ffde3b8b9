import StrataCore

extension PostgresStepPlanner {
    /// optional → non-optional (SPEC §4): NULLs get the default, or there must be none.
    mutating func planMandatory(_ table: TableSpec, kinds: [String]) {
        let name = TableName(table.name)
        for entityName in kinds {
            guard let entity = destination.entity(entityName), let storage = dst.storage(of: entityName) else { continue }
            let hierarchy = destination.hierarchy(of: entityName).map(\.name)
            for attribute in entity.attributes where !attribute.isOptional {
                guard let column = storage.attributeColumns[attribute.name],
                      let previous = sourceName(attribute.name, renamedFrom: attribute.renamedFrom, in: entityName, attribute: true),
                      source.attribute(previous, of: entityName)?.attribute.isOptional == true else { continue }
                let isNull: SQLText = "\(ColumnName(column)) IS NULL"
                if let value = attribute.defaultValue {
                    backfills.append("UPDATE \(name) SET \(ColumnName(column)) = " + PostgresTypes.expression(value, as: attribute.type)
                                     + " WHERE " + isNull + filter(hierarchy, of: table, alias: nil, wherePrefix: " AND "))
                } else {
                    checks.append(.check(objects(of: table, kinds: hierarchy, where: "\(ColumnName(column, qualifier: "t")) IS NULL"),
                                         message: "\(entityName).\(attribute.name) has no NULLs (it becomes non-optional and has no default)"))
                }
            }
        }
    }

    /// Indexes kept (same name, same columns after renames), dropped and created; a new uniqueness is checked
    /// for duplicates first, so that they are reported as objects (exit 3) rather than as the server's error.
    mutating func planIndexes(old: TableSpec, new: TableSpec, carried: [String: String]) {
        let renamed = Dictionary(carried.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var kept: Set<String> = []
        for index in old.indexes {
            let mapped = IndexSpec(name: index.name, columns: index.columns.map { renamed[$0] ?? $0 }, isUnique: index.isUnique)
            if new.indexes.contains(mapped) { kept.insert(index.name) } else { dropIndexes.append("DROP INDEX \(IndexName(index.name))") }
        }
        for index in new.indexes where !kept.contains(index.name) {
            if index.isUnique { checks.append(duplicateCheck(index, table: new)) }
            indexes.append(PostgresSchemaSQL.createIndex(index, on: new.name))
        }
    }

    func duplicateCheck(_ index: IndexSpec, table: TableSpec) -> PostgresStepPlan.Operation {
        let name = TableName(table.name)
        let columns = index.columns.map { ColumnName($0) }, qualified = columns.map { $0.qualified(by: "t") }
        let notNull = columns.map { "\($0) IS NOT NULL" as SQLText }.joined(separator: " AND ")
        let condition: SQLText = "(\(qualified)) IN (SELECT \(columns) FROM \(name) WHERE " + notNull
            + " GROUP BY \(columns) HAVING count(*) > 1)"
        return .check(objects(of: table, kinds: dst.entityNames(inTable: table.name), where: condition),
                      message: "no duplicates of \(table.name) (\(index.columns.joined(separator: ", "))) (new uniqueness constraint)")
    }

    /// `prefix alias."_entity" IN (…)` when `kinds` are not every entity stored in the table, else nothing.
    func filter(_ kinds: [String], of table: TableSpec, alias: String?, wherePrefix: SQLText) -> SQLText {
        guard table.column("_entity") != nil, Set(kinds) != Set(dst.entityNames(inTable: table.name)) else { return "" }
        return wherePrefix + "\(ColumnName("_entity", qualifier: alias)) IN (" + kinds.map { "\($0)" as SQLText }.joined(separator: ", ") + ")"
    }

    /// The objects of `kinds` in `table` where `condition` holds, as a check's rows `(_pk, entity)`.
    func objects(of table: TableSpec, kinds: [String], where condition: SQLText) -> SQLText {
        let pk = ColumnName("_pk", qualifier: "t")
        let entity: SQLText = table.column("_entity") != nil
            ? "\(ColumnName("_entity", qualifier: "t"))" : "CAST(\(table.rootEntity ?? table.name) AS text)"
        return "SELECT \(pk), " + entity + " FROM \(TableName(table.name)) AS t WHERE " + condition
            + filter(kinds, of: table, alias: "t", wherePrefix: " AND ") + " ORDER BY \(pk)"
    }
}
