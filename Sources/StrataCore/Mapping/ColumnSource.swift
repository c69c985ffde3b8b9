/// Where a destination column's values come from, for the rows copied into its table.
indirect enum ColumnSource: Hashable, Sendable {
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
    case expression(String, [Value])

    static let oldAlias = "strata_old"

    /// The SELECT expression in an `INSERT … SELECT … FROM "source" AS "strata_old"`.
    func selectSQL() -> (sql: String, arguments: [Value]) {
        let o = SQLIdentifier.quote(Self.oldAlias)
        switch self {
        case .column(let c): return ("\(o).\(SQLIdentifier.quote(c))", [])
        case .cast(let c, let type): return ("CAST(\(o).\(SQLIdentifier.quote(c)) AS \(type))", [])
        case .constant(.null): return ("NULL", [])
        case .constant(let v): return ("?", [v])
        case .byKind(let branches):
            var sql = "CASE"
            var args: [Value] = []
            for b in branches {
                let inner = b.value.selectSQL()
                sql += " WHEN \(o).\"_entity\" IN (\(placeholders(b.sourceKinds.count))) THEN \(inner.sql)"
                args += b.sourceKinds.map(Value.text) + inner.arguments
            }
            return (sql + " ELSE NULL END", args)
        case .entityName(_, let single?): return ("?", [.text(single)])
        case .entityName(let renames, nil):
            let changed = renames.filter { $0.key != $0.value }.sorted { $0.key < $1.key }
            if changed.isEmpty { return ("\(o).\"_entity\"", []) }
            return ("CASE \(o).\"_entity\"" + String(repeating: " WHEN ? THEN ?", count: changed.count) + " ELSE \(o).\"_entity\" END",
                    changed.flatMap { [Value.text($0.key), .text($0.value)] })
        case .expression(let sql, let args): return (sql, args)
        }
    }

    var isConstant: Bool {
        switch self {
        case .constant: return true
        case .byKind(let branches): return branches.allSatisfy(\.value.isConstant)
        default: return false
        }
    }
}

struct KindBranch: Hashable {
    var sourceKinds: [String]
    var destinationKinds: [String]
    var value: ColumnSource
}

func placeholders(_ n: Int) -> String { Array(repeating: "?", count: n).joined(separator: ", ") }

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
            return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes):
            let hex = "0123456789ABCDEF".map { $0 }
            return "X'" + String(bytes.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }) + "'"
        }
    }
}
