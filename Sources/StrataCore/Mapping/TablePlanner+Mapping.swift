/// Links to rows a mapping's filter drops, counted before the step (SPEC §11.3 "Uncarried rows").
public struct DroppedLinkProbe: Hashable, Sendable {
    /// The filtered destination entity the links pointed at.
    public var entity: String
    /// The destination table and column holding the links.
    public var table: String
    public var column: String
    /// `SELECT count(*) …` over the source tables.
    public var count: SQLText
}

/// What a mapping file changes in a step's table plans (SPEC §11.3): its filters, its `$source` links,
/// and the links to rows it drops.
extension TablePlanner {
    /// Whether a mapped entity links to `entity` with `$source` (then `entity`'s table is planned even when unchanged).
    func isCompanionTarget(_ entity: String) -> Bool {
        guard let mapping else { return false }
        return mapping.entities.values.contains { m in
            m.companions.contains { destination.relationship($0, of: m.name)?.relationship.destination == entity }
        }
    }

    /// The condition on the source rows of a table that mapped entities filter: rows of a filtered kind
    /// must match its filter; other kinds are carried as inferred.
    func mappingFilter(members: [String], sourceTable: String) -> SQLText? {
        guard let mapping else { return nil }
        let kinds = src.entityNames(inTable: sourceTable)
        let discriminated = src.table(sourceTable)?.column("_entity") != nil && kinds.count > 1
        var parts: [SQLText] = []
        for m in members {
            guard let e = mapping.entities[m], let filter = e.filter else { continue }
            if discriminated {
                let column = ColumnName("_entity", qualifier: ColumnSource.oldAlias)
                parts.append("(\(column) <> \(e.source) OR \(filter))")
            } else {
                parts.append(filter)
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " AND ")
    }

    /// A `$source` link of destination kind `kind`: the object carried from the same source row has the
    /// same `_pk`. On the other side of the relationship (the inverse of a `$source` relationship stored in
    /// this table), the link exists for the rows the companion carried.
    func companionLink(_ r: Relationship, kind: String, from: String? = nil) -> ColumnSource? {
        guard let mapping else { return nil }
        let pk = ColumnName("_pk", qualifier: ColumnSource.oldAlias)
        if mapping.entities[kind]?.companions.contains(r.name) == true { return .column("_pk") }
        guard let inverse = r.inverse, let companion = mapping.entities[r.destination], companion.companions.contains(inverse),
              companion.source == (from ?? corr.sourceEntity[kind]) else { return nil }
        guard let filter = companion.filter else { return .column("_pk") }
        return .expression("CASE WHEN \(filter) THEN \(pk) END")
    }

    /// Whether destination kind `kind` gets `attribute` from the mapping file.
    func isMapped(_ attribute: String, kind: String, from source: String? = nil) -> Bool {
        mapping?.value(attribute, kind: kind, source: source) != nil
    }

    /// Links to rows a mapping's `filter:` dropped: foreign keys set to NULL, join-table rows deleted (SPEC §11.3
    /// "uncarried rows"). Run once every table has its final name.
    func droppedLinkCleanup() -> [MigrationOperation] {
        // Links to rows that get new IDs were re-linked: those no part carries are nil already.
        let filtered = Set(plans.filter { $0.dropsRows && !$0.newIDs }.map(\.spec.name))
        guard !filtered.isEmpty else { return [] }
        var ops: [MigrationOperation] = []
        for table in dst.tables {
            for column in table.columns {
                guard let ref = column.references, filtered.contains(ref) else { continue }
                let t = TableName(table.name), c = ColumnName(column.name), pk = ColumnName("_pk")
                let text: SQLText = table.kind == .entity
                    ? "UPDATE \(t) SET \(c) = NULL WHERE \(c) IS NOT NULL AND \(c) NOT IN (SELECT \(pk) FROM \(TableName(ref)))"
                    : "DELETE FROM \(t) WHERE \(c) NOT IN (SELECT \(pk) FROM \(TableName(ref)))"
                ops.append(.execute(text))
            }
        }
        return ops
    }

    /// Before the step: how many links each cleanup of `droppedLinkCleanup` removes, counted on the source
    /// tables (the links of carried rows that point at rows a filter drops), per filtered destination entity.
    func droppedLinkProbes() -> [DroppedLinkProbe] {
        guard let mapping else { return [] }
        let filtered = Dictionary(plans.filter { $0.rowFilter != nil }.map { ($0.spec.name, $0) }, uniquingKeysWith: { a, _ in a })
        guard !filtered.isEmpty else { return [] }
        let old = ColumnSource.oldAlias
        var probes: [DroppedLinkProbe] = []
        for table in dst.tables {
            for column in table.columns {
                guard let ref = column.references, let target = filtered[ref], let targetSource = target.sourceTable else { continue }
                // Where the link comes from: the table's plan (or the table itself, kept unchanged).
                let plan = plans.first { $0.spec.name == table.name }
                let sourceTable = plan?.sourceTable ?? (plan == nil ? table.name : nil)
                var sourceColumn: String? = plan == nil ? column.name : nil
                if let plan, case .column(let c)? = plan.columns.first(where: { $0.spec.name == column.name })?.source { sourceColumn = c }
                guard let sourceTable, let sourceColumn else { continue }
                let kinds = (corr.destinationKinds[target.spec.rootEntity ?? ""] ?? []).filter { mapping.entities[$0]?.filter != nil }
                guard let entity = kinds.first else { continue }
                var carried: SQLText = "SELECT \(ColumnName("_pk", qualifier: old)) FROM \(TableName(targetSource)) AS \(keyword: old)"
                if let f = target.rowFilter { carried += " WHERE " + f }
                var text: SQLText = "SELECT count(*) FROM \(TableName(sourceTable)) AS \(keyword: old) WHERE "
                if let own = plan?.rowFilter { text += own + " AND " }
                text += "\(ColumnName(sourceColumn, qualifier: old)) IS NOT NULL AND \(ColumnName(sourceColumn, qualifier: old)) NOT IN (" + carried + ")"
                probes.append(DroppedLinkProbe(entity: entity, table: table.name, column: column.name, count: text))
            }
        }
        return probes
    }

    /// A mapped value into a non-optional attribute that came out nil (a failed cast, a nil operand):
    /// 1570, checked with the step whatever `--audit` says.
    func mappedMandatoryChecks() -> [MigrationOperation] {
        guard let mapping else { return [] }
        var checks: [MigrationOperation] = []
        for (name, e) in mapping.entities.sorted(by: { $0.key < $1.key }) {
            guard let storage = dst.storage(of: name) else { continue }
            for attribute in e.expressions.keys.sorted() {
                guard let a = destination.attribute(attribute, of: name)?.attribute, !a.isOptional,
                      let column = storage.attributeColumns[attribute] else { continue }
                let t = TableName(storage.table), c = ColumnName(column, qualifier: "t"), pk = ColumnName("_pk", qualifier: "t")
                var text: SQLText = "SELECT \(pk), \(name) FROM \(t) AS t WHERE \(c) IS NULL"
                if storage.isDiscriminated { text += " AND \(ColumnName("_entity", qualifier: "t")) = \(name)" }
                text += " ORDER BY \(pk)"
                checks.append(.check(MigrationCheck(kind: .nilMappedValue, entity: name, properties: [attribute],
                                                    statement: text, code: 1570)))
            }
        }
        return checks
    }
}
