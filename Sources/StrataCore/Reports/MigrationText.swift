import Foundation

/// Phrases the migration section of every renderer shares.
enum MigrationText {
    /// `Dry run: store app.sqlite at v1 → v4 ($NOW = 2024-06-01T12:00:00Z)`, or the store that was
    /// created, or the version at which nothing was to do.
    static func headline(_ m: MigrationRunReport) -> String {
        let (label, rest) = headlineParts(m)
        return "\(label): \(rest)"
    }

    /// The headline's label (`Dry run`, `Migration`) and the rest.
    static func headlineParts(_ m: MigrationRunReport) -> (label: String, rest: String) {
        let label = m.dryRun ? "Dry run" : "Migration"
        if m.created {
            let uuid = m.storeUUID.map { " (UUID \($0))" } ?? ""
            return (label, "\(m.dryRun ? "would create" : "created") store \(m.store) at v\(m.targetVersion)\(uuid)")
        }
        let from = m.fromVersion.map { "v\($0)" } ?? "?"
        if m.nothingToDo { return (label, "store \(m.store) is at \(from), nothing to do") }
        var text = "store \(m.store) at \(from) → v\(m.targetVersion)"
        if let to = m.toVersion, to != m.targetVersion { text += ", stopped at v\(to)" }
        return (label, text + " ($NOW = \(m.now))")
    }

    /// Facts under the headline: backup, lock wait.
    static func notes(_ m: MigrationRunReport) -> [String] {
        var notes: [String] = []
        if m.waitedForLock { notes.append("Waited for another run's lock.") }
        if let backup = m.backup { notes.append("Backup: \(backup)") }
        if !m.notNeededHooks.isEmpty { notes.append("Hooks recorded as not needed: " + m.notNeededHooks.joined(separator: ", ")) }
        return notes
    }

    /// A step or a hook, in the order they ran.
    enum Item {
        case step(StepReport)
        case hook(HookRunResult)
    }

    /// Late hooks (they run first), then each step followed by the hooks that ran in its transaction
    /// (`after` its destination version), then any other hook.
    static func timeline(_ m: MigrationRunReport) -> [Item] {
        var items = m.hooks.filter(\.late).map(Item.hook)
        var placed = Set(m.hooks.indices.filter { m.hooks[$0].late })
        for step in m.steps {
            // Before-hooks ran in the step's transaction ahead of its schema changes.
            for (i, hook) in m.hooks.enumerated() where !placed.contains(i) && hook.after == step.toVersion && hook.timing == .before {
                items.append(.hook(hook))
                placed.insert(i)
            }
            items.append(.step(step))
            for (i, hook) in m.hooks.enumerated() where !placed.contains(i) && hook.after == step.toVersion {
                items.append(.hook(hook))
                placed.insert(i)
            }
        }
        items += m.hooks.indices.filter { !placed.contains($0) }.map { .hook(m.hooks[$0]) }
        return items
    }

    /// `v1 → v2`
    static func versions(_ step: StepReport) -> String { "v\(step.fromVersion) → v\(step.toVersion)" }

    /// `rebuild Ingredient (1,204 rows copied)`, `alter Recipe (was Dish)`.
    static func action(_ action: TableAction, _ step: StepReport, rows: Bool = true) -> String {
        var details: [String] = []
        if let source = action.sourceTable, source != action.table { details.append("was \(source)") }
        if rows, action.kind == .rebuild, let rows = step.rowsCopied[action.sourceTable ?? action.table] {
            details.append("\(number(rows)) row\(rows == 1 ? "" : "s") copied")
        }
        return "\(action.kind.rawValue) \(action.table)" + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
    }

    /// The step's table actions in one phrase; `metadata only` when it runs no SQL.
    static func tables(_ step: StepReport, rows: Bool = true) -> String {
        if step.tables.isEmpty { return step.metadataOnly ? "metadata only" : "no table changes" }
        return step.tables.map { action($0, step, rows: rows) }.joined(separator: ", ")
    }

