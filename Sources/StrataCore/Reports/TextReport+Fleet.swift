extension TextReport {
    /// The fleet as a table a person reads in a terminal: the headline, then one row per store, in the
    /// order the stores were listed.
    ///
    /// ```
    /// Fleet migrate: 3 stores, 2 jobs, 0.081 s: 1 migrated, 1 failed, 1 not-run; exit 6
    ///
    /// store             outcome   exit  from  to  hooks  violations  duration  message
    /// tenants/a.sqlite  migrated     0     1   4      2           0   0.031 s
    /// tenants/b.sqlite  failed       6     2   2      -           -   0.004 s  drift: …
    /// tenants/c.sqlite  not-run      -     -   -      -           -         -  not started: an earlier store failed
    /// ```
    func fleetSection(_ fleet: FleetReport) -> [String] {
        let rows = [FleetText.columns] + fleet.stores.map(FleetText.cells)
        let widths = FleetText.columns.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let table = rows.map { row in
            row.indices.map { column -> String in
                let cell = row[column], pad = String(repeating: " ", count: widths[column] - cell.count)
                if column == row.count - 1 { return cell }   // the message: no trailing spaces
                return FleetText.numeric.contains(FleetText.columns[column]) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        return [FleetText.headline(fleet), ""] + table
    }
}

extension String {
    /// The string without the spaces at its end.
    fileprivate func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return String(self[..<end])
    }
}
