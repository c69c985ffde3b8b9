/// SQL as a value: text, quoted identifiers and bound values, in order. The one way Strata builds SQL.
///
/// Interpolation decides by type: a ``TableName`` or ``ColumnName`` is quoted, a ``Value`` (or a Swift
/// integer, double, string or bool) is bound as a parameter, another `SQLText` is spliced in with its
/// values. Literal text is SQL written by Strata's own code, never user input.
///
/// ```swift
/// let recipe = TableName("Recipe"), name = ColumnName("name")
/// let update: SQLText = "UPDATE \(recipe) SET \(name) = \(Value.text("x")) WHERE \(ColumnName("_pk")) = \(42)"
/// update.sql        // UPDATE "Recipe" SET "name" = ? WHERE "_pk" = ?
/// update.arguments  // [.text("x"), .integer(42)]
/// ```
///
/// A statement is rendered for one dialect (``SQLDialect``): SQLite binds `?`, PostgreSQL `$1`, `$2`, …
/// Planners build statements once; a second engine is a second renderer, never a second planner.
/// Not named `SQL`: GRDB exports that name, and an app imports both.
public struct SQLText: Hashable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// One piece of a statement.
    public enum Piece: Hashable, Sendable {
        /// SQL text written by Strata (keywords, operators, punctuation).
        case text(String)
        /// A quoted identifier, optionally qualified (`t."name"`, `temp."strata_touched"`).
        case identifier(qualifier: String?, name: String)
        /// A bound parameter.
        case value(Value)
        /// A function whose spelling depends on the dialect (Strata's registered SQLite functions, and the
        /// conversions between SQLite's storage forms and PostgreSQL's native types), over its arguments.
        case function(SQLFunction, [SQLText])
        /// A keyword or operator spelled differently per dialect (`1` / `true`, `IS` / `IS NOT DISTINCT FROM`).
        case keyword(SQLKeyword)

        var isDialectDependent: Bool {
            switch self {
            case .function, .keyword: return true
            case .text, .identifier, .value: return false
            }
        }
    }

    /// The pieces in order; adjacent text is merged.
    public private(set) var pieces: [Piece]

    public init() { pieces = [] }

    public init(pieces: [Piece]) {
        self.pieces = []
        for piece in pieces { append(piece) }
    }

    /// Literal SQL text written by Strata's own code.
    public init(stringLiteral value: String) {
        pieces = value.isEmpty ? [] : [.text(value)]
    }

    public init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.text.pieces }

    /// A statement made of one bound value (`?`).
    public static func bind(_ value: Value) -> SQLText { SQLText(pieces: [.value(value)]) }

    /// The value when the whole statement is one bound parameter, so callers ask the structure,
    /// never the text.
    public var boundValue: Value? {
        guard pieces.count == 1 else { return nil }
        switch pieces[0] {
        case .value(let v): return v
        case .function(let f, let arguments) where f.isConversion: return arguments.first?.boundValue
        default: return nil
        }
    }

    /// `f(arguments)` for one of the dialect-dependent functions.
    public static func function(_ function: SQLFunction, _ arguments: [SQLText]) -> SQLText {
        SQLText(pieces: [.function(function, arguments)])
    }

    /// `f(arguments)` for a function Strata registers on SQLite (`strata_<name>`).
    public static func strata(_ function: StrataFunction, _ arguments: [SQLText]) -> SQLText {
        .function(.strata(function), arguments)
    }

    /// A dialect-dependent keyword.
    public static func keyword(_ keyword: SQLKeyword) -> SQLText { SQLText(pieces: [.keyword(keyword)]) }

    /// `value` in SQLite's storage form, converted to `type`'s native column type on PostgreSQL (a bool
    /// bound as 0/1, a date as seconds since 1970, a decimal or uuid as text); unchanged on SQLite.
    public static func native(_ value: SQLText, _ type: AttributeType) -> SQLText {
        SQLFunction.needsConversion(type) ? .function(.native(type), [value]) : value
    }

    /// A column of `type` read in SQLite's storage form on PostgreSQL too (see ``native(_:_:)``).
    public static func storage(_ value: SQLText, _ type: AttributeType) -> SQLText {
        SQLFunction.needsConversion(type) && type != .decimal ? .function(.storage(type), [value]) : value
    }

    public var isEmpty: Bool { pieces.isEmpty }

    // MARK: Composing

    public mutating func append(_ piece: Piece) {
        if case .text(let added) = piece {
            if added.isEmpty { return }
            if case .text(let last)? = pieces.last {
                pieces[pieces.count - 1] = .text(last + added)
                return
            }
        }
        pieces.append(piece)
    }

    public mutating func append(_ other: SQLText) {
        guard let first = other.pieces.first else { return }
        append(first)
        pieces.append(contentsOf: other.pieces.dropFirst())
    }

    public static func + (a: SQLText, b: SQLText) -> SQLText {
        var result = a
        result.append(b)
        return result
    }

    public static func += (a: inout SQLText, b: SQLText) { a.append(b) }

    /// `f(a, b, …)`
    public static func call(_ function: String, _ arguments: [SQLText]) -> SQLText {
        SQLText(stringLiteral: function) + "(" + arguments.joined(separator: ", ") + ")"
    }

    /// `(self)`
    public var parenthesized: SQLText { "(" + self + ")" }

    // MARK: Rendering

    /// The pieces as SQLite writes them: functions and keywords expanded into text, identifiers and values.
    public var sqlitePieces: [Piece] {
        guard pieces.contains(where: \.isDialectDependent) else { return pieces }
        var result: [Piece] = []
        for piece in pieces {
            switch piece {
            case .text, .identifier, .value: result.append(piece)
            case .keyword(let keyword): result.append(.text(keyword.sqlite))
            case .function(let function, let arguments): result.append(contentsOf: function.sqlite(arguments).sqlitePieces)
            }
        }
        return result
    }

    /// The text and arguments for `dialect`. PostgreSQL text is best effort here (a function PostgreSQL
    /// cannot run keeps its SQLite spelling); statements sent to a server use ``PostgresRenderer``, which
    /// refuses them.
    public func rendered(for dialect: SQLDialect = .sqlite) -> (sql: String, arguments: [Value]) {
        if dialect == .postgresql {
            let rendering = PostgresRenderer(lenient: true).render(self)
            return (rendering.sql, rendering.arguments)
        }
        var sql = ""
        var arguments: [Value] = []
        for piece in sqlitePieces {
            switch piece {
            case .text(let text):
                sql += text
            case .identifier(let qualifier, let name):
                if let qualifier { sql += qualifier + "." }
                sql += dialect.quote(name)
            case .value(.text(let text)) where text.utf8.contains(0):
                // GRDB binds a text as a C string (length -1), which SQLite cuts at its first NUL: the bytes go as a
                // blob, turned back into the whole text by SQL, so "a\0b" is stored and compared whole.
                arguments.append(.blob(Array(text.utf8)))
                sql += "CAST(" + dialect.placeholder(arguments.count) + " AS TEXT)"
            case .value(let value):
                arguments.append(value)
                sql += dialect.placeholder(arguments.count)
            case .function, .keyword:
                preconditionFailure("expanded above")
            }
        }
        return (sql, arguments)
    }

    /// SQLite text, `?` for each bound value.
    public var sql: String { rendered().sql }

    /// The bound values, in text order.
    public var arguments: [Value] { rendered().arguments }

    public var description: String {
        let (sql, arguments) = rendered()
        return arguments.isEmpty ? sql : "\(sql) -- \(arguments)"
    }

    // MARK: Interpolation

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = SQLText()

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.pieces.reserveCapacity(interpolationCount * 2 + 1)
        }

        public mutating func appendLiteral(_ literal: String) { text.append(.text(literal)) }

        public mutating func appendInterpolation(_ table: TableName) {
            text.append(.identifier(qualifier: table.schema, name: table.name))
        }

        public mutating func appendInterpolation(_ column: ColumnName) {
            text.append(.identifier(qualifier: column.qualifier, name: column.name))
        }

        public mutating func appendInterpolation(_ index: IndexName) {
            text.append(.identifier(qualifier: nil, name: index.name))
        }

        /// Identifiers joined by `, `.
        public mutating func appendInterpolation(_ columns: [ColumnName]) {
            for (i, column) in columns.enumerated() {
                if i > 0 { text.append(.text(", ")) }
                appendInterpolation(column)
            }
        }

        public mutating func appendInterpolation(_ value: Value) { text.append(.value(value)) }
        public mutating func appendInterpolation(_ value: Int64) { text.append(.value(.integer(value))) }
        public mutating func appendInterpolation(_ value: Int) { text.append(.value(.integer(Int64(value)))) }
        public mutating func appendInterpolation(_ value: String) { text.append(.value(.text(value))) }

        public mutating func appendInterpolation(_ sql: SQLText) { text.append(sql) }

        /// Strata-written SQL text chosen at run time (an operator, a keyword, a function name). Never a
        /// value or a name from a model: those go through ``Value`` and the name types.
        public mutating func appendInterpolation(keyword: String) { text.append(.text(keyword)) }
    }
}

