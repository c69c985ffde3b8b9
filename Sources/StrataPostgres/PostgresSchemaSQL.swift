import StrataCore

/// PostgreSQL DDL for a layout and for Strata's own tables (SPEC §14.2). Pure.
///
/// Tables are created without their foreign keys, which are added afterwards (`ALTER TABLE … ADD
/// CONSTRAINT`), so that tables referring to each other in any order or in a cycle can be created.
enum PostgresSchemaSQL {
    /// `"name" type [NOT NULL]`, or the identity key for `_pk`.
    static func columnDefinition(_ column: ColumnSpec, type: String) -> SQLText {
        if column.isPrimaryKey { return "\(ColumnName(column.name)) bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY" }
        return "\(ColumnName(column.name)) \(keyword: type)" + (column.isNotNull ? " NOT NULL" : "")
    }

    /// `CREATE TABLE` with the columns' native types and the primary key, no foreign keys.
    static func createTable(_ table: TableSpec, types: [String: String]) -> SQLText {
        var parts = table.columns.map { columnDefinition($0, type: types[$0.name]!) }
        if !table.primaryKey.isEmpty { parts.append("PRIMARY KEY (\(table.primaryKey.map { ColumnName($0) }))") }
        return "CREATE TABLE \(TableName(table.name)) (" + parts.joined(separator: ", ") + ")"
    }

    /// `ALTER TABLE … ADD CONSTRAINT … FOREIGN KEY … DEFERRABLE INITIALLY IMMEDIATE`, or nil for a column
    /// without a foreign key.
    static func addForeignKey(_ column: ColumnSpec, table: String) -> SQLText? {
        guard let target = column.references else { return nil }
        let name = IndexName(PostgresLayout.foreignKeyName(table: table, column: column.name))
        var sql: SQLText = "ALTER TABLE \(TableName(table)) ADD CONSTRAINT \(name) FOREIGN KEY (\(ColumnName(column.name)))"
            + " REFERENCES \(TableName(target)) (\(ColumnName("_pk")))"
        if let action = column.onDelete { sql += " ON DELETE \(keyword: action)" }
        return sql + " DEFERRABLE INITIALLY IMMEDIATE"
    }

    /// `CREATE [UNIQUE] INDEX`.
    static func createIndex(_ index: IndexSpec, on table: String) -> SQLText {
        "CREATE \(keyword: index.isUnique ? "UNIQUE " : "")INDEX \(IndexName(index.name)) ON \(TableName(table)) (\(index.columns.map { ColumnName($0) }))"
    }

    /// The statements creating `tables` (of a layout of `model`): tables, then foreign keys, then indexes.
    static func createStatements(for tables: [TableSpec], attributeTypes: [String: [String: AttributeType]]) -> [SQLText] {
        tables.map { createTable($0, types: PostgresTypes.columnTypes(of: $0, attributeTypes: attributeTypes)) }
            + tables.flatMap { table in table.columns.compactMap { addForeignKey($0, table: table.name) } }
            + tables.flatMap { table in table.indexes.map { createIndex($0, on: table.name) } }
    }

    /// Strata's bookkeeping tables, with the columns SQLite stores have (`Strata/Store/StoreMetadata.swift`).
    static let metadataTables: [SQLText] = [
        #"CREATE TABLE "strata_metadata" ("key" text PRIMARY KEY, "value" text NOT NULL)"#,
        """
        CREATE TABLE "strata_history" ("id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "kind" text NOT NULL, \
        "fromVersion" integer, "toVersion" integer NOT NULL, "started" text NOT NULL, "finished" text NOT NULL, \
        "duration" double precision NOT NULL, "toolVersion" text NOT NULL, "details" text)
        """,
        """
        CREATE TABLE "strata_hooks" ("id" text PRIMARY KEY, "checksum" text NOT NULL, "afterVersion" integer NOT NULL, \
        "modelVersion" integer NOT NULL, "status" text NOT NULL, "rowsAffected" bigint NOT NULL, "finished" text NOT NULL, \
        "results" text)
        """,
    ]

    /// `SET LOCAL search_path TO "schema"`: a transaction's unqualified names are the store's.
    static func setSearchPath(_ schema: String, local: Bool) -> SQLText {
        "SET \(keyword: local ? "LOCAL " : "")search_path TO " + SQLText(pieces: [.identifier(qualifier: nil, name: schema)])
    }

    /// `CREATE SCHEMA IF NOT EXISTS "schema"`.
    static func createSchema(_ schema: String) -> SQLText {
        "CREATE SCHEMA IF NOT EXISTS " + SQLText(pieces: [.identifier(qualifier: nil, name: schema)])
    }
}
