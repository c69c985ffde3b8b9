extension BatchInsertPlanner {
    /// An `onConflict: update` insert as an update and an insert, with the outcome of SQLite's row-by-row
    /// `ON CONFLICT (key) DO UPDATE` (`BatchInsertPlan.upserts`; PostgreSQL's `ON CONFLICT` would spend an
    /// identity value on every conflicting row, so later rows would get other object IDs than on SQLite):
    ///
    /// ```sql
    /// UPDATE "T" AS x SET "name" = n."strata_v1" FROM (<proposals>) AS n WHERE x."code" = n."strata_v0"
    ///   RETURNING x."_pk"
    /// INSERT INTO "T" ("code", "name") SELECT n."strata_v0", n."strata_v1" FROM (<proposals>) AS n
    ///   WHERE NOT EXISTS (SELECT 1 FROM "T" AS x WHERE x."code" = n."strata_v0") ORDER BY …
    /// ```
    ///
    /// A literal row is one proposal. For a `from:` insert, where several source rows share a key, SQLite's
    /// first one (in source `_pk` order) would be inserted or update the existing row and each later one update
    /// it again: the named columns end with the last row's values (the columns the insert does not name hold
    /// the model's defaults, the same for every row). So the last row of each key is proposed, and inserted in
    /// the first one's place, so that the new rows get their `_pk`s in the same order as on SQLite.
    ///
    /// nil when the table has no uniqueness constraint or several (PostgreSQL refuses those first), or when
    /// the insert leaves a key column out (its rows are NULL there and conflict with nothing).
    func upsert(columns: [ColumnName], values: [SQLText], from source: TableName?, where condition: SQLText?,
                table: String, setting named: [ColumnName]) -> BatchInsertPlan.Upsert? {
        let unique = layout.table(table)?.indexes.filter(\.isUnique) ?? []
        guard unique.count == 1, !columns.isEmpty else { return nil }
        let positions = unique[0].columns.compactMap { key in columns.firstIndex { $0.name == key } }
        guard positions.count == unique[0].columns.count else { return nil }
        let inner = columns.indices.map { ColumnName("strata_v\($0)", qualifier: "n") }
        let t = TableName(table), pk = ColumnName("_pk", qualifier: "x")
        let row = ColumnName("strata_row"), first = ColumnName("strata_first"), last = ColumnName("strata_last")
        let anyKeyNull = positions.map { "\(inner[$0]) IS NULL" as SQLText }.joined(separator: " OR ")
        let matches = positions.map { "\(ColumnName(columns[$0].name, qualifier: "x")) = \(inner[$0])" as SQLText }.joined(separator: " AND ")
        let aliased = zip(values, inner).map { value, name in value + " AS \(ColumnName(name.name))" }.joined(separator: ", ")
        let proposals: SQLText
        var order: SQLText = ""
        if let source {
            let keys = positions.map { values[$0] }.joined(separator: ", "), sourcePK = ColumnName("_pk", qualifier: "t")
            proposals = "SELECT * FROM (SELECT " + aliased + ", \(sourcePK) AS \(row), row_number() OVER (PARTITION BY " + keys
                + " ORDER BY \(sourcePK) DESC) AS \(last), min(\(sourcePK)) OVER (PARTITION BY " + keys + ") AS \(first) FROM \(source) AS t WHERE "
                + (condition ?? .keyword(.true)) + ") AS n WHERE \(last.qualified(by: "n")) = 1 OR " + anyKeyNull
            order = " ORDER BY CASE WHEN " + anyKeyNull + " THEN \(row.qualified(by: "n")) ELSE \(first.qualified(by: "n")) END"
        } else {
            proposals = "SELECT " + aliased
        }
        let assigned = named.filter { $0.name != "_entity" }.map { c in "\(c) = \(inner[columns.firstIndex(of: c)!])" as SQLText }
        let returning: SQLText = " RETURNING \(pk)"
            + (columns.contains { $0.name == "_entity" } ? ", \(ColumnName("_entity", qualifier: "x"))" : "")
        // With nothing to assign, SQLite's clause is DO NOTHING: no update, and the existing rows are not listed.
        let update: SQLText? = assigned.isEmpty ? nil
            : "UPDATE \(t) AS x SET " + assigned.joined(separator: ", ") + " FROM (" + proposals + ") AS n WHERE " + matches + returning
        let insert: SQLText = "INSERT INTO \(t) (\(columns)) SELECT " + inner.map { "\($0)" as SQLText }.joined(separator: ", ")
            + " FROM (" + proposals + ") AS n WHERE NOT EXISTS (SELECT 1 FROM \(t) AS x WHERE " + matches + ")" + order
        return BatchInsertPlan.Upsert(update: update, insert: insert)
    }
}
