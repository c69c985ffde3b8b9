extension BatchInsertPlanner {
    /// A `from:` insert with `onConflict: update` in the form PostgreSQL runs (`BatchInsertPlan.upserts`), with
    /// the rows, object IDs and counts of SQLite's row-by-row `ON CONFLICT (key) DO UPDATE`.
    ///
    /// SQLite takes a new `_pk` (`AUTOINCREMENT`) for every source row, in source `_pk` order, whether it is
    /// inserted or updates a row: the k-th source row's new object, if any, is `base + k`. Where several source
    /// rows share a key, the first one is inserted (or updates the existing row) and each later one updates it
    /// again, so the named columns end with the last row's values (the columns the insert does not name hold
    /// the model's defaults, the same for every row). PostgreSQL's `ON CONFLICT DO UPDATE` cannot change a row
    /// twice in one statement, so each key is proposed once (`"strata_p"`), with its last row's values and its
    /// first row's key `base + k` (`OVERRIDING SYSTEM VALUE`); the caller takes `base` from the identity sequence
    /// and moves the sequence past `base + count` afterwards, as SQLite's sequence moves.
    ///
    /// SQLite's `RETURNING` lists a row once per source row that wrote it; Strata counts as updated those that
    /// existed before the insert, so an existing row n source rows updated counts n. So each written row
    /// (`"strata_w"`) comes back with the number of source rows of its key (`"strata_n"`), joined on the key it
    /// holds: 1 for a row whose key has a NULL (each such source row is proposed, and inserted, alone).
    ///
    /// ```sql
    /// WITH "strata_p" AS (SELECT *, row_number() OVER (PARTITION BY "strata_v0" ORDER BY "strata_k" DESC) AS "strata_last",
    ///   min("strata_k") OVER (PARTITION BY "strata_v0") AS "strata_first", count(*) OVER (PARTITION BY "strata_v0")
    ///   AS "strata_n" FROM (SELECT <v0> AS "strata_v0", <v1> AS "strata_v1", row_number() OVER (ORDER BY t."_pk")
    ///   AS "strata_k" FROM "S" AS t WHERE …) AS p),
    ///   "strata_w" AS (INSERT INTO "T" ("_pk", "code", "name") OVERRIDING SYSTEM VALUE SELECT $base + CASE WHEN
    ///   n."strata_v0" IS NULL THEN n."strata_k" ELSE n."strata_first" END, n."strata_v0", n."strata_v1" FROM "strata_p"
    ///   AS n WHERE n."strata_last" = 1 OR n."strata_v0" IS NULL ORDER BY 1 ON CONFLICT ("code") DO UPDATE SET …
    ///   RETURNING "_pk", "code" AS "strata_v0")
    /// SELECT w."_pk", coalesce(n."strata_n", 1) FROM "strata_w" AS w LEFT JOIN "strata_p" AS n ON n."strata_last" = 1
    ///   AND n."strata_v0" = w."strata_v0"
    /// ```
    ///
    /// A hierarchy table's rows also return their `_entity` (`RETURNING "_pk", "_entity", …`, then
    /// `SELECT w."_pk", w."_entity", …`).
    ///
    /// nil when the table has no uniqueness constraint or several (`rowByRowUpsert` runs those), or when the
    /// insert leaves a key column out (its rows are NULL there and conflict with nothing).
    func upsert(columns: [ColumnName], values: [SQLText], from source: TableName, where condition: SQLText,
                table: String, setting named: [ColumnName], discriminated: Bool) -> BatchInsertPlan.Upsert? {
        let unique = layout.table(table)?.indexes.filter(\.isUnique) ?? []
        guard unique.count == 1, !columns.isEmpty else { return nil }
        let positions = unique[0].columns.compactMap { key in columns.firstIndex { $0.name == key } }
        guard positions.count == unique[0].columns.count else { return nil }
        let inner = columns.indices.map { ColumnName("strata_v\($0)") }
        let n = { (column: ColumnName) in column.qualified(by: "n") }, w = { (column: ColumnName) in column.qualified(by: "w") }
        let k = ColumnName("strata_k"), first = ColumnName("strata_first"), last = ColumnName("strata_last"), sources = ColumnName("strata_n")
        let proposed = TableName("strata_p"), written = TableName("strata_w")
        let keys = positions.map { "\(inner[$0])" as SQLText }.joined(separator: ", ")
        let anyKeyNull = positions.map { "\(n(inner[$0])) IS NULL" as SQLText }.joined(separator: " OR ")
        let sameKey = positions.map { "\(n(inner[$0])) = \(w(inner[$0]))" as SQLText }.joined(separator: " AND ")
        let sourcePK = ColumnName("_pk", qualifier: "t"), pk = ColumnName("_pk"), entity = ColumnName("_entity")
        let rows: SQLText = "SELECT " + zip(values, inner).map { value, name in value + " AS \(name)" }.joined(separator: ", ")
            + ", row_number() OVER (ORDER BY \(sourcePK)) AS \(k) FROM \(source) AS t WHERE " + condition
        let proposals: SQLText = "SELECT *, row_number() OVER (PARTITION BY " + keys + " ORDER BY \(k) DESC) AS \(last), min(\(k)) OVER (PARTITION BY "
            + keys + ") AS \(first), count(*) OVER (PARTITION BY " + keys + ") AS \(sources) FROM (" + rows + ") AS p"
        let head: SQLText = "WITH \(proposed) AS (" + proposals + "), \(written) AS (INSERT INTO \(TableName(table)) (\(pk), \(columns)) OVERRIDING SYSTEM VALUE SELECT "
        let returned: SQLText = "\(pk)" + (discriminated ? ", \(entity)" : "")
            + positions.map { ", \(columns[$0]) AS \(inner[$0])" as SQLText }.joined()
        let tail: SQLText = " + CASE WHEN " + anyKeyNull + " THEN \(n(k)) ELSE \(n(first)) END, " + inner.map { "\(n($0))" as SQLText }.joined(separator: ", ")
            + " FROM \(proposed) AS n WHERE \(n(last)) = 1 OR " + anyKeyNull + " ORDER BY 1" + conflictClause(.update, table: table, setting: named)
            + " RETURNING " + returned + ") SELECT \(w(pk)), " + (discriminated ? "\(w(entity)), " : "") + "coalesce(\(n(sources)), 1) FROM \(written) AS w "
            + "LEFT JOIN \(proposed) AS n ON \(n(last)) = 1 AND " + sameKey
        return BatchInsertPlan.Upsert(count: "SELECT count(*) FROM \(source) AS t WHERE " + condition, head: head, tail: tail,
                                      returnsWriters: true)
    }
}

