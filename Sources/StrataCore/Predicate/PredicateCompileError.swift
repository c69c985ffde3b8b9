/// A predicate that cannot be compiled: a syntax error, an unknown key, a type error.
/// The diagnostic is located at the offending column (`predicate:1:14` on the command line).
public struct PredicateCompileError: Error, Sendable, CustomStringConvertible {
    public var diagnostic: Diagnostic

    public init(diagnostic: Diagnostic) { self.diagnostic = diagnostic }

    /// `predicate:1:14: error: …`, the predicate with a caret, and the hint.
    public var description: String { diagnostic.description }

    /// Places an error found at a scalar offset of `text`, which starts at `origin` (see
    /// `SourceLocation.location(atScalarOffset:in:)`: a YAML scalar's text follows the file's lines).
    init(_ error: PredicateSyntaxError, in text: String, origin: SourceLocation) {
        let location = origin.location(atScalarOffset: error.offset, in: text)
        var sourceLine: String?
        if origin.layout == nil, origin.line == 1, origin.column == 1, !text.contains("\n") { sourceLine = text }
        diagnostic = Diagnostic(.error, error.message, at: location, sourceLine: sourceLine, hint: error.hint)
    }
}

extension PredicateCompileError: StrataError {
    public var exitCode: ExitStatus { .invalidInput }
    public var diagnostics: [Diagnostic] { [diagnostic] }
}
