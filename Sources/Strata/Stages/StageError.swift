import Foundation

/// What goes wrong with Swift stages (SPEC §11.2), each with its documented exit code.
public enum StageError: StrataError, Sendable {
    /// A declared stage (`swift: true` in migrations/) that this binary does not register: exit 7, before
    /// the step that would run it.
    case notRegistered(ids: [String])
    /// The stage's closure threw: its step rolls back, exit 1.
    case threw(stage: String, message: String)
    /// A name the stage asked the context for (`ctx.table`, `ctx.column`) is not in the model.
    case unknownName(stage: String, name: String)
    /// A context method the stage called that its engine does not offer (the GRDB `database` on PostgreSQL):
    /// its step rolls back, exit 1.
    case notOnThisEngine(stage: String, what: String, engine: String)
    /// Registrations that do not match the declarations: exit 2 in `lint` and `migrate`.
    case registration([Diagnostic])

    public var exitCode: ExitStatus {
        switch self {
        case .notRegistered: return .pendingWork
        case .threw, .unknownName, .notOnThisEngine: return .runtimeFailure
        case .registration: return .invalidInput
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .notRegistered(let ids):
            return [.error("Swift stage\(ids.count == 1 ? "" : "s") \(ids.map { "'\($0)'" }.joined(separator: ", ")) "
                           + "declared in migrations/ but not registered in this binary; stopped before the step that runs "
                           + (ids.count == 1 ? "it" : "them"),
                           hint: "run the application's own `strata` (built with StrataCLI and its stages), see Docs/stages.md")]
        case .threw(let stage, let message):
            return [.error("Swift stage '\(stage)' threw: \(message); its step was rolled back")]
        case .unknownName(let stage, let name):
            return [.error("Swift stage '\(stage)': no '\(name)' in the model it runs on; its step was rolled back")]
        case .notOnThisEngine(let stage, let what, let engine):
            return [.error("Swift stage '\(stage)': \(what) is not available on \(engine == "postgresql" ? "PostgreSQL" : engine); its step was rolled back",
                           hint: "on PostgreSQL, use the context's execute and fetches (see Docs/stages.md)")]
        case .registration(let diagnostics):
            return diagnostics
        }
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
