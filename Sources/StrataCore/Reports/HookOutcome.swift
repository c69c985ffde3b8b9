import Foundation

/// How a hook ended, as the reports show it.
public enum HookOutcome: String, Sendable, Hashable, Codable {
    /// Committed with a clean audit (or no audit).
    case committed
    /// Committed with violations (`onViolation: warn`).
    case warned
    /// Undone with its version step.
    case rolledBack

    /// `ok`, `warned`, `rolled back`.
    public var text: String {
        switch self {
        case .committed: return "ok"
        case .warned: return "warned"
        case .rolledBack: return "rolled back"
        }
    }
}
