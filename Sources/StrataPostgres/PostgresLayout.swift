import StrataCore

/// A layout as a PostgreSQL store records it (SPEC §14.2): table and column names checked against the
/// 63-byte limit, index names shortened to fit. Pure.
enum PostgresLayout {
    /// `layout` with every index name fitting PostgreSQL.
    /// - Throws: `PostgresStoreError.nameTooLong` for the first table or column name over 63 bytes.
    static func adapted(_ layout: StoreLayout) throws(PostgresStoreError) -> StoreLayout {
        var tables: [TableSpec] = []
        for var table in layout.tables {
            guard PostgresNames.fits(table.name) else {
                throw .nameTooLong(kind: "table", name: table.name,
                                   hint: "give the entity a shorter `table:` name (join tables are named after their relationship)")
            }
            for column in table.columns where !PostgresNames.fits(column.name) {
                throw .nameTooLong(kind: "column", name: "\(table.name).\(column.name)",
                                   hint: "give the property a shorter `column:` name")
            }
            table.indexes = table.indexes.map { IndexSpec(name: PostgresNames.shortened($0.name), columns: $0.columns, isUnique: $0.isUnique) }
            tables.append(table)
        }
        return StoreLayout(tables: tables, entities: layout.entities)
    }

    /// The name of the foreign-key constraint of `column` in `table`, fitting PostgreSQL.
    static func foreignKeyName(table: String, column: String) -> String {
        PostgresNames.shortened("strata_fkey_\(table)_\(column)")
    }
}
