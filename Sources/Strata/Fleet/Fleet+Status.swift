import Foundation

extension Fleet {
    /// Reads every store's status (read-only) as `strata status` does, with its exit code
    /// (``StoreStatus/exitCode(check:history:hooks:layout:stages:)``).
    ///
    /// A row's versions are the store's and the newest model's, its hooks the pending ones (late ones
    /// included); its message counts drift items or names what `--check` found.
    /// - Parameters:
    ///   - history: the model history, its mapping files loaded (checked once, by the caller).
    ///   - hooks: the hook files.
    ///   - check: `status --check`: pending work is exit 7 (4 when not inferable, 6 for late hooks).
    ///   - stages: the Swift stages this binary registers.
    public func status(history: ModelHistory, hooks: HookSet, check: Bool, stages: Stages = Stages()) -> FleetReport {
        run(command: "status") { path in Self.statusOne(path, history: history, hooks: hooks, check: check, stages: stages) }
    }

    /// One store's status and its row.
    public static func statusOne(_ path: String, history: ModelHistory, hooks: HookSet, check: Bool, stages: Stages) -> Outcome {
        attempt(path) {
            let store = try Store.open(path: path, readOnly: true)
            let status = try StoreStatus.read(store: store, history: history, hooks: hooks)
            let (code, diagnostics) = status.exitCode(check: check, history: history, hooks: hooks,
                                                      layout: try store.metadata().layout, stages: stages)
            let outcome: FleetStoreResult.Outcome = !status.drift.isEmpty ? .drift : status.hasPendingWork ? .pending : .upToDate
            var message: String?
            if !status.drift.isEmpty {
                message = "\(status.drift.count) drift item\(status.drift.count == 1 ? "" : "s"): \(status.drift[0])"
            } else if let first = diagnostics.first {
                message = first.message
            } else if !status.lateHooks.isEmpty {
                message = "late hooks: " + status.lateHooks.joined(separator: ", ")
            }
            let row = FleetStoreResult(path: path, outcome: outcome, exitCode: code, fromVersion: status.version,
                                       toVersion: status.latestVersion, hooks: status.pendingHooks.count + status.lateHooks.count,
                                       message: message.map(Fleet.oneLine))
            return (row, code == .success ? nil : DiagnosticList(diagnostics), [])
        }
    }
}