extension Array where Element == SQLText {
    /// The statements joined by `separator`, values kept in order.
    public func joined(separator: SQLText = "") -> SQLText {
        var result = SQLText()
        for (i, part) in enumerated() {
            if i > 0 { result.append(separator) }
            result.append(part)
        }
        return result
    }
}

/// A table name, quoted wherever it is interpolated into ``SQLText``.
public struct TableName: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    /// `temp` for a temporary table; nil for the main schema.
    public var schema: String?

    public init(_ name: String, schema: String? = nil) {
        self.name = name
        self.schema = schema
    }

    public var description: String { name }
}

/// A column name, quoted wherever it is interpolated into ``SQLText``; optionally qualified by a table
/// alias (`t."name"`).
public struct ColumnName: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    /// A table alias written by Strata (`t`, `s`), or nil.
    public var qualifier: String?

    public init(_ name: String, qualifier: String? = nil) {
        self.name = name
        self.qualifier = qualifier
    }

    /// The same column, qualified by `alias`.
    public func qualified(by alias: String?) -> ColumnName { ColumnName(name, qualifier: alias) }

    public var description: String { name }
}

/// An index (or trigger, or view) name, quoted wherever it is interpolated into ``SQLText``.
public struct IndexName: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public init(_ name: String) { self.name = name }
    public var description: String { name }
}

/// The SQL dialect a statement is rendered for.
public enum SQLDialect: String, Hashable, Sendable, CaseIterable {
    case sqlite
    case postgresql

    /// `"name"`, embedded quotes doubled (the same rule in both dialects).
    public func quote(_ identifier: String) -> String {
        "\"" + identifier.doublingQuotes("\"") + "\""
    }

    /// The placeholder of the `n`th bound value (1-based).
    public func placeholder(_ n: Int) -> String {
        switch self {
        case .sqlite: "?"
        case .postgresql: "$\(n)"
        }
    }
}