extension BatchInsertPlanner {
    /// A literal row with `onConflict: update` into a table with several uniqueness constraints, in the form
    /// PostgreSQL runs (one `ON CONFLICT` target per statement there), with SQLite's outcome.
    ///
    /// SQLite's `INSERT … ON CONFLICT (a) DO UPDATE … ON CONFLICT (b) DO UPDATE …` tries the clauses in order:
    /// the first constraint on which an existing row holds the proposed key picks that row, whose named columns
    /// are updated (a key that then collides with a third row breaks the constraint: 1551, exit 3); no match on
    /// any constraint inserts the row. Either way the row spends one `AUTOINCREMENT` key. So the row's target is
    /// resolved first, constraint by constraint in the same order (`coalesce` of one lookup each; a NULL key
    /// matches nothing), then updated, or inserted under `base + 1` (`OVERRIDING SYSTEM VALUE`; the caller takes
    /// `base` from the identity sequence and moves it past `base + 1`, as SQLite's sequence moves):
    ///
    /// ```sql
    /// WITH "m" AS (SELECT p.*, coalesce((SELECT x."_pk" FROM "T" AS x WHERE x."a" = p."strata_v0"),
    ///   (SELECT x."_pk" FROM "T" AS x WHERE x."b" = p."strata_v1")) AS "strata_target" FROM (SELECT <v0> AS "strata_v0", …) AS p),
    ///   "u" AS (UPDATE "T" AS x SET "a" = m."strata_v0", … FROM "m" AS m WHERE x."_pk" = m."strata_target" RETURNING x."_pk"),
    ///   "i" AS (INSERT INTO "T" AS x ("_pk", "a", …) OVERRIDING SYSTEM VALUE SELECT $base + 1, m."strata_v0", … FROM "m" AS m
    ///   WHERE m."strata_target" IS NULL RETURNING x."_pk")
    /// SELECT * FROM "u" UNION ALL SELECT * FROM "i"
    /// ```
    ///
    /// nil when the table has at most one uniqueness constraint (PostgreSQL's own `ON CONFLICT` does as SQLite
    /// does) or the row names no column to update (`ON CONFLICT DO NOTHING` on both engines).
    func upsert(columns: [ColumnName], values: [SQLText], table: String, setting named: [ColumnName],
                discriminated: Bool) -> BatchInsertPlan.Upsert? {
        let unique = layout.table(table)?.indexes.filter(\.isUnique) ?? []
        let assigned = named.filter { $0.name != "_entity" }
        guard unique.count > 1, !assigned.isEmpty else { return nil }
        let inner = columns.indices.map { ColumnName("strata_v\($0)") }
        let inners = Dictionary(zip(columns.map(\.name), inner), uniquingKeysWith: { a, _ in a })
        let m = { (column: ColumnName) in column.qualified(by: "m") }
        let pk = ColumnName("_pk"), target = ColumnName("strata_target")
        let resolved = conflictTarget(in: table, values: inners, of: "p") ?? "CAST(NULL AS bigint)"
        let returned: SQLText = discriminated ? ", \(ColumnName("_entity", qualifier: "x"))" : ""
        let head: SQLText = "WITH \(TableName("m")) AS (SELECT p.*, " + resolved + " AS \(target) FROM (SELECT "
            + zip(values, inner).map { value, name in value + " AS \(name)" }.joined(separator: ", ") + ") AS p), "
            + "\(TableName("u")) AS (UPDATE \(TableName(table)) AS x SET "
            + assigned.map { "\($0) = \(m(inners[$0.name]!))" as SQLText }.joined(separator: ", ")
            + " FROM \(TableName("m")) AS m WHERE \(ColumnName("_pk", qualifier: "x")) = \(m(target)) RETURNING \(ColumnName("_pk", qualifier: "x"))" + returned + "), "
            + "\(TableName("i")) AS (INSERT INTO \(TableName(table)) AS x (\(pk), \(columns)) OVERRIDING SYSTEM VALUE SELECT "
        let tail: SQLText = " + 1, " + inner.map { "\(m($0))" as SQLText }.joined(separator: ", ")
            + " FROM \(TableName("m")) AS m WHERE \(m(target)) IS NULL RETURNING \(ColumnName("_pk", qualifier: "x"))" + returned + ") "
            + "SELECT * FROM \(TableName("u")) UNION ALL SELECT * FROM \(TableName("i"))"
        return BatchInsertPlan.Upsert(count: "SELECT CAST(1 AS bigint)", head: head, tail: tail)
    }
}

