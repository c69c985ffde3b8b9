import Foundation

/// Hooks whose version the store passed (by migrating) before they appeared: exit 6.
public struct LateHooksError: StrataError, Sendable {
    public var ids: [String]
    public var version: Int
    public var exitCode: ExitStatus { .drift }
    public var diagnostics: [Diagnostic] {
        [.error("late hook(s) \(ids.map { "'\($0)'" }.joined(separator: ", ")): the store already passed their version by migrating (it is at version \(version))",
                hint: "check the hook against today's data, then migrate with late hooks allowed (runLateHooks); a renamed hook file without `id:` is a new hook")]
    }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
