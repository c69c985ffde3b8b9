import Foundation

extension JSONReport {
    /// `"fleet"`: the command, the run's exit code, counts per outcome and one object per store, in the
    /// order the stores were listed. Absent values are null (a store that did not run has no exit code).
    ///
    /// ```json
    /// { "command": "migrate", "dryRun": false, "jobs": 2, "continueOnError": false, "exitCode": 6,
    ///   "duration": 0.081, "total": 3, "failed": 1, "counts": { "migrated": 1, "failed": 1, "not-run": 1 },
    ///   "stores": [ { "path": "tenants/a.sqlite", "outcome": "migrated", "exitCode": 0, "fromVersion": 1,
    ///                 "toVersion": 4, "hooks": 2, "violations": 0, "duration": 0.031, "message": null,
    ///                 "backup": null } ] }
    /// ```
    func fleetSection(_ fleet: FleetReport) -> [String: Any] {
        [
            "command": fleet.command,
            "dryRun": fleet.dryRun,
            "jobs": fleet.jobs,
            "continueOnError": !fleet.stopsOnFailure,
            "exitCode": Int(fleet.exitCode.rawValue),
            "duration": Self.rounded(fleet.duration),
            "total": fleet.stores.count,
            "failed": fleet.failedCount,
            "counts": Dictionary(uniqueKeysWithValues: fleet.outcomeCounts.map { ($0.outcome.rawValue, $0.count) }),
            "stores": fleet.stores.map(store),
        ]
    }

    func store(_ store: FleetStoreResult) -> [String: Any] {
        [
            "path": store.path,
            "outcome": store.outcome.rawValue,
            "exitCode": store.exitCode.map { Int($0.rawValue) as Any } ?? NSNull(),
            "fromVersion": store.fromVersion ?? NSNull(),
            "toVersion": store.toVersion ?? NSNull(),
            "hooks": store.hooks ?? NSNull(),
            "violations": store.violations ?? NSNull(),
            "duration": Self.rounded(store.duration),
            "message": store.message ?? NSNull(),
            "backup": store.backup ?? NSNull(),
        ]
    }

    /// Seconds with millisecond precision.
    static func rounded(_ seconds: Double) -> Double { (max(0, seconds) * 1000).rounded() / 1000 }
}
