extension MarkdownReport {
    /// The fleet for a pull request or a CI job summary: the headline, then a table with one row per store.
    ///
    /// ```
    /// ### Fleet
    ///
    /// ❌ **Fleet migrate:** 3 stores, 2 jobs, 0.081 s: 1 migrated, 1 failed, 1 not-run; exit 6
    ///
    /// | Store | Outcome | Exit | From | To | Hooks | Violations | Duration | Message |
    /// |---|---|---:|---:|---:|---:|---:|---:|---|
    /// | tenants/a.sqlite | migrated | 0 | 1 | 4 | 2 | 0 | 0.031 s |  |
    /// ```
    func fleetSection(_ fleet: FleetReport) -> [String] {
        let (label, rest) = FleetText.headlineParts(fleet)
        var lines = ["### Fleet", ""]
        lines.append("\(fleet.exitCode == .success ? "✅" : "❌") **\(cell(label)):** \(cell(rest))")
        lines.append("")
        lines.append("| " + FleetText.columns.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " | ") + " |")
        lines.append("|" + FleetText.columns.map { FleetText.numeric.contains($0) ? "---:" : "---" }.joined(separator: "|") + "|")
        for store in fleet.stores {
            lines.append("| " + FleetText.cells(store).map(cell).joined(separator: " | ") + " |")
        }
        return lines
    }
}
