import Foundation

/// A migration that stopped, with the report of what ran before it stopped.
public struct MigrationRunError: StrataError, Sendable {
    public var underlying: StrataError
    public var report: MigrationRunReport
    public var exitCode: ExitStatus { underlying.exitCode }
    public var diagnostics: [Diagnostic] { underlying.diagnostics }
    public var description: String { underlying.description }

    public init(underlying: StrataError, report: MigrationRunReport) {
        self.underlying = underlying
        self.report = report
    }
}
