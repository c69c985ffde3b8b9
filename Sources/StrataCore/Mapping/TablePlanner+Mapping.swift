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
    func companionLink(_ r: Relationship, kind: String) -> ColumnSource? {
        guard let mapping else { return nil }
        let pk = ColumnName("_pk", qualifier: ColumnSource.oldAlias)
        if mapping.entities[kind]?.companions.contains(r.name) == true { return .column("_pk") }
        guard let inverse = r.inverse, let companion = mapping.entities[r.destination], companion.companions.contains(inverse),
              companion.source == corr.sourceEntity[kind] else { return nil }
        guard let filter = companion.filter else { return .column("_pk") }
        let (sql, arguments) = ("CASE WHEN \(filter) THEN \(pk) END" as SQLText).rendered()
        return .expression(sql, arguments)
    }

    /// Whether destination kind `kind` gets `attribute` from the mapping file.
    func isMapped(_ attribute: String, kind: String) -> Bool { mapping?.value(attribute, kind: kind) != nil }

    /// Links to rows a mapping's `filter:` dropped: foreign keys set to NULL, join-table rows deleted (SPEC §11.3
    /// "uncarried rows"). Run once every table has its final name.
    func droppedLinkCleanup() -> [MigrationOperation] {
        let filtered = Set(plans.filter { $0.rowFilter != nil }.map(\.spec.name))
        guard !filtered.isEmpty else { return [] }
        var ops: [MigrationOperation] = []
        for table in dst.tables {
            for column in table.columns {
                guard let ref = column.references, filtered.contains(ref) else { continue }
                let t = TableName(table.name), c = ColumnName(column.name), pk = ColumnName("_pk")
                let text: SQLText = table.kind == .entity
                    ? "UPDATE \(t) SET \(c) = NULL WHERE \(c) IS NOT NULL AND \(c) NOT IN (SELECT \(pk) FROM \(TableName(ref)))"
                    : "DELETE FROM \(t) WHERE \(c) NOT IN (SELECT \(pk) FROM \(TableName(ref)))"
                let (sql, arguments) = text.rendered()
                ops.append(.execute(SQLStatement(sql, arguments)))
            }
        }
        return ops
    }

    /// A mapped value into a non-optional attribute that came out nil (a failed cast, a nil operand):
    /// 1570, checked with the step whatever `--audit` says.
    func mappedMandatoryChecks() -> [MigrationOperation] {
        guard let mapping else { return [] }
        var checks: [MigrationOperation] = []
        for (name, e) in mapping.entities.sorted(by: { $0.key < $1.key }) {
            guard let storage = dst.storage(of: name) else { continue }
            for attribute in e.attributes.keys.sorted() {
                guard let a = destination.attribute(attribute, of: name)?.attribute, !a.isOptional,
                      let column = storage.attributeColumns[attribute] else { continue }
                let t = TableName(storage.table), c = ColumnName(column, qualifier: "t"), pk = ColumnName("_pk", qualifier: "t")
                var text: SQLText = "SELECT \(pk), \(name) FROM \(t) AS t WHERE \(c) IS NULL"
                if storage.isDiscriminated { text += " AND \(ColumnName("_entity", qualifier: "t")) = \(name)" }
                text += " ORDER BY \(pk)"
                let (sql, arguments) = text.rendered()
                checks.append(.check(MigrationCheck(kind: .nilMappedValue, entity: name, properties: [attribute],
                                                    statement: SQLStatement(sql, arguments), code: 1570)))
            }
        }
        return checks
    }
}
