import Foundation

/// The fleet section's wording, shared by the renderers: the headline and each store's cells.
enum FleetText {
    /// `Fleet migrate: 3 stores, 2 jobs, 0.25 s: 1 migrated, 1 failed, 1 not-run; exit 6`
    static func headline(_ fleet: FleetReport) -> String {
        let (label, rest) = headlineParts(fleet)
        return label + ": " + rest
    }

    /// The headline's label (`Fleet migrate`) and the rest, for renderers that set the label in bold.
    static func headlineParts(_ fleet: FleetReport) -> (label: String, rest: String) {
        ("Fleet \(command(fleet))", "\(fleet.stores.count) store\(fleet.stores.count == 1 ? "" : "s"), "
            + "\(fleet.jobs) job\(fleet.jobs == 1 ? "" : "s"), \(seconds(fleet.duration)): \(counts(fleet)); exit \(fleet.exitCode.rawValue)")
    }

    /// `migrate --dry-run`, `status`, `audit`.
    static func command(_ fleet: FleetReport) -> String { fleet.command + (fleet.dryRun ? " --dry-run" : "") }

    /// `1 migrated, 1 failed, 1 not-run`
    static func counts(_ fleet: FleetReport) -> String {
        fleet.outcomeCounts.map { "\($0.count) \($0.outcome.rawValue)" }.joined(separator: ", ")
    }

    /// The columns of the store table, in order.
    static let columns = ["store", "outcome", "exit", "from", "to", "hooks", "violations", "duration", "message"]
    /// Columns whose cells are numbers (right-aligned in the text table, `---:` in Markdown).
    static let numeric: Set<String> = ["exit", "from", "to", "hooks", "violations", "duration"]

    /// A store's cells, in ``columns`` order; `-` for what does not apply.
    static func cells(_ store: FleetStoreResult) -> [String] {
        [
            store.path,
            store.outcome.rawValue,
            store.exitCode.map { String($0.rawValue) } ?? "-",
            number(store.fromVersion),
            number(store.toVersion),
            number(store.hooks),
            number(store.violations),
            store.outcome == .notRun ? "-" : seconds(store.duration),
            store.message ?? "",
        ]
    }

    static func number(_ value: Int?) -> String { value.map(NumberText.grouped) ?? "-" }

    /// `0.012 s`
    static func seconds(_ duration: Double) -> String { String(format: "%.3f s", max(0, duration)) }

    /// A test case's name and failure message: `tenants/b.sqlite`, `exit 6: drift: …`.
    static func failure(_ store: FleetStoreResult) -> String? {
        guard store.failed, let code = store.exitCode else { return nil }
        return "exit \(code.rawValue): \(store.outcome.rawValue)" + (store.message.map { ": " + $0 } ?? "")
    }

    /// `v1 → v4`, `v4`, or empty when the versions are unknown.
    static func versions(_ store: FleetStoreResult) -> String {
        switch (store.fromVersion, store.toVersion) {
        case let (from?, to?) where from != to: return "v\(from) → v\(to)"
        case let (from?, _): return "v\(from)"
        case let (nil, to?): return "v\(to)"
        default: return ""
        }
    }
}
