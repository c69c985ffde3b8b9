/// Keywords and operators that SQLite and PostgreSQL spell differently. Pure.
public enum SQLKeyword: Hashable, Sendable {
    /// A condition that always holds: `1` / `true`.
    case `true`
    /// A condition that never holds: `0` / `false`.
    case `false`
    /// Null-safe equality, with spaces around: ` IS ` / ` IS NOT DISTINCT FROM `.
    case `is`
    /// Null-safe inequality, with spaces around: ` IS NOT ` / ` IS DISTINCT FROM `.
    case isNot
    /// The head of an insert that skips conflicting rows: `INSERT OR IGNORE` / `INSERT`.
    case insertOrIgnore
    /// Its tail, at the statement's end: nothing / ` ON CONFLICT DO NOTHING`.
    case onConflictIgnore
    /// After a text sort key, code-point order: nothing (SQLite's BINARY) / ` COLLATE "C"`.
    case codePointOrder
    /// An ascending sort key with nil first, as SQLite sorts: ` ASC` / ` ASC NULLS FIRST`.
    case ascending
    /// A descending sort key with nil last, as SQLite sorts: ` DESC` / ` DESC NULLS LAST`.
    case descending

    /// SQLite's spelling.
    public var sqlite: String {
        switch self {
        case .true: "1"
        case .false: "0"
        case .is: " IS "
        case .isNot: " IS NOT "
        case .insertOrIgnore: "INSERT OR IGNORE"
        case .onConflictIgnore: ""
        case .codePointOrder: ""
        case .ascending: " ASC"
        case .descending: " DESC"
        }
    }

    /// PostgreSQL's spelling.
    public var postgresql: String {
        switch self {
        case .true: "true"
        case .false: "false"
        case .is: " IS NOT DISTINCT FROM "
        case .isNot: " IS DISTINCT FROM "
        case .insertOrIgnore: "INSERT"
        case .onConflictIgnore: " ON CONFLICT DO NOTHING"
        case .codePointOrder: " COLLATE \"C\""
        case .ascending: " ASC NULLS FIRST"
        case .descending: " DESC NULLS LAST"
        }
    }
}
