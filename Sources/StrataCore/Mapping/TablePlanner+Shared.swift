/// The planner's per-table plans as the dialect-neutral ``TablePlans`` a `VersionStep` carries.
extension TablePlanner {
    var shared: TablePlans {
        var result = TablePlans()
        result.tables = plans.map { p in
            var plan = TablePlan(table: p.spec, sourceTable: p.sourceTable, keptKinds: p.filter,
                      columns: p.columns.map { TablePlan.Column(spec: $0.spec, source: $0.source) }, carried: p.carried,
                      rowFilter: p.rowFilter, linkFill: p.linkFill, partSources: Array(Set(p.parts.map(\.sourceTable))).sorted(),
                      newIDs: p.newIDs, sqliteKind: p.kind)
            plan.parts = p.parts.map { part in
                TablePlan.Part(kind: part.kind, source: part.source, sourceTable: part.sourceTable,
                               columns: part.columns.map { TablePlan.Column(spec: $0.spec, source: $0.source) }, rowFilter: part.rowFilter)
            }
            if !p.parts.isEmpty { plan.usedIDTables = usedIDTables(p) }
            return plan
        }
        result.unchanged = unchanged.sorted()
        result.preChecks = preChecks
        result.checks = dataChecks
        result.nullDefaults = nullDefaults
        return result
    }
}
