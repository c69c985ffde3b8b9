extension BatchInsertPlanner {
    /// The work table of a row-by-row upsert (`BatchInsertPlan.RowByRowUpsert`), dropped when its transaction ends.
    public static let upsertTable = TableName("strata_upsert", schema: "temp")

    /// A `from:` insert with `onConflict: update` into a table with several uniqueness constraints, in the form
    /// PostgreSQL runs (`BatchInsertPlan.rowByRow`), with the rows, keys and object IDs of SQLite's statement.
    ///
    /// SQLite's `INSERT … SELECT … ORDER BY t."_pk" ON CONFLICT (a) DO UPDATE … ON CONFLICT (b) DO UPDATE …` takes
    /// the source rows one by one in source `_pk` order: each tries the constraints in clause order (the layout's
    /// order), the first on which a row holds its key picks that row, whose named columns are updated (a key
    /// that then collides with another row breaks the constraint: 1551); no match inserts it. Each row spends
    /// one `AUTOINCREMENT` key, and sees what the rows before it wrote, so the outcome depends on the order and
    /// no set-based statement gives it. So the source rows are read once, into `pg_temp."strata_upsert"`, keyed
    /// `base + k` (k their rank in source `_pk` order; the caller takes `base` from the identity sequence and
    /// moves it past `base + count`, as SQLite's sequence moves), which also reads them before any is written,
    /// as SQLite does when the source reads the table it inserts into. Then one PL/pgSQL block (no bound values:
    /// it reads only the work table) runs them in that order, each as the literal-row form does
    /// (`upsert(columns:values:table:setting:discriminated:)`): its target resolved constraint by constraint
    /// (a NULL key matches nothing), then updated, or inserted under its key; the target is recorded in the
    /// work table (`updated`: the rows SQLite's `RETURNING` lists for the updates).
    ///
    /// ```sql
    /// CREATE TEMP TABLE "strata_upsert" ON COMMIT DROP AS SELECT x."_pk" AS "strata_k", x."_pk" AS "strata_target",
    ///   x."a" AS "strata_v0", x."b" AS "strata_v1" FROM "T" AS x WITH NO DATA
    /// INSERT INTO pg_temp."strata_upsert" ("strata_k", "strata_v0", "strata_v1") SELECT $base + row_number() OVER
    ///   (ORDER BY t."_pk"), <v0>, <v1> FROM "S" AS t WHERE …
    /// ALTER TABLE pg_temp."strata_upsert" ADD PRIMARY KEY ("strata_k")
    /// DO E'#variable_conflict use_variable
    ///   DECLARE "strata_r" record; "strata_pk" bigint; BEGIN FOR "strata_r" IN SELECT * FROM pg_temp."strata_upsert"
    ///   ORDER BY "strata_k" LOOP "strata_pk" := coalesce((SELECT x."_pk" FROM "T" AS x WHERE x."a" = strata_r."strata_v0"),
    ///   (SELECT … x."b" = strata_r."strata_v1")); IF "strata_pk" IS NULL THEN INSERT INTO "T" ("_pk", "a", "b")
    ///   OVERRIDING SYSTEM VALUE VALUES (strata_r."strata_k", strata_r."strata_v0", strata_r."strata_v1"); ELSE
    ///   UPDATE "T" AS x SET "a" = strata_r."strata_v0", … WHERE x."_pk" = "strata_pk"; UPDATE pg_temp."strata_upsert"
    ///   AS u SET "strata_target" = "strata_pk" WHERE u."strata_k" = strata_r."strata_k"; END IF; END LOOP; END'
    /// ```
    ///
    /// nil when the table has at most one uniqueness constraint (`upsert(columns:values:from:…)` or SQLite's own
    /// statement). An insert that names no column to update (`ON CONFLICT DO NOTHING` on SQLite) leaves a
    /// matched row as it is.
    func rowByRowUpsert(columns: [ColumnName], values: [SQLText], from source: TableName, where condition: SQLText,
                        table: String, setting named: [ColumnName], discriminated: Bool) -> BatchInsertPlan.RowByRowUpsert? {
        let unique = layout.table(table)?.indexes.filter(\.isUnique) ?? []
        guard unique.count > 1 else { return nil }
        let assigned = named.filter { $0.name != "_entity" }
        let work = Self.upsertTable, target = TableName(table)
        let inner = columns.indices.map { ColumnName("strata_v\($0)") }
        let inners = Dictionary(zip(columns.map(\.name), inner), uniquingKeysWith: { a, _ in a })
        let pk = ColumnName("_pk"), k = ColumnName("strata_k"), found = ColumnName("strata_target")
        let x = { (column: ColumnName) in column.qualified(by: "x") }, u = { (column: ColumnName) in column.qualified(by: "u") }
        // The block's variables: the current work row and the key of the row it updates.
        let row = { (column: ColumnName) in column.qualified(by: "strata_r") }
        let record = ColumnName("strata_r"), key = ColumnName("strata_pk")

        let create: SQLText = "CREATE TEMP TABLE \(TableName(work.name)) ON COMMIT DROP AS SELECT \(x(pk)) AS \(k), \(x(pk)) AS \(found)"
            + zip(columns, inner).map { column, name in ", \(x(column)) AS \(name)" as SQLText }.joined()
            + " FROM \(target) AS x WITH NO DATA"
        let fillHead: SQLText = "INSERT INTO \(work) (\([k] + inner)) SELECT "
        let fillTail: SQLText = " + row_number() OVER (ORDER BY \(ColumnName("_pk", qualifier: "t")))"
            + values.map { ", " + $0 }.joined() + " FROM \(source) AS t WHERE " + condition

        let resolved = conflictTarget(in: table, values: inners, of: record.name) ?? "NULL"
        let insert: SQLText = "INSERT INTO \(target) (\([pk] + columns)) OVERRIDING SYSTEM VALUE VALUES ("
            + ([row(k)] + inner.map(row)).map { "\($0)" as SQLText }.joined(separator: ", ") + ");"
        let update: SQLText = assigned.isEmpty ? "NULL;" : "UPDATE \(target) AS x SET "
            + assigned.map { "\($0) = \(row(inners[$0.name]!))" as SQLText }.joined(separator: ", ")
            + " WHERE \(x(pk)) = \(key); UPDATE \(work) AS u SET \(found) = \(key) WHERE \(u(k)) = \(row(k));"
        // A user's column named like a variable does not stop the block (`use_variable`; columns are qualified here).
        let body: SQLText = "#variable_conflict use_variable\nDECLARE \(record) record; \(key) bigint; BEGIN FOR \(record) IN SELECT * FROM \(work) ORDER BY \(k) LOOP "
            + "\(key) := " + resolved + "; IF \(key) IS NULL THEN " + insert + " ELSE " + update + " END IF; END LOOP; END"

        let updated: SQLText = discriminated
            ? "SELECT \(u(found)), \(x(ColumnName("_entity"))) FROM \(work) AS u JOIN \(target) AS x ON \(x(pk)) = \(u(found)) ORDER BY \(u(k))"
            : "SELECT \(u(found)) FROM \(work) AS u WHERE \(u(found)) IS NOT NULL ORDER BY \(u(k))"
        return BatchInsertPlan.RowByRowUpsert(drop: "DROP TABLE IF EXISTS \(work)", create: create, fillHead: fillHead, fillTail: fillTail,
                                              key: "ALTER TABLE \(work) ADD PRIMARY KEY (\(k))",
                                              loop: .function(.plpgsqlBlock, [body]), updated: updated)
    }
}
