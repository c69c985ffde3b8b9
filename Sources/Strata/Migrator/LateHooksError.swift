import Foundation

/// Hooks whose version the store passed (by migrating) before they appeared: exit 6.
public struct LateHooksError: StrataError, Sendable {
    public var ids: [String]
    public var version: Int
    /// Whether they are before-hooks, which `--run-late-hooks` never runs (their data is gone).
    public var before = false
    public var exitCode: ExitStatus { .drift }

    public init(ids: [String], version: Int, before: Bool = false) {
        self.ids = ids
        self.version = version
        self.before = before
    }

    public var diagnostics: [Diagnostic] {
        if before {
            return [.error("late before-hook(s) \(ids.map { "'\($0)'" }.joined(separator: ", ")): the store already passed their step by migrating (it is at version \(version)); they can never run",
                           hint: "what a before-hook reads is gone after its step; record it as skipped (HookState.skip)")]
        }
        return [.error("late hook(s) \(ids.map { "'\($0)'" }.joined(separator: ", ")): the store already passed their version by migrating (it is at version \(version))",
                hint: "check the hook against today's data, then migrate with late hooks allowed (runLateHooks); a renamed hook file without `id:` is a new hook")]
    }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