extension BatchInsertPlanner {
    /// `coalesce((SELECT x."_pk" FROM "T" AS x WHERE x."a" = r."strata_v0"), …)`: the existing row a proposed row
    /// (alias `row`, its values in the columns `values` names per inserted column) lands on, tried constraint by
    /// constraint in the layout's order as SQLite tries its `ON CONFLICT` clauses. A constraint with a column the
    /// row leaves NULL (neither named nor defaulted) matches no row; nil when none can match.
    func conflictTarget(in table: String, values: [String: ColumnName], of row: String) -> SQLText? {
        let unique = layout.table(table)?.indexes.filter(\.isUnique) ?? []
        let lookups = unique.compactMap { index -> SQLText? in
            let pairs = index.columns.compactMap { key in values[key].map { (ColumnName(key, qualifier: "x"), $0.qualified(by: row)) } }
            guard pairs.count == index.columns.count else { return nil }
            return "(SELECT \(ColumnName("_pk", qualifier: "x")) FROM \(TableName(table)) AS x WHERE "
                + pairs.map { column, value in "\(column) = \(value)" as SQLText }.joined(separator: " AND ") + ")"
        }
        return lookups.isEmpty ? nil : "coalesce(" + lookups.joined(separator: ", ") + ")"
    }
}

extension BatchInsertPlan.Upsert {
    /// The insert, its new objects' keys counted from `base` (the identity sequence's value before it).
    public func insert(above base: Int64) -> SQLText { head + .bind(.integer(base)) + tail }
}
