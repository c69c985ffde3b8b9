extension HTMLReport {
    /// The migration: the headline, a table of version steps with each step's changes and SQL in a
    /// `<details>` block, a table of hooks and the violations their audits found, the objects changed.
    func migrationSection(_ migration: MigrationRunReport, _ report: Report) -> [String] {
        let (label, rest) = MigrationText.headlineParts(migration)
        var lines = [
            "<h2>\(migration.dryRun ? "Migration plan (dry run)" : "Migration")</h2>",
            "<p class=\"\(MigrationText.failed(migration) ? "failure" : "ok")\"><strong>\(esc(label)):</strong> \(esc(rest))</p>",
        ]
        lines += MigrationText.notes(migration).map { "<p>\(esc($0))</p>" }
        if !migration.steps.isEmpty {
            lines += ["<h3>Version steps</h3>"] + stepTable(migration.steps)
            lines += migration.steps.flatMap(stepDetails)
        }
        if !migration.hooks.isEmpty {
            lines += ["<h3>Hooks</h3>"] + hookTable(migration.hooks)
            for hook in migration.hooks where !(hook.audit?.violated.isEmpty ?? true) {
                lines.append("<h3>Violations found by \(esc(MigrationText.hookName(hook)))</h3>")
                for rule in hook.audit!.violated { lines += ruleTable(rule, report) }
            }
            lines += ["<h3>Changed objects</h3>"] + changeTable(migration.changes)
        }
        if !migration.warnings.isEmpty {
            lines.append("<ul class=\"warning\">" + migration.warnings.map { "<li>\(esc($0))</li>" }.joined() + "</ul>")
        }
        return lines
    }

    func stepTable(_ steps: [StepReport]) -> [String] {
        var lines = ["<table>", "<tr><th>Step</th><th>Tables</th><th>Rows copied</th><th>Destructive</th><th>SQL statements</th><th>Duration</th><th>Outcome</th></tr>"]
        for step in steps {
            let tables = step.tables.isEmpty ? esc(MigrationText.tables(step))
                : step.tables.map { esc(MigrationText.action($0, step, rows: false)) }.joined(separator: "<br/>")
            let destructive = step.destructive.isEmpty ? "—"
                : step.destructive.map { "<span class=\"warning\">\(esc($0.summary))</span>" }.joined(separator: "<br/>")
            let cells = [
                "<td>\(esc(MigrationText.versions(step)))</td>", "<td>\(tables)</td>",
                "<td class=\"num\">\(esc(MigrationText.rowsCopied(step) ?? "—"))</td>", "<td>\(destructive)</td>",
                "<td class=\"num\">\(step.sql.count)</td>", "<td class=\"num\">\(step.duration.map(MigrationText.seconds) ?? "—")</td>",
                step.committed ? "<td class=\"ok\">ok</td>" : "<td class=\"failure\">rolled back</td>",
            ]
            lines.append("<tr>" + cells.joined() + "</tr>")
        }
        lines.append("</table>")
        return lines
    }

    /// The step's changes, table reasons, warnings and SQL, collapsed.
    func stepDetails(_ step: StepReport) -> [String] {
        var items = step.changes.map { "<li>\(esc($0))</li>" }
        for action in step.tables where !action.reasons.isEmpty {
            items.append("<li>\(esc("\(action.kind.rawValue) \(action.table): " + action.reasons.joined(separator: "; ")))</li>")
        }
        items += step.warnings.map { "<li class=\"warning\">warning: \(esc($0))</li>" }
        let count = "\(step.sql.count) SQL statement\(step.sql.count == 1 ? "" : "s")"
        var lines = ["<details>", "<summary>\(esc(MigrationText.versions(step))): \(step.changes.count) change\(step.changes.count == 1 ? "" : "s"), \(count)</summary>"]
        if !items.isEmpty { lines.append("<ul>" + items.joined() + "</ul>") }
        if !step.sql.isEmpty { lines.append("<pre><code>\(esc(step.sql.joined(separator: "\n\n")))</code></pre>") }
        lines.append("</details>")
        return lines
    }

    func hookTable(_ hooks: [HookRunResult]) -> [String] {
        var lines = ["<table>", "<tr><th>Hook</th><th>After</th><th>Steps</th><th>Matched rows</th><th>Violations</th><th>Outcome</th></tr>"]
        for hook in hooks {
            let outcome: String
            switch hook.outcome {
            case .committed: outcome = "<td class=\"ok\">ok</td>"
            case .warned: outcome = "<td class=\"warning\">warned</td>"
            case .rolledBack: outcome = "<td class=\"failure\">rolled back</td>"
            }
            let cells = [
                "<td><code>\(esc(hook.id))</code></td>", "<td>\(hook.timing == .before ? hook.place : "v\(hook.after)")\(hook.late ? " (late)" : "")</td>",
                "<td>" + hook.steps.map { esc(MigrationText.hookStep($0)) }.joined(separator: "<br/>") + "</td>",
                "<td class=\"num\">\(MigrationText.number(hook.rowsAffected))</td>",
                "<td class=\"num\">\(hook.audit.map { MigrationText.number($0.totalViolations) } ?? "not audited")</td>", outcome,
            ]
            lines.append("<tr>" + cells.joined() + "</tr>")
        }
        lines.append("</table>")
        return lines
    }

    func changeTable(_ changes: ChangeSet) -> [String] {
        let entities = MigrationText.changedEntities(changes)
        if entities.isEmpty { return ["<p>No objects changed.</p>"] }
        // An Inserted column only when a batch insert ran, so reports of other runs keep their shape.
        let inserts = entities.contains { $0.inserted > 0 }
        return ["<table>", "<tr><th>Entity</th>" + (inserts ? "<th>Inserted</th>" : "") + "<th>Updated</th><th>Deleted</th></tr>"]
            + entities.map {
                "<tr><td>\(esc($0.entity))</td>" + (inserts ? "<td class=\"num\">\(MigrationText.number($0.inserted))</td>" : "")
                    + "<td class=\"num\">\(MigrationText.number($0.updated))</td><td class=\"num\">\(MigrationText.number($0.deleted))</td></tr>"
            }
            + ["</table>"]
    }
}
