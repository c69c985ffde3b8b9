import StrataCore

/// An error raised by a user's `sql:` statement (SPEC §11.4), located at the statement in the hook file (or by a
/// batch step, located at its step):
/// a constraint failure is a violation (exit 3: UNIQUE 1551, FOREIGN KEY 1700, NOT NULL 1570, others 1550);
/// a refusal, a statement that does not compile or another SQL error is invalid input (exit 2). I/O errors
/// are not this type: they stay SQLite errors (exit 1).
public struct SQLStepError: StrataError, Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case invalid
        case violation(code: Int)
    }
    public var kind: Kind
    public var message: String
    public var location: SourceLocation?
    public var hint: String?
    /// The hook file's text, for the caret under the location.
    public var source: String = ""

    public init(_ kind: Kind, _ message: String, at location: SourceLocation?, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
        self.hint = hint
    }

    public var exitCode: ExitStatus {
        switch kind {
        case .invalid: return .invalidInput
        case .violation: return .validationViolations
        }
    }

    public var diagnostics: [Diagnostic] {
        switch kind {
        case .invalid:
            return [Diagnostic.error(message, at: location, hint: hint).withSource(source)]
        case .violation(let code):
            return [Diagnostic.error("\(message) (\(code))", at: location,
                                     hint: hint ?? "the step was rolled back; nothing was changed").withSource(source)]
        }
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
