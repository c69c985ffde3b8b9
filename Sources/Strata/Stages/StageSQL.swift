import Foundation
import GRDB

/// A stage's `execute(sql:arguments:)` text for an engine other than SQLite (PostgreSQL): its statements,
/// each with the arguments its placeholders take bound as values (rendered `$n`), as GRDB binds them on
/// SQLite. Pure.
///
/// `?` takes the next positional argument; `:name`, `@name` and `$name` (a name starts with a letter or `_`)
/// take the named one, the same value wherever the name appears (each place its own `$n`), or else the next
/// positional one. Placeholders are read by ``PostgresLexer``, the statement splitter's reading: inside
/// string constants (`E'…'` too), quoted identifiers, dollar quotes and comments they are text, and so are
/// PostgreSQL's casts (`::type`), its own `$1` and a dollar quote's `$tag$`. Without arguments the text is
/// left as written (a jsonb `?` operator stays), only split at top-level semicolons.
///
/// ```swift
/// let statements = try StageSQL.statements("UPDATE t SET a = :v WHERE b = :v::int", arguments: ["v": 1], stage: "s")
/// statements[0].rendered(for: .postgresql)   // ("UPDATE t SET a = $1 WHERE b = $2::int", [1, 1])
/// ```
enum StageSQL {
    /// The statements of `sql` with `arguments` bound.
    /// - Throws: GRDB's `DatabaseError` "missing statement argument: NAME" (SQLITE_MISUSE) for a name that
    ///   `arguments` has no value for, as on SQLite; `StageError.threw` when the `?` placeholders and the
    ///   positional arguments do not match in number.
    static func statements(_ sql: String, arguments: StatementArguments, stage: String) throws -> [SQLText] {
        let (positional, named) = values(of: arguments)
        let statements = PostgresStatementSplitter.split(SQLText(stringLiteral: sql))
        if positional.isEmpty, named.isEmpty { return statements }
        var remaining = positional[...]
        let bound = try statements.map { statement in
            let text = statement.pieces.map { piece -> String in
                guard case .text(let string) = piece else { preconditionFailure("a stage's text has no bound values yet") }
                return string
            }.joined()
            return try self.bound(text, positional: &remaining, named: named, stage: stage)
        }
        if !remaining.isEmpty {
            throw StageError.threw(stage: stage, message: "execute(sql:arguments:): \(positional.count) arguments for \(positional.count - remaining.count) ? placeholders")
        }
        return bound
    }

    /// One statement's placeholders bound, taking positional values from `positional`.
    static func bound(_ sql: String, positional: inout ArraySlice<Value>, named: [String: Value], stage: String) throws -> SQLText {
        var text = SQLText()
        let scalars = Array(sql.unicodeScalars)
        var start = 0
        func bind(_ value: Value, at i: Int, length: Int) -> Int {
            text.append(.text(String(String.UnicodeScalarView(scalars[start..<i]))))
            text.append(.value(value))
            start = i + length
            return length
        }
        var lexer = PostgresLexer()
        try lexer.scan(scalars) { i in
            let c = scalars[i], next: Unicode.Scalar? = i + 1 < scalars.count ? scalars[i + 1] : nil
            if c == "?" {
                guard let value = positional.popFirst() else {
                    throw StageError.threw(stage: stage, message: "execute(sql:arguments:): more ? placeholders than arguments")
                }
                return bind(value, at: i, length: 1)
            }
            guard c == ":" || c == "@" || c == "$", let next else { return 0 }
            if c == ":", next == ":" { return 2 }   // a cast
            guard next == "_" || next.properties.isAlphabetic else { return 0 }
            // `$` inside a name (PostgreSQL's identifiers may hold it) or opening a dollar quote is not a placeholder.
            if c == "$", i > 0 && PostgresLexer.isWord(scalars[i - 1]) || PostgresLexer.dollarTag(scalars, at: i) != nil { return 0 }
            var end = i + 1
            while end < scalars.count, PostgresLexer.isWord(scalars[end]) { end += 1 }
            let name = String(String.UnicodeScalarView(scalars[(i + 1)..<end]))
            guard let value = named[name] ?? positional.popFirst() else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "missing statement argument: \(name)",
                                    sql: sql.trimmingCharacters(in: CharacterSet(charactersIn: ";").union(.whitespacesAndNewlines)))
            }
            return bind(value, at: i, length: end - i)
        }
        text.append(.text(String(String.UnicodeScalarView(scalars[start...]))))
        return text
    }

    /// The one statement of a fetch.
    /// - Throws: `StageError.threw` for several statements, and the errors of ``statements(_:arguments:stage:)``.
    static func query(_ sql: String, arguments: StatementArguments, stage: String) throws -> SQLText {
        let statements = try statements(sql, arguments: arguments, stage: stage)
        guard statements.count == 1 else {
            throw StageError.threw(stage: stage, message: "a fetch runs one statement; this text has \(statements.count)")
        }
        return statements[0]
    }

    /// GRDB rows holding `result`'s values, column names and order kept (built by a private in-memory SQLite
    /// connection selecting the values back, the one way GRDB's public API makes a row with ordered columns).
    static func rows(_ result: (columns: [String], rows: [[Value]])) throws -> [Row] {
        guard !result.rows.isEmpty else { return [] }
        guard !result.columns.isEmpty else { return result.rows.map { _ in Row() } }
        let select = "SELECT " + result.columns.map { "? AS " + SQLDialect.sqlite.quote($0) }
            .joined(separator: ", ")
        let queue = try DatabaseQueue()
        return try queue.read { db in
            let statement = try db.makeStatement(sql: select)
            return try result.rows.map { values in
                try Row.fetchOne(statement, arguments: StatementArguments(values.map(databaseValue))) ?? Row()
            }
        }
    }

    static func databaseValue(_ value: Value) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let i): return i.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        case .blob(let b): return Data(b).databaseValue
        }
    }

    /// The positional and the named values of `arguments`.
    /// GRDB keeps them internal; its stored properties are read by reflection.
    static func values(of arguments: StatementArguments) -> (positional: [Value], named: [String: Value]) {
        var positional: [Value] = [], named: [String: Value] = [:]
        for child in Mirror(reflecting: arguments).children {
            if child.label == "values", let values = child.value as? [DatabaseValue] { positional = values.map(value) }
            if child.label == "namedValues", let values = child.value as? [String: DatabaseValue] { named = values.mapValues(value) }
        }
        return (positional, named)
    }

    static func value(_ value: DatabaseValue) -> Value {
        switch value.storage {
        case .null: return .null
        case .int64(let i): return .integer(i)
        case .double(let d): return .real(d)
        case .string(let s): return .text(s)
        case .blob(let data): return .blob(Array(data))
        }
    }
}
