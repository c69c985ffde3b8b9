/// The changes of a step that cannot be inferred (exit 4).
public struct MappingError: StrataError, Sendable, Hashable {
    public var refusals: [MappingRefusal]
    public init(_ refusals: [MappingRefusal]) { self.refusals = refusals }
    public var exitCode: ExitStatus { .notInferable }
    public var diagnostics: [Diagnostic] { refusals.map(\.diagnostic) }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
