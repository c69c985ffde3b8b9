extension HTMLReport {
    /// The fleet: the headline, then a table with one row per store (failed stores in red, stores that
    /// did not run greyed).
    func fleetSection(_ fleet: FleetReport) -> [String] {
        var lines = [
            "<h2>Fleet</h2>",
            "<p class=\"\(fleet.exitCode == .success ? "ok" : "failure")\"><strong>\(esc(FleetText.headline(fleet)))</strong></p>",
            "<table>",
            "<tr>" + FleetText.columns.map { "<th>\(esc($0))</th>" }.joined() + "</tr>",
        ]
        for store in fleet.stores {
            let cells = zip(FleetText.columns, FleetText.cells(store)).map { column, text in
                FleetText.numeric.contains(column) ? "<td class=\"num\">\(esc(text))</td>" : "<td>\(esc(text))</td>"
            }
            let style = store.failed ? " class=\"failure\"" : store.outcome == .notRun ? " class=\"warning\"" : ""
            lines.append("<tr\(style)>" + cells.joined() + "</tr>")
        }
        lines.append("</table>")
        return lines
    }
}
