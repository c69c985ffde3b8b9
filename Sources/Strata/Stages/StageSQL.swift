import Foundation
import GRDB

/// A stage's `execute(sql:arguments:)` text for an engine other than SQLite (PostgreSQL): its statements,
/// each with the positional arguments its `?` placeholders take bound as values (rendered `$n`). Pure.
///
/// `?` inside string constants, quoted identifiers and comments is text. Without arguments the text is left
/// as written (PostgreSQL's own `$1` or a jsonb `?` operator stay), only split at top-level semicolons.
enum StageSQL {
    /// The statements of `sql` with `arguments` bound in order.
    /// - Throws: `StageError.notOnThisEngine` for named arguments; `StageError.threw` when the placeholders
    ///   and the arguments do not match in number.
    static func statements(_ sql: String, arguments: StatementArguments, stage: String) throws -> [SQLText] {
        let (positional, named) = values(of: arguments)
        if named {
            throw StageError.notOnThisEngine(stage: stage, what: "execute(sql:arguments:) with named arguments", engine: "postgresql")
        }
        if positional.isEmpty { return PostgresStatementSplitter.split(SQLText(stringLiteral: sql)) }
        var text = SQLText(), chunk = ""
        var remaining = positional[...]
        var state = State.normal
        let scalars = Array(sql.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i], next: Unicode.Scalar? = i + 1 < scalars.count ? scalars[i + 1] : nil
            switch state {
            case .normal:
                if c == "?" {
                    guard let value = remaining.popFirst() else {
                        throw StageError.threw(stage: stage, message: "execute(sql:arguments:): more ? placeholders than arguments")
                    }
                    text.append(.text(chunk))
                    text.append(.value(value))
                    chunk = ""
                    i += 1
                    continue
                }
                if c == "'" { state = .string } else if c == "\"" { state = .identifier }
                else if c == "-", next == "-" { state = .lineComment }
                else if c == "/", next == "*" { state = .blockComment }
            case .string: if c == "'" { state = .normal }
            case .identifier: if c == "\"" { state = .normal }
            case .lineComment: if c == "\n" { state = .normal }
            case .blockComment:
                if c == "*", next == "/" { chunk += "*/"; i += 2; state = .normal; continue }
            }
            chunk.unicodeScalars.append(c)
            i += 1
        }
        text.append(.text(chunk))
        if !remaining.isEmpty {
            throw StageError.threw(stage: stage, message: "execute(sql:arguments:): \(positional.count) arguments for \(positional.count - remaining.count) ? placeholders")
        }
        return PostgresStatementSplitter.split(text)
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
        let select = "SELECT " + result.columns.map { "? AS \"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
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

    private enum State { case normal, string, identifier, lineComment, blockComment }

    /// The positional values of `arguments`, and whether it has named ones.
    /// GRDB keeps them internal; its stored properties are read by reflection.
    static func values(of arguments: StatementArguments) -> (positional: [Value], named: Bool) {
        var positional: [Value] = [], named = false
        for child in Mirror(reflecting: arguments).children {
            if child.label == "values", let values = child.value as? [DatabaseValue] { positional = values.map(value) }
            if child.label == "namedValues", let values = child.value as? [String: DatabaseValue] { named = !values.isEmpty }
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
