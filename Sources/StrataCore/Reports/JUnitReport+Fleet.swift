extension JUnitReport {
    /// One `<testsuite name="fleet">` with one test case per store, named by its path: failed when the
    /// store's own exit code is not 0 (`exit 6: drift: …`), skipped when it did not run; the versions,
    /// hooks, violations and backup in `<system-out>`.
    func fleetSuite(_ fleet: FleetReport) -> Suite {
        let cases = fleet.stores.map { store -> (lines: [String], failed: Bool, time: Double) in
            var lines = ["    <testcase classname=\"fleet.\(ReportText.xml(fleet.command))\" name=\"\(ReportText.xml(store.path))\" time=\"\(Self.seconds(store.duration))\">"]
            if store.outcome == .notRun {
                lines.append("      <skipped message=\"\(ReportText.xml(store.message ?? "not run"))\"/>")
            } else if let failure = FleetText.failure(store) {
                lines.append("      <failure message=\"\(ReportText.xml(failure))\" type=\"exit \(store.exitCode!.rawValue)\"/>")
            }
            var out = ["outcome: \(store.outcome.rawValue)"]
            if !FleetText.versions(store).isEmpty { out.append("versions: " + FleetText.versions(store)) }
            if let hooks = store.hooks { out.append("hooks: \(hooks)") }
            if let violations = store.violations { out.append("violations: \(violations)") }
            if let backup = store.backup { out.append("backup: \(backup)") }
            if store.outcome != .notRun {
                lines.append("      <system-out>\(ReportText.xml(out.joined(separator: "\n")))</system-out>")
            }
            lines.append("    </testcase>")
            return (lines, store.failed, store.duration)
        }
        return Suite(name: "fleet", cases: cases, elapsed: fleet.duration, skipped: fleet.stores.count { $0.outcome == .notRun })
    }
}
