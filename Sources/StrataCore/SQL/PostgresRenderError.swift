/// A statement PostgreSQL cannot run as Strata planned it (exit 2, before anything is written): a
/// predicate feature without a PostgreSQL equivalent, or a regular expression using ICU-only syntax.
public struct PostgresRenderError: Error, Hashable, Sendable, StrataError {
    public var message: String
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    public var exitCode: ExitStatus { .invalidInput }
    public var diagnostics: [Diagnostic] { [.error(message + " on a PostgreSQL store", hint: hint)] }
    public var description: String { diagnostics.map(\.headline).joined(separator: "\n") }
}
