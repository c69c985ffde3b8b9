import StrataCore

/// The live shape of the tables in a PostgreSQL store's schema, read from `pg_catalog` (SPEC §14.2): one
/// query per aspect (columns, key and foreign-key constraints, indexes) for the whole schema, whatever the
/// number of tables. What ``PostgresDriftDetector`` compares with a layout.
struct PostgresCatalog: Sendable, Hashable {
    struct Column: Sendable, Hashable {
        var name: String
        /// `format_type` of the column: `bigint`, `timestamp with time zone`, `character varying(20)`, …
        var type: String
        var notNull: Bool
        /// `pg_attribute.attidentity`: `a` (ALWAYS), `d` (BY DEFAULT) or empty.
        var identity: String
    }

    struct ForeignKey: Sendable, Hashable {
        var name: String
        var columns: [String]
        var target: String
        var targetColumns: [String]
        /// `pg_constraint.confdeltype`: `a` NO ACTION, `r` RESTRICT, `c` CASCADE, `n` SET NULL, `d` SET DEFAULT.
        var onDelete: String
        var deferrable: Bool
        var initiallyDeferred: Bool
    }

    struct Index: Sendable, Hashable {
        var name: String
        var isUnique: Bool
        var columns: [String]
    }

    struct Table: Sendable, Hashable {
        var columns: [Column] = []
        var primaryKey: [String] = []
        var foreignKeys: [ForeignKey] = []
        /// The indexes that back no primary key.
        var indexes: [Index] = []
    }

    var tables: [String: Table] = [:]

    /// Reads the ordinary and partitioned tables of `schema`.
    static func read(_ session: PostgresSession, schema: String) async throws(PostgresStoreError) -> PostgresCatalog {
        var catalog = PostgresCatalog()
        let columns: SQLText = """
            SELECT c.relname::text, a.attname::text, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attidentity::text \
            FROM pg_attribute AS a JOIN pg_class AS c ON c.oid = a.attrelid JOIN pg_namespace AS n ON n.oid = c.relnamespace \
            WHERE n.nspname = \(schema) AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped \
            ORDER BY c.relname, a.attnum
            """
        for row in try await session.rows(columns) {
            let table = try PostgresSession.decode(row[0], as: String.self, statement: columns)
            catalog.tables[table, default: Table()].columns.append(Column(
                name: try PostgresSession.decode(row[1], as: String.self, statement: columns),
                type: try PostgresSession.decode(row[2], as: String.self, statement: columns),
                notNull: try PostgresSession.decode(row[3], as: Bool.self, statement: columns),
                identity: try PostgresSession.decode(row[4], as: String.self, statement: columns)))
        }
        let constraints: SQLText = """
            SELECT c.relname::text, k.contype::text, k.conname::text, \
            array(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY AS u(n, i) \
            JOIN pg_attribute AS a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i), \
            coalesce(f.relname::text, ''), \
            array(SELECT a.attname::text FROM unnest(coalesce(k.confkey, '{}')) WITH ORDINALITY AS u(n, i) \
            JOIN pg_attribute AS a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i), \
            k.confdeltype::text, k.condeferrable, k.condeferred \
            FROM pg_constraint AS k JOIN pg_class AS c ON c.oid = k.conrelid JOIN pg_namespace AS n ON n.oid = c.relnamespace \
            LEFT JOIN pg_class AS f ON f.oid = k.confrelid \
            WHERE n.nspname = \(schema) AND k.contype IN ('p', 'f') ORDER BY c.relname, k.conname
            """
        for row in try await session.rows(constraints) {
            let table = try PostgresSession.decode(row[0], as: String.self, statement: constraints)
            let keyColumns = try PostgresSession.decode(row[3], as: [String].self, statement: constraints)
            if try PostgresSession.decode(row[1], as: String.self, statement: constraints) == "p" {
                catalog.tables[table, default: Table()].primaryKey = keyColumns
                continue
            }
            catalog.tables[table, default: Table()].foreignKeys.append(ForeignKey(
                name: try PostgresSession.decode(row[2], as: String.self, statement: constraints), columns: keyColumns,
                target: try PostgresSession.decode(row[4], as: String.self, statement: constraints),
                targetColumns: try PostgresSession.decode(row[5], as: [String].self, statement: constraints),
                onDelete: try PostgresSession.decode(row[6], as: String.self, statement: constraints),
                deferrable: try PostgresSession.decode(row[7], as: Bool.self, statement: constraints),
                initiallyDeferred: try PostgresSession.decode(row[8], as: Bool.self, statement: constraints)))
        }
        let indexes: SQLText = """
            SELECT t.relname::text, i.relname::text, x.indisunique, \
            array(SELECT coalesce(a.attname::text, '(expression)') FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS u(n, o) \
            LEFT JOIN pg_attribute AS a ON a.attrelid = x.indrelid AND a.attnum = u.n ORDER BY u.o) \
            FROM pg_index AS x JOIN pg_class AS i ON i.oid = x.indexrelid JOIN pg_class AS t ON t.oid = x.indrelid \
            JOIN pg_namespace AS n ON n.oid = t.relnamespace \
            WHERE n.nspname = \(schema) AND NOT x.indisprimary ORDER BY t.relname, i.relname
            """
        for row in try await session.rows(indexes) {
            let table = try PostgresSession.decode(row[0], as: String.self, statement: indexes)
            catalog.tables[table, default: Table()].indexes.append(Index(
                name: try PostgresSession.decode(row[1], as: String.self, statement: indexes),
                isUnique: try PostgresSession.decode(row[2], as: Bool.self, statement: indexes),
                columns: try PostgresSession.decode(row[3], as: [String].self, statement: indexes)))
        }
        return catalog
    }
}
