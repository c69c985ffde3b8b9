/// Writes an ``SQLText`` as PostgreSQL text (SPEC §14.2). Pure: the same statement SQLite runs, a second
/// renderer.
///
/// Bound values become `$1`, `$2`, …; `temp.` tables are `pg_temp.`; ``SQLKeyword``s take PostgreSQL's
/// spelling; ``SQLFunction`` calls become native SQL (`[c]` is `lower(x COLLATE "und-x-icu")`, `[d]` is
/// `unaccent(x)`, `MATCHES` is `~` anchored to the whole string, decimals are `numeric`), or a
/// ``PostgresRenderError`` where PostgreSQL has no equivalent. What the text needs from the server (the
/// ICU collation, the `unaccent` extension) is listed in ``Rendering/requirements`` so that the caller can
/// check it once, before any step runs.
///
/// ```swift
/// let r = try PostgresRenderer().rendering("SELECT \(ColumnName("a")) FROM \(TableName("T")) WHERE \(ColumnName("b")) = \(42)")
/// r.sql        // SELECT "a" FROM "T" WHERE "b" = $1
/// r.arguments  // [.integer(42)]
/// ```
public struct PostgresRenderer: Sendable {
    /// What a statement needs from the server beyond PostgreSQL 13 itself.
    public enum Requirement: String, Hashable, Sendable, Comparable, CaseIterable {
        /// The ICU collation `"und-x-icu"` (`[c]`).
        case icuCollation = "the ICU collation \"und-x-icu\""
        /// The `unaccent` extension (`[d]`).
        case unaccent = "the unaccent extension"

        public static func < (a: Requirement, b: Requirement) -> Bool { a.rawValue < b.rawValue }
    }

    /// A rendered statement.
    public struct Rendering: Hashable, Sendable {
        public var sql = ""
        public var arguments: [Value] = []
        public var requirements: Set<Requirement> = []
    }

    /// How `unaccent` is called: qualified by the schema the extension lives in (a store's transactions
    /// set `search_path` to the store's schema only), or bare.
    public var unaccentSchema: String?
    /// Write refused calls in their SQLite spelling instead of throwing (for reports and descriptions).
    let lenient: Bool

    public init(unaccentSchema: String? = nil) {
        self.unaccentSchema = unaccentSchema
        self.lenient = false
    }

    init(lenient: Bool) {
        self.unaccentSchema = nil
        self.lenient = lenient
    }

    /// The statement as PostgreSQL text.
    /// - Throws: `PostgresRenderError` for a call PostgreSQL cannot run (exit 2).
    public func rendering(_ statement: SQLText) throws(PostgresRenderError) -> Rendering {
        var output = Rendering()
        try write(statement, into: &output)
        return output
    }

    /// Lenient rendering, never refusing.
    func render(_ statement: SQLText) -> Rendering {
        precondition(lenient, "only a lenient renderer renders without throwing")
        return (try? rendering(statement)) ?? Rendering()
    }

    func write(_ statement: SQLText, into output: inout Rendering) throws(PostgresRenderError) {
        for piece in statement.pieces {
            switch piece {
            case .text(let text):
                output.sql += text
            case .identifier(let qualifier, let name):
                if let qualifier { output.sql += (qualifier == "temp" ? "pg_temp" : qualifier) + "." }
                output.sql += SQLDialect.postgresql.quote(name)
            case .value(let value):
                output.arguments.append(value)
                output.sql += SQLDialect.postgresql.placeholder(output.arguments.count)
            case .keyword(let keyword):
                output.sql += keyword.postgresql
            case .function(let function, let arguments):
                do throws(PostgresRenderError) {
                    try write(function, arguments, into: &output)
                } catch {
                    guard lenient else { throw error }
                    try write(function.sqlite(arguments), into: &output)
                }
            }
        }
    }

    /// `text` written into `output` with `arguments` spliced in order: each `\(i)` of `parts` is the i-th argument.
    func write(_ parts: [Part], _ arguments: [SQLText], into output: inout Rendering) throws(PostgresRenderError) {
        for part in parts {
            switch part {
            case .text(let text): output.sql += text
            case .argument(let i): try write(arguments[i], into: &output)
            case .value(let value):
                output.arguments.append(value)
                output.sql += SQLDialect.postgresql.placeholder(output.arguments.count)
            }
        }
    }

    /// A piece of a function's PostgreSQL template.
    enum Part {
        case text(String)
        case argument(Int)
        case value(Value)
    }
}
