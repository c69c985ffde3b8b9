/// The queries an audit runs, built from compiled rules. Pure.
///
/// Row rules of one table run together: a *sample* query returns the violating rows in `_pk` order
/// with one flag and one value per rule (the runner stops reading once every rule has its samples),
/// and a *count* query counts each rule's violations in one scan (`COUNT(*) FILTER (WHERE …)`).
/// Uniqueness rules have their own group queries.
public enum AuditSQL {
    /// Restricts `t` to the rows of `temp.strata_touched` for the table (one bound argument: the table name).
    public static let touchedRowsFilter = "t.\"_pk\" IN (SELECT \"pk\" FROM temp.\"strata_touched\" WHERE \"table\" = ?)"

    /// `SELECT t._pk, t._entity, (flag₁), …, (value₁), … FROM table AS t WHERE … ORDER BY t._pk`:
    /// the rows violating at least one of `rules` (all on one table), after `_pk` `after` when given.
    public static func samples(_ rules: [AuditRule], mode: AuditRunMode, after: Int64? = nil) -> SQLStatement {
        precondition(!rules.isEmpty && Set(rules.map(\.table)).count == 1, "rules of one table")
        var q = Fragment("SELECT t.\"_pk\", ")
        q.append(rules[0].isDiscriminated ? "t.\"_entity\"" : "NULL")
        for rule in rules { q.append(", ("); q.append(condition(rule)); q.append(")") }
        for rule in rules { q.append(", "); q.append(value(rule)) }
        q.append(" FROM \(SQLIdentifier.quote(rules[0].table)) AS t WHERE ")
        q.append(restriction(rules[0].table, mode))
        if let after { q.append(SQLStatement("t.\"_pk\" > ? AND ", [.integer(after)])) }
        q.append("(")
        for (i, rule) in rules.enumerated() {
            if i > 0 { q.append(" OR ") }
            q.append("("); q.append(condition(rule)); q.append(")")
        }
        q.append(") ORDER BY t.\"_pk\"")
        return q.statement
    }

    /// `SELECT COUNT(*) FILTER (WHERE cond₁), … FROM table AS t`: every rule's exact count in one scan.
    public static func counts(_ rules: [AuditRule], mode: AuditRunMode) -> SQLStatement {
        precondition(!rules.isEmpty && Set(rules.map(\.table)).count == 1, "rules of one table")
        var q = Fragment("SELECT ")
        for (i, rule) in rules.enumerated() {
            if i > 0 { q.append(", ") }
            q.append("COUNT(*) FILTER (WHERE "); q.append(condition(rule)); q.append(")")
        }
        q.append(" FROM \(SQLIdentifier.quote(rules[0].table)) AS t")
        if mode == .touchedRows { q.append(SQLStatement(" WHERE " + touchedRowsFilter, [.text(rules[0].table)])) }
        return q.statement
    }

    /// The members of duplicate groups, ordered by key then `_pk`, at most `perGroup` per group:
    /// columns k₀…kₙ, `_pk`, `_entity`, group size.
    public static func duplicateMembers(_ rule: AuditRule, perGroup: Int) -> SQLStatement {
        guard case .uniqueness(let columns, _) = rule.check else { preconditionFailure("uniqueness rule") }
        let keys = columns.map(SQLStatement.column).joined(separator: ", ")
        let aliases = columns.indices.map { "\"k\($0)\"" }
        var q = Fragment("SELECT \(aliases.joined(separator: ", ")), \"_pk\", \"_entity\", \"n\" FROM (SELECT ")
        for (i, column) in columns.enumerated() { q.append("\(SQLStatement.column(column)) AS \(aliases[i]), ") }
        q.append("t.\"_pk\" AS \"_pk\", \(rule.isDiscriminated ? "t.\"_entity\"" : "NULL") AS \"_entity\", ")
        q.append("COUNT(*) OVER (PARTITION BY \(keys)) AS \"n\", ")
        q.append("ROW_NUMBER() OVER (PARTITION BY \(keys) ORDER BY t.\"_pk\") AS \"r\" ")
        q.append("FROM \(SQLIdentifier.quote(rule.table)) AS t WHERE ")
        q.append(groupFilter(rule, columns))
        q.append(SQLStatement(") WHERE \"n\" > 1 AND \"r\" <= ? ORDER BY \(aliases.joined(separator: ", ")), \"_pk\"",
                              [.integer(Int64(perGroup))]))
        return q.statement
    }

    /// The number of duplicate groups.
    public static func duplicateGroupCount(_ rule: AuditRule) -> SQLStatement {
        guard case .uniqueness(let columns, _) = rule.check else { preconditionFailure("uniqueness rule") }
        var q = Fragment("SELECT COUNT(*) FROM (SELECT 1 FROM \(SQLIdentifier.quote(rule.table)) AS t WHERE ")
        q.append(groupFilter(rule, columns))
        q.append(" GROUP BY \(columns.map(SQLStatement.column).joined(separator: ", ")) HAVING COUNT(*) > 1)")
        return q.statement
    }

    /// The rule's condition, narrowed to its kinds.
    static func condition(_ rule: AuditRule) -> SQLStatement {
        guard case .row(let condition, _) = rule.check else { preconditionFailure("row rule") }
        guard let kinds = rule.kindFilter else { return condition }
        var q = Fragment(kinds)
        q.append(" AND ("); q.append(condition); q.append(")")
        return q.statement
    }

    static func value(_ rule: AuditRule) -> SQLStatement {
        guard case .row(_, let value) = rule.check else { preconditionFailure("row rule") }
        return value
    }

    /// `… AND ` restricting to touched rows (or nothing).
    static func restriction(_ table: String, _ mode: AuditRunMode) -> SQLStatement {
        mode == .touchedRows ? SQLStatement(touchedRowsFilter + " AND ", [.text(table)]) : SQLStatement("")
    }

    /// Kind filter and non-NULL key columns (NULLs never collide, as in a UNIQUE index).
    static func groupFilter(_ rule: AuditRule, _ columns: [String]) -> SQLStatement {
        var q = Fragment("")
        if let kinds = rule.kindFilter { q.append(kinds); q.append(" AND ") }
        q.append(columns.map { "\(SQLStatement.column($0)) IS NOT NULL" }.joined(separator: " AND "))
        return q.statement
    }

    /// SQL text and arguments appended in step.
    struct Fragment {
        var sql: String
        var arguments: [Value] = []
        init(_ sql: String) { self.sql = sql }
        init(_ statement: SQLStatement) { sql = statement.sql; arguments = statement.arguments }
        mutating func append(_ text: String) { sql += text }
        mutating func append(_ s: SQLStatement) { sql += s.sql; arguments += s.arguments }
        var statement: SQLStatement { SQLStatement(sql, arguments) }
    }
}
