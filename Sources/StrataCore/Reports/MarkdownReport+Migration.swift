extension MarkdownReport {
    /// The migration as a plan for a pull request: the headline, a table of version steps, each step's
    /// SQL in a collapsible `<details>` block, a table of hooks with the violations their audits found,
    /// and the objects changed.
    ///
    /// ```
    /// ### Migration plan (dry run)
    ///
    /// ✅ **Dry run:** store app.sqlite at v1 → v4 ($NOW = 2024-06-01T12:00:00Z)
    ///
    /// | Step | Tables | Rows copied | Destructive | Outcome |
    /// |---|---|---:|---|---|
    /// | v1 → v2 | rebuild Ingredient, alter Recipe | 1,204 | removeAttribute Ingredient.notes: 312 values dropped | ok |
    /// ```
    func migrationSection(_ migration: MigrationRunReport, _ report: Report) -> [String] {
        var lines = ["### " + (migration.dryRun ? "Migration plan (dry run)" : "Migration"), ""]
        let (label, rest) = MigrationText.headlineParts(migration)
        lines.append("\(MigrationText.failed(migration) ? "❌" : "✅") **\(label):** \(cell(rest))")
        lines += MigrationText.notes(migration).map { "- " + cell($0) }
        if !migration.steps.isEmpty { lines += [""] + stepTable(migration.steps) }
        for step in migration.steps where !step.sql.isEmpty { lines += [""] + sqlBlock(step) }
        if !migration.hooks.isEmpty { lines += [""] + hookTable(migration.hooks) }
        let violated = migration.hooks.filter { !($0.audit?.violated.isEmpty ?? true) }
        if !violated.isEmpty { lines += [""] + hookViolations(violated, report) }
        if !migration.hooks.isEmpty { lines += ["", changes(migration.changes)] }
        if !migration.warnings.isEmpty { lines.append("") }
        lines += migration.warnings.map { "> ⚠️ " + cell($0) }
        return lines
    }

    func stepTable(_ steps: [StepReport]) -> [String] {
        var lines = ["| Step | Tables | Rows copied | Destructive | Outcome |", "|---|---|---:|---|---|"]
        for step in steps {
            let destructive = step.destructive.isEmpty ? "—" : step.destructive.map { cell($0.summary) }.joined(separator: "<br>")
            let cells = [MigrationText.versions(step), cell(MigrationText.tables(step, rows: false)),
                         MigrationText.rowsCopied(step) ?? "—", destructive, step.committed ? "ok" : "❌ rolled back"]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// The step's statements in a fenced block inside `<details>`, separated by blank lines.
    func sqlBlock(_ step: StepReport) -> [String] {
        let sql = step.sql.joined(separator: "\n\n")
        var fence = "```"
        while sql.contains(fence) { fence += "`" }
        let count = "\(step.sql.count) statement\(step.sql.count == 1 ? "" : "s")"
        return ["<details><summary>SQL of \(MigrationText.versions(step)) (\(count))</summary>", "", fence + "sql", sql, fence, "", "</details>"]
    }

    func hookTable(_ hooks: [HookRunResult]) -> [String] {
        var lines = ["| Hook | After | Matched rows | Violations | Outcome |", "|---|---|---:|---:|---|"]
        for hook in hooks {
            let outcome: String
            switch hook.outcome {
            case .committed: outcome = "ok"
            case .warned: outcome = "⚠️ warned"
            case .rolledBack: outcome = "❌ rolled back"
            }
            let violations = hook.audit.map { MigrationText.number($0.totalViolations) } ?? "not audited"
            let cells = [code(hook.id), (hook.timing == .before ? hook.place : "v\(hook.after)") + (hook.late ? " (late)" : ""), MigrationText.number(hook.rowsAffected),
                         violations, outcome]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// One row per violated rule of each hook's audit, as in the audit's table.
    func hookViolations(_ hooks: [HookRunResult], _ report: Report) -> [String] {
        var lines = ["| Hook | Entity | Rule | Code | Count | Status | Samples |", "|---|---|---|---:|---:|---|---|"]
        for hook in hooks {
            for rule in hook.audit?.violated ?? [] { lines.append("| " + code(hook.id) + " | " + ruleCells(rule, report) + " |") }
        }
        return lines
    }

    /// `**Changed objects:** Recipe 83 updated; Tag 2 deleted`
    func changes(_ changes: ChangeSet) -> String {
        let entities = MigrationText.changedEntities(changes)
        if entities.isEmpty { return "**Changed objects:** none" }
        return "**Changed objects:** " + entities.map {
            cell($0.entity) + " " + MigrationText.changeCounts(updated: $0.updated, deleted: $0.deleted, inserted: $0.inserted)
        }.joined(separator: "; ")
    }
}
