extension TextReport {
    /// The migration as a plan a person reads in a terminal: the headline, one block per version
    /// step followed by one block per hook that runs after it (late hooks first), then the objects
    /// changed per entity.
    ///
    /// ```
    /// Dry run: store app.sqlite at v1 → v4 ($NOW = 2024-06-01T12:00:00Z)
    ///
    /// v1 → v2: rebuild Ingredient (1,204 rows copied), alter Recipe
    ///   [destructive] removeAttribute Ingredient.notes: 312 values dropped (e.g. "fresh", "diced")
    ///   addAttribute Recipe.favorite: new bool
    ///   rebuild Ingredient: column notes dropped
    ///   9 SQL statements, 420 ms
    ///
    /// hook favorite-recent-recipes (after v4): batchUpdate Recipe: 83 objects; audit: 0 violations
    ///
    /// Changed objects:
    ///   Recipe: 83 updated
    /// ```
    /// The SQL itself is in the JSON, Markdown and HTML reports; the text shows how many statements.
    func migrationSection(_ migration: MigrationRunReport, _ report: Report) -> [String] {
        var lines = [MigrationText.headline(migration)] + MigrationText.notes(migration)
        for item in MigrationText.timeline(migration) {
            switch item {
            case .step(let step): lines += [""] + stepLines(step)
            case .hook(let hook): lines += [""] + hookLines(hook, report)
            }
        }
        if !migration.hooks.isEmpty { lines += [""] + changeLines(migration.changes) }
        if !migration.warnings.isEmpty { lines.append("") }
        lines += migration.warnings.map { "warning: \($0)" }
        return lines
    }

    func stepLines(_ step: StepReport) -> [String] {
        var lines = ["\(MigrationText.versions(step)): \(MigrationText.tables(step))"]
        for change in step.changes {
            if let destructive = step.destructive.first(where: { $0.change == change }) {
                lines.append("  [destructive] " + destructive.summary)
            } else {
                lines.append("  " + change)
            }
        }
        for action in step.tables where !action.reasons.isEmpty {
            lines.append("  \(action.kind.rawValue) \(action.table): " + action.reasons.joined(separator: "; "))
        }
        for entity in step.mapping ?? [] { lines += entity.lines.map { "  " + $0 } }
        if let audit = step.mappingAudit {
            lines.append("  audit of the mapped entities (v\(audit.modelVersion)): \(audit.totalViolations) violation\(audit.totalViolations == 1 ? "" : "s")")
            for rule in audit.violated {
                lines.append("    \(rule.code.rawValue) \(rule.subject) \(rule.rule): \(rule.count)"
                             + (rule.samples.isEmpty ? "" : " (" + rule.samples.map(\.objectID).joined(separator: ", ") + ")"))
            }
        }
        lines += step.warnings.map { "  warning: \($0)" }
        lines.append("  " + MigrationText.stats(step) + (step.committed ? "" : "; rolled back"))
        return lines
    }

    func hookLines(_ hook: HookRunResult, _ report: Report) -> [String] {
        var parts = [hook.steps.isEmpty ? "no steps" : hook.steps.map(MigrationText.hookStep).joined(separator: ", ")]
        parts.append("audit: " + MigrationText.hookAudit(hook))
        switch hook.outcome {
        case .committed: break
        case .warned: parts.append("warned (onViolation: warn)")
        case .rolledBack: parts.append("rolled back with its version step")
        }
        var lines = [MigrationText.hookName(hook) + ": " + parts.joined(separator: "; ")]
        for (entity, rules) in ReportText.byEntity(hook.audit?.violated ?? []) {
            lines.append("  " + entity)
            for rule in rules { lines += ruleLines(rule, report).map { "  " + $0 } }
        }
        return lines
    }

    func changeLines(_ changes: ChangeSet) -> [String] {
        let entities = MigrationText.changedEntities(changes)
        let invalidated = changes.invalidated.isEmpty ? [] : ["Invalidated by raw SQL (sql: steps, Swift stages; refetch every object): " + changes.invalidated.joined(separator: ", ")]
        if entities.isEmpty { return invalidated.isEmpty ? ["No objects changed."] : invalidated }
        return ["Changed objects:"] + entities.map { "  \($0.entity): " + MigrationText.changeCounts(updated: $0.updated, deleted: $0.deleted, inserted: $0.inserted) }
            + invalidated
    }
}
