/// A 1-based position in a source file (a model, a hook, or a predicate string).
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file path as the user gave it, or `predicate` for a predicate typed on the command line.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in Unicode scalars (as libyaml counts).
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`
    public var description: String { "\(file):\(line):\(column)" }

    /// This location moved `offset` scalars to the right on the same line.
    public func advanced(by offset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + offset)
    }
}