    /// Rows the step's rebuilds copy: `1,204`, `1,254 (Ingredient 1,204, Recipe 50)`, nil without a rebuild.
    static func rowsCopied(_ step: StepReport) -> String? {
        guard !step.rowsCopied.isEmpty else { return nil }
        let total = number(step.rowsCopied.values.reduce(0, +))
        if step.rowsCopied.count == 1 { return total }
        return total + " (" + step.rowsCopied.sorted { $0.key < $1.key }.map { "\($0.key) \(number($0.value))" }.joined(separator: ", ") + ")"
    }

    /// Whether the run stopped: a step not committed or a hook rolled back.
    static func failed(_ m: MigrationRunReport) -> Bool {
        m.steps.contains { !$0.committed } || m.hooks.contains { !$0.committed }
    }

    /// `9 SQL statements, 420 ms`
    static func stats(_ step: StepReport) -> String {
        var parts = ["\(step.sql.count) SQL statement\(step.sql.count == 1 ? "" : "s")"]
        if let duration = step.duration { parts.append(seconds(duration)) }
        return parts.joined(separator: ", ")
    }

    /// `batchUpdate Recipe: 83 objects`
    static func hookStep(_ step: HookStepResult) -> String {
        if step.kind == "sql" {
            // Raw SQL counts rows its statements wrote; `entity` lists the entities whose tables it wrote.
            return "sql (\(step.entity.isEmpty ? "wrote no model table" : "wrote " + step.entity)): \(number(step.count)) row\(step.count == 1 ? "" : "s")"
        }
        if step.kind == "swift" {
            // A Swift stage: what it declares it writes (audited in full), and what its batch requests matched.
            let writes = step.entity.isEmpty ? "Swift stage" : "Swift stage (writes \(step.entity))"
            return step.count == 0 ? writes : writes + ": \(number(step.count)) object\(step.count == 1 ? "" : "s") in batch requests"
        }
        return "\(step.kind) \(step.entity): \(number(step.count)) object\(step.count == 1 ? "" : "s")"
    }

    /// `hook favorite-recent-recipes (after v4)`, `(after v4, late)` for a late hook, `(before v4)` for a before-hook.
    static func hookName(_ hook: HookRunResult) -> String {
        "hook \(hook.id) (\(hook.place)\(hook.late ? ", late" : ""))"
    }

    /// `0 violations`, or `not audited` when the run used `--audit none`.
    static func hookAudit(_ hook: HookRunResult) -> String {
        guard let audit = hook.audit else { return "not audited" }
        return "\(number(audit.totalViolations)) violation\(audit.totalViolations == 1 ? "" : "s")"
    }

    /// Entities of a change set with their counts, sorted: `("Recipe", updated: 83, deleted: 0)`.
    static func changedEntities(_ changes: ChangeSet) -> [(entity: String, updated: Int, deleted: Int, inserted: Int)] {
        let entities = Set(changes.updatedCounts.filter { $0.value > 0 }.keys)
            .union(changes.deletedCounts.filter { $0.value > 0 }.keys)
            .union(changes.insertedCounts.filter { $0.value > 0 }.keys)
        return entities.sorted().map { ($0, changes.updatedCounts[$0] ?? 0, changes.deletedCounts[$0] ?? 0, changes.insertedCounts[$0] ?? 0) }
    }

    /// `2 inserted, 83 updated, 4 deleted`
    static func changeCounts(updated: Int, deleted: Int, inserted: Int = 0) -> String {
        var parts: [String] = []
        if inserted > 0 { parts.append("\(number(inserted)) inserted") }
        if updated > 0 { parts.append("\(number(updated)) updated") }
        if deleted > 0 { parts.append("\(number(deleted)) deleted") }
        return parts.joined(separator: ", ")
    }

    /// `1,204`: thousands grouped with commas, whatever the locale.
    static func number(_ n: Int) -> String {
        NumberText.grouped(n)
    }

    /// `420 ms` below a second, else `2.35 s`.
    static func seconds(_ s: Double) -> String {
        s < 1 ? "\(Int((s * 1000).rounded())) ms" : String(format: "%.2f s", s)
    }
}
