/// SQL text helpers. Identifiers are always quoted; values never appear in SQL text.
public enum SQL {
    /// `"name"`, with embedded quotes doubled.
    public static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `"a", "b"`
    public static func quoteList(_ identifiers: [String]) -> String {
        identifiers.map(quote).joined(separator: ", ")
    }
}

/// A SQL statement with its bound arguments.
public struct SQLStatement: Hashable, Sendable, CustomStringConvertible {
    public var sql: String
    public var arguments: [Value]

    public init(_ sql: String, _ arguments: [Value] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    public var description: String { arguments.isEmpty ? sql : "\(sql) -- \(arguments)" }
}
