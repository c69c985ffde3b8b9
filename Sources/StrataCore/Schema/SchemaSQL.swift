/// DDL text for a layout. Pure.
public enum SchemaSQL {
    /// `CREATE TABLE` for one managed table, named `name` (defaults to the spec's name; a
    /// rebuild creates the new table under a temporary name).
    public static func createTable(_ table: TableSpec, named name: String? = nil) -> String {
        var parts: [String] = []
        for c in table.columns {
            var def = "\(SQLIdentifier.quote(c.name)) \(c.sqlType)"
            if c.isPrimaryKey { def += " PRIMARY KEY AUTOINCREMENT" }
            if c.isNotNull { def += " NOT NULL" }
            if let ref = c.references {
                def += " REFERENCES \(SQLIdentifier.quote(ref))(\"_pk\")"
                if let action = c.onDelete { def += " ON DELETE \(action)" }
            }
            parts.append(def)
        }
        if !table.primaryKey.isEmpty { parts.append("PRIMARY KEY (\(SQLIdentifier.quoteList(table.primaryKey)))") }
        return "CREATE TABLE \(SQLIdentifier.quote(name ?? table.name)) (\(parts.joined(separator: ", ")))"
    }

    /// `CREATE [UNIQUE] INDEX` for one index of a table.
    public static func createIndex(_ index: IndexSpec, on table: String) -> String {
        "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(SQLIdentifier.quote(index.name)) ON \(SQLIdentifier.quote(table)) (\(SQLIdentifier.quoteList(index.columns)))"
    }

    /// Every statement that creates the layout in an empty database, tables in name order,
    /// each followed by its indexes.
    public static func createStatements(for layout: StoreLayout) -> [String] {
        layout.tables.flatMap { table in
            [createTable(table)] + table.indexes.map { createIndex($0, on: table.name) }
        }
    }
}
