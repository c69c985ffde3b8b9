/// A value substituted for `%@` or a key path substituted for `%K`, in order of appearance.
///
/// `%@` values are coerced to the compared attribute's type, like literals (`.text("2024-05-01")`
/// compared with a date attribute is that date).
public enum PredicateArgument: Sendable, Hashable {
    case text(String)
    case number(Double)
    /// For `IN %@`.
    case list([String])
    /// A key path for `%K` (`.text` is accepted for `%K` too).
    case key(String)
}

/// What a predicate's placeholders stand for during one run.
public struct PredicateContext: Sendable {
    /// `%@` and `%K` arguments, in order.
    public var arguments: [PredicateArgument]
    /// `$NAME` → text, coerced like a string literal where used (SPEC §10).
    public var variables: [String: String]
    /// `$NOW`: seconds since 1970, fixed for a run so a dry run and the real run match the same rows.
    public var now: Double

    public init(arguments: [PredicateArgument] = [], variables: [String: String] = [:], now: Double) {
        self.arguments = arguments
        self.variables = variables
        self.now = now
    }
}

/// A predicate that cannot be compiled: a syntax error, an unknown key, a type error.
/// The diagnostic is located at the offending column (`predicate:1:14` on the command line).
public struct PredicateCompileError: Error, Sendable, CustomStringConvertible {
    public var diagnostic: Diagnostic

    public init(diagnostic: Diagnostic) { self.diagnostic = diagnostic }

    /// `predicate:1:14: error: …`, the predicate with a caret, and the hint.
    public var description: String { diagnostic.description }

    /// Places an error found at a scalar offset of `text`, which starts at `origin`.
    init(_ error: PredicateSyntaxError, in text: String, origin: SourceLocation) {
        let scalars = Array(text.unicodeScalars)
        let offset = min(max(0, error.offset), scalars.count)
        var line = origin.line
        var column = origin.column
        for scalar in scalars[..<offset] {
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        let location = SourceLocation(file: origin.file, line: line, column: column)
        var sourceLine: String?
        if origin.line == 1, origin.column == 1, !text.contains("\n") { sourceLine = text }
        diagnostic = Diagnostic(.error, error.message, at: location, sourceLine: sourceLine, hint: error.hint)
    }
}
