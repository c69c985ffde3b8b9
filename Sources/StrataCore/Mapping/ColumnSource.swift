/// Where a destination column's values come from, read from the source row it continues.
///
/// Dialect-neutral: SQLite renders it as the `SELECT` list of a table copy (``selectSQL``) or as
/// `ALTER TABLE … ADD COLUMN` with a backfill; PostgreSQL as `ALTER COLUMN … TYPE … USING` or an
/// `UPDATE`. Expressions name the source row `"strata_old"` (``oldAlias``).
public enum ColumnSource: Hashable, Sendable {
    /// The same row's source column.
    case column(String)
    /// The same row's source column converted to a wider storage type (`CAST(… AS REAL)`).
    case cast(String, String)
    /// A constant (`.null` for none).
    case constant(Value)
    /// Per source kind (`_entity` values); rows of other kinds get NULL.
    case byKind([KindBranch])
    /// `_entity`: source entity names mapped to destination names, or one name for a source table
    /// that had no `_entity` column.
    case entityName(renames: [String: String], single: String?)
    /// Any other expression over the source row (`"strata_old"` alias), e.g. a link subquery.
    case expression(SQLText)

    /// The alias of the source row in expressions.
    public static let oldAlias = "strata_old"

    /// `"strata_old"."column"`: a column of the source row.
    public static func old(_ column: String) -> SQLText { "\(TableName(oldAlias)).\(ColumnName(column))" }

    /// The SELECT expression in an `INSERT … SELECT … FROM "source" AS "strata_old"`.
    var selectSQL: SQLText {
        switch self {
        case .column(let c): return Self.old(c)
        case .cast(let c, let type): return "CAST(" + Self.old(c) + " AS \(keyword: type))"
        case .constant(.null): return "NULL"
        case .constant(let v): return .bind(v)
        case .byKind(let branches):
            var sql: SQLText = "CASE"
            for b in branches {
                sql += " WHEN " + Self.old("_entity") + " IN (" + boundList(b.sourceKinds.map(Value.text)) + ") THEN " + b.value.selectSQL
            }
            return sql + " ELSE NULL END"
        case .entityName(_, let single?): return .bind(.text(single))
        case .entityName(let renames, nil):
            let changed = renames.filter { $0.key != $0.value }.sorted { $0.key < $1.key }
            if changed.isEmpty { return Self.old("_entity") }
            return "CASE " + Self.old("_entity") + changed.map { " WHEN \($0.key) THEN \($0.value)" as SQLText }.joined()
                + " ELSE " + Self.old("_entity") + " END"
        case .expression(let sql): return sql
        }
    }

    /// A source column as it is (`.column`).
    var isPlainColumn: Bool {
        if case .column = self { return true }
        return false
    }

    var isConstant: Bool {
        switch self {
        case .constant: return true
        case .byKind(let branches): return branches.allSatisfy(\.value.isConstant)
        default: return false
        }
    }
}

/// The value of a column for the rows of some source kinds (their destination names alongside).
public struct KindBranch: Hashable, Sendable {
    public var sourceKinds: [String]
    public var destinationKinds: [String]
    public var value: ColumnSource

    public init(sourceKinds: [String], destinationKinds: [String], value: ColumnSource) {
        self.sourceKinds = sourceKinds
        self.destinationKinds = destinationKinds
        self.value = value
    }
}

/// `?, ?, …` bound to `values`.
func boundList(_ values: [Value]) -> SQLText { values.map(SQLText.bind).joined(separator: ", ") }

/// SQL literals for the one place values cannot be bound: a column's `DEFAULT` clause in
/// `ALTER TABLE … ADD COLUMN` (what makes adding a defaulted column O(1)).
enum SQLLiteral {
    /// The literal, or nil when the value has no safe literal form (text with NUL, non-finite reals).
    static func render(_ value: Value) -> String? {
        switch value {
        case .null: return "NULL"
        case .integer(let i): return String(i)
        case .real(let d):
            guard d.isFinite else { return nil }
            let text = "\(d)"
            return text.contains(".") || text.contains("e") ? text : text + ".0"
        case .text(let s):
            guard !s.contains("\0") else { return nil }
            return "'" + s.doublingQuotes("'") + "'"
        case .blob(let bytes):
            let hex = "0123456789ABCDEF".map { $0 }
            return "X'" + String(bytes.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }) + "'"
        }
    }
}
