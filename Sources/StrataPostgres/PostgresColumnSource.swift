import StrataCore

/// A plan's `ColumnSource` rendered for PostgreSQL: the value of a destination column computed from the
/// source row (`"strata_old"`), typed as the column's native type. Pure.
///
/// ```swift
/// PostgresColumnSource.expression(.constant(.integer(1)), attribute: .bool, type: "boolean")   // ($1 <> 0)
/// PostgresColumnSource.using(.cast("rating", "REAL"), column: "rating", type: "double precision")
/// // CAST("rating" AS double precision)
/// ```
enum PostgresColumnSource {
    /// The value over the source row aliased `"strata_old"`; a constant or an expression is converted from its
    /// storage form to the attribute's type (a bool bound as 0/1 becomes `($1 <> 0)`).
    static func expression(_ source: ColumnSource, attribute: AttributeType?, type: String) -> SQLText {
        switch source {
        case .column(let c): return ColumnSource.old(c)
        case .cast(let c, _): return "CAST(" + ColumnSource.old(c) + " AS \(keyword: type))"
        case .constant(.null): return "NULL"
        case .constant(let v): return attribute.map { PostgresTypes.expression(v, as: $0) } ?? .bind(v)
        case .byKind(let branches):
            var sql: SQLText = "CASE"
            for b in branches {
                sql += " WHEN " + ColumnSource.old("_entity") + " IN (" + b.sourceKinds.map { "\($0)" as SQLText }.joined(separator: ", ")
                    + ") THEN " + expression(b.value, attribute: attribute, type: type)
            }
            return sql + " ELSE NULL END"
        case .entityName(_, let single?): return "\(single)"
        case .entityName(let renames, nil):
            let changed = renames.filter { $0.key != $0.value }.sorted { $0.key < $1.key }
            if changed.isEmpty { return ColumnSource.old("_entity") }
            return "CASE " + ColumnSource.old("_entity") + changed.map { " WHEN \($0.key) THEN \($0.value)" as SQLText }.joined()
                + " ELSE " + ColumnSource.old("_entity") + " END"
        case .expression(let sql):
            // A mapping expression computes in storage forms (a bool as 0/1, a date as seconds): converted to the
            // column's native type, as a batch update's assignment is.
            return attribute.map { SQLText.native(sql, $0) } ?? sql
        }
    }

    /// Whether the value reads only the same source row (no subquery, no window): it can then be set by a
    /// plain `UPDATE … AS "strata_old" SET …`.
    static func isRowValue(_ source: ColumnSource) -> Bool {
        switch source {
        case .column, .cast, .constant, .entityName: return true
        case .byKind(let branches): return branches.allSatisfy { isRowValue($0.value) }
        case .expression: return false
        }
    }

    /// The `USING` expression of `ALTER COLUMN … TYPE type` for a column kept in place: its source column
    /// (unqualified, as `USING` reads the row being converted), converted to `type`.
    static func using(_ source: ColumnSource, type: String) -> SQLText {
        switch source {
        case .column(let c), .cast(let c, _): return "CAST(\(ColumnName(c)) AS \(keyword: type))"
        default: preconditionFailure("only a column carried in place is retyped: \(source)")
        }
    }

    /// A fill that may read other rows or tables (a link moved from elsewhere, a row number): the value is
    /// computed per source row in a subquery, then joined back on the table's key, so that any expression a
    /// `SELECT` list allows (window functions included) can fill the column.
    static func fill(table: String, key: [String], column: String, value: SQLText) -> SQLText {
        let target = TableName("strata_target"), row = TableName("strata_row")
        let old = TableName(ColumnSource.oldAlias)
        let keys = key.enumerated().map { (i, k) in ("strata_key\(i)", k) }
        let select: SQLText = keys.map { "\(ColumnName($0.1, qualifier: old.name)) AS \(ColumnName($0.0))" as SQLText }
            .joined(separator: ", ")
        let on: SQLText = keys.map { "\(ColumnName($0.1, qualifier: target.name)) = \(ColumnName($0.0, qualifier: row.name))" as SQLText }
            .joined(separator: " AND ")
        return "UPDATE \(TableName(table)) AS \(target) SET \(ColumnName(column)) = \(ColumnName("strata_value", qualifier: row.name))"
            + " FROM (SELECT " + select + ", " + value + " AS \(ColumnName("strata_value")) FROM \(TableName(table)) AS \(old)) AS \(row)"
            + " WHERE " + on
    }
}
