import StrataCore

extension PostgresStepPlanner {
    /// A step's data condition as PostgreSQL runs it: the shared statement, whose SQL both engines read,
    /// except the conditions "this entity has no objects", whose SQLite form (`WHERE 1`) PostgreSQL
    /// refuses; those are rendered here from the entity's table and kinds.
    func check(postgres check: MigrationCheck) -> Operation {
        switch check.kind {
        case .rowsForNewMandatoryAttribute, .rowsForNewMandatoryRelationship:
            guard let storage = dst.storage(of: check.entity), let table = dst.table(storage.table) else { break }
            var rendered = check
            rendered.statement = objects(of: table, kinds: storage.kinds)
            return .check(rendered)
        default: break
        }
        return .check(check)
    }

    /// The objects of `kinds` in `table`, as a check's rows `(_pk, entity)`.
    func objects(of table: TableSpec, kinds: [String]) -> SQLText {
        let pk = ColumnName("_pk", qualifier: "t")
        guard table.column("_entity") != nil else {
            return "SELECT \(pk), \(table.rootEntity ?? table.name) FROM \(TableName(table.name)) AS t ORDER BY \(pk)"
        }
        let entity = ColumnName("_entity", qualifier: "t")
        var sql: SQLText = "SELECT \(pk), \(entity) FROM \(TableName(table.name)) AS t"
        if Set(kinds) != Set(dst.entityNames(inTable: table.name)) {
            sql += " WHERE \(entity) IN (" + kinds.map { "\($0)" as SQLText }.joined(separator: ", ") + ")"
        }
        return sql + " ORDER BY \(pk)"
    }
}
