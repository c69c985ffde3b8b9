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
