/// An error that knows its exit code and how to explain itself to a person.
public protocol StrataError: Error, CustomStringConvertible {
    var exitCode: ExitStatus { get }
    /// The messages to print (errors first, then related warnings).
    var diagnostics: [Diagnostic] { get }
}

extension DiagnosticList: StrataError {
    public var exitCode: ExitStatus { .invalidInput }
}

extension Diagnostic: StrataError {
    public var exitCode: ExitStatus { .invalidInput }
    public var diagnostics: [Diagnostic] { [self] }
}
