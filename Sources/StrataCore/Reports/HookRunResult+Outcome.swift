import Foundation

extension HookRunResult {
    public var outcome: HookOutcome {
        if !committed { return .rolledBack }
        return violationCount > 0 ? .warned : .committed
    }

    /// Its audit found violations and `onViolation: rollback` undid it (`strata` exits 3).
    public var rolledBackForViolations: Bool { !committed && violationCount > 0 }
}
