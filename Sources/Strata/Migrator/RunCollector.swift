import Foundation

/// Results gathered inside the Migrator's step transactions.
final class RunCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var _hooks: [HookRunResult] = []
    private var _changes: [ChangeSet] = []
    private var _stepReports: [StepReport] = []

    var hooks: [HookRunResult] { lock.withLock { _hooks } }
    var changes: [ChangeSet] { lock.withLock { _changes } }
    var stepReports: [StepReport] {
        get { lock.withLock { _stepReports } }
        set { lock.withLock { _stepReports = newValue } }
    }

    /// Marks the hooks of a rolled-back step as not committed and drops their changes.
    func markUncommitted(afterVersion version: Int) {
        lock.withLock {
            for index in _hooks.indices where _hooks[index].after == version && !_hooks[index].late {
                _hooks[index].committed = false
                _changes[index] = ChangeSet()
            }
        }
    }

    func append(_ hook: HookRunResult, _ changes: ChangeSet) {
        lock.withLock {
            _hooks.append(hook)
            _changes.append(changes)
        }
    }
}
