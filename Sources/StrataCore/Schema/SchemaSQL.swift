/// DDL for a layout. Pure.
public enum SchemaSQL {
    /// `CREATE TABLE` for one managed table, named `name` (defaults to the spec's name; a
    /// rebuild creates the new table under a temporary name).
    public static func createTable(_ table: TableSpec, named name: String? = nil) -> SQLText {
        var parts = table.columns.map(columnDefinition)
        if !table.primaryKey.isEmpty { parts.append("PRIMARY KEY (\(table.primaryKey.map { ColumnName($0) }))") }
        return "CREATE TABLE \(TableName(name ?? table.name)) (" + parts.joined(separator: ", ") + ")"
    }

    /// `"name" TYPE [PRIMARY KEY AUTOINCREMENT] [NOT NULL] [REFERENCES "T"("_pk") [ON DELETE …]]`
    static func columnDefinition(_ c: ColumnSpec) -> SQLText {
        var def: SQLText = "\(ColumnName(c.name)) \(keyword: c.sqlType)"
        if c.isPrimaryKey { def += " PRIMARY KEY AUTOINCREMENT" }
        if c.isNotNull { def += " NOT NULL" }
        def += references(c)
        return def
    }

    /// ` REFERENCES "T"("_pk") [ON DELETE …]`, or nothing.
    static func references(_ c: ColumnSpec) -> SQLText {
        guard let ref = c.references else { return "" }
        var clause: SQLText = " REFERENCES \(TableName(ref))(\(ColumnName("_pk")))"
        if let action = c.onDelete { clause += " ON DELETE \(keyword: action)" }
        return clause
    }

    /// `CREATE [UNIQUE] INDEX` for one index of a table.
    public static func createIndex(_ index: IndexSpec, on table: String) -> SQLText {
        "CREATE \(keyword: index.isUnique ? "UNIQUE " : "")INDEX \(IndexName(index.name)) ON \(TableName(table)) (\(index.columns.map { ColumnName($0) }))"
    }

    /// Every statement that creates the layout in an empty database, tables in name order,
    /// each followed by its indexes.
    public static func createStatements(for layout: StoreLayout) -> [SQLText] {
        layout.tables.flatMap { table in
            [createTable(table)] + table.indexes.map { createIndex($0, on: table.name) }
        }
    }
}
