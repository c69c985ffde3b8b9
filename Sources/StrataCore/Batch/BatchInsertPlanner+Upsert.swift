extension BatchInsertPlanner {
    /// A `from:` insert with `onConflict: update` in the form PostgreSQL runs (`BatchInsertPlan.upserts`), with
    /// the rows and object IDs of SQLite's row-by-row `ON CONFLICT (key) DO UPDATE`.
    ///
    /// SQLite takes a new `_pk` (`AUTOINCREMENT`) for every source row, in source `_pk` order, whether it is
    /// inserted or updates a row: the k-th source row's new object, if any, is `base + k`. Where several source
    /// rows share a key, the first one is inserted (or updates the existing row) and each later one updates it
    /// again, so the named columns end with the last row's values (the columns the insert does not name hold
    /// the model's defaults, the same for every row). PostgreSQL's `ON CONFLICT DO UPDATE` cannot change a row
    /// twice in one statement, so each key is proposed once, with its last row's values and its first row's key
    /// `base + k` (`OVERRIDING SYSTEM VALUE`); the caller takes `base` from the identity sequence and moves the
    /// sequence past `base + count` afterwards, as SQLite's sequence moves.
    ///
    /// ```sql
    /// INSERT INTO "T" ("_pk", "code", "name") OVERRIDING SYSTEM VALUE SELECT $base + CASE WHEN n."strata_v0" IS NULL
    ///   THEN n."strata_k" ELSE n."strata_first" END, n."strata_v0", n."strata_v1" FROM (SELECT *, row_number() OVER
    ///   (PARTITION BY "strata_v0" ORDER BY "strata_k" DESC) AS "strata_last", min("strata_k") OVER (PARTITION BY …)
    ///   AS "strata_first" FROM (SELECT <v0> AS "strata_v0", <v1> AS "strata_v1", row_number() OVER (ORDER BY t."_pk")
    ///   AS "strata_k" FROM "S" AS t WHERE …) AS p) AS n WHERE n."strata_last" = 1 OR n."strata_v0" IS NULL ORDER BY 1
    ///   ON CONFLICT ("code") DO UPDATE SET … RETURNING "_pk"
    /// ```
    ///
    /// nil when the table has no uniqueness constraint or several (PostgreSQL refuses those first), or when the
    /// insert leaves a key column out (its rows are NULL there and conflict with nothing).
    func upsert(columns: [ColumnName], values: [SQLText], from source: TableName, where condition: SQLText,
                table: String, setting named: [ColumnName], discriminated: Bool) -> BatchInsertPlan.Upsert? {
        let unique = layout.table(table)?.indexes.filter(\.isUnique) ?? []
        guard unique.count == 1, !columns.isEmpty else { return nil }
        let positions = unique[0].columns.compactMap { key in columns.firstIndex { $0.name == key } }
        guard positions.count == unique[0].columns.count else { return nil }
        let inner = columns.indices.map { ColumnName("strata_v\($0)") }
        let n = { (column: ColumnName) in column.qualified(by: "n") }
        let k = ColumnName("strata_k"), first = ColumnName("strata_first"), last = ColumnName("strata_last")
        let keys = positions.map { "\(inner[$0])" as SQLText }.joined(separator: ", ")
        let anyKeyNull = positions.map { "\(n(inner[$0])) IS NULL" as SQLText }.joined(separator: " OR ")
        let sourcePK = ColumnName("_pk", qualifier: "t"), pk = ColumnName("_pk")
        let rows: SQLText = "SELECT " + zip(values, inner).map { value, name in value + " AS \(name)" }.joined(separator: ", ")
            + ", row_number() OVER (ORDER BY \(sourcePK)) AS \(k) FROM \(source) AS t WHERE " + condition
        let proposals: SQLText = "SELECT *, row_number() OVER (PARTITION BY " + keys + " ORDER BY \(k) DESC) AS \(last), min(\(k)) OVER (PARTITION BY "
            + keys + ") AS \(first) FROM (" + rows + ") AS p"
        let head: SQLText = "INSERT INTO \(TableName(table)) (\(pk), \(columns)) OVERRIDING SYSTEM VALUE SELECT "
        let tail: SQLText = " + CASE WHEN " + anyKeyNull + " THEN \(n(k)) ELSE \(n(first)) END, " + inner.map { "\(n($0))" as SQLText }.joined(separator: ", ")
            + " FROM (" + proposals + ") AS n WHERE \(n(last)) = 1 OR " + anyKeyNull + " ORDER BY 1" + conflictClause(.update, table: table, setting: named)
            + " RETURNING \(pk)" + (discriminated ? ", \(ColumnName("_entity"))" : "")
        return BatchInsertPlan.Upsert(count: "SELECT count(*) FROM \(source) AS t WHERE " + condition, head: head, tail: tail)
    }
}

extension BatchInsertPlan.Upsert {
    /// The insert, its new objects' keys counted from `base` (the identity sequence's value before it).
    public func insert(above base: Int64) -> SQLText { head + .bind(.integer(base)) + tail }
}
