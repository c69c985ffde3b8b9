extension AuditPlanner {
    /// Mandatory to-one and to-many (1570), minCount/maxCount of a non-empty to-many (1580/1590), an object
    /// two rows link as their one-to-one partner (1590) and
    /// dangling references of a noAction to-one stored on this side (1700).
    func relationshipRules(_ r: Relationship, storage: RelationshipStorage, _ context: RuleContext) -> [AuditRule] {
        let own = context.storage.table
        let entityWide: Set<String> = [own, storage.table]
        var rules: [AuditRule] = []
        func add(_ kind: AuditRule.Kind, _ code: AuditCode, _ constraint: String, _ condition: SQLText,
                 value: SQLText, triggers: Set<String>) {
            rules.append(context.rule(r.name, kind, code, constraint, .row(condition: condition, value: value), triggers: triggers))
        }

        if !r.isToMany {
            switch storage.kind {
            case .foreignKey:
                let col: SQLText = "\(ColumnName(storage.column, qualifier: "t"))"
                if !r.isOptional {
                    add(.optional, .missingMandatory, "not optional", col + " IS NULL", value: col, triggers: entityWide)
                }
                if declaresNoForeignKey(storage) {
                    let destination = layout.storage(of: storage.destination)?.table ?? storage.destination
                    let exists = "EXISTS (SELECT 1 FROM \(TableName(destination)) AS o WHERE \(ColumnName("_pk", qualifier: "o")) = " + col + ")"
                    add(.dangling, .danglingReference, "references an existing \(storage.destination)",
                        col + " IS NOT NULL AND NOT " + exists, value: col, triggers: [destination])
                }
            case .inverseForeignKey, .joinTable:
                // No column for the key (`StoreLayout.column(of:)`, an old layout's self-inverse to-one): no object has the link.
                if !r.isOptional {
                    add(.optional, .missingMandatory, "not optional", layout.column(of: storage) != nil ? "NOT " + exists(storage) : "1",
                        value: "NULL", triggers: entityWide)
                }
                if storage.kind == .inverseForeignKey, layout.column(of: storage) != nil {
                    // A one-to-one stored on the other side: an object whose key two rows hold has two partners
                    // (1590, as a to-one's maxCount 1), however the rows came to share it. One GROUP BY over the key.
                    let key = ColumnName(storage.column, qualifier: "o")
                    let shared: SQLText = "\(ColumnName("_pk", qualifier: "t")) IN (SELECT \(key) FROM \(TableName(storage.table)) AS o WHERE \(key) IS NOT NULL GROUP BY \(key) HAVING count(*) > 1)"
                    add(.maxCount, .tooMany, "one-to-one (at most 1)", shared, value: "(SELECT COUNT(*) " + links(storage) + ")",
                        triggers: [storage.table])
                }
            }
            return rules
        }

        let count = "(SELECT COUNT(*) " + links(storage) + ")"
        if !r.isOptional {
            add(.optional, .missingMandatory, "not optional (at least one)", "NOT " + exists(storage),
                value: "0", triggers: entityWide)
        }
        if let min = r.minCount, min > 1 {
            add(.minCount, .tooFew, "minCount \(min)",
                count + " BETWEEN 1 AND \(min - 1)", value: count, triggers: entityWide)
        }
        if let max = r.maxCount {
            add(.maxCount, .tooMany, "maxCount \(max)", count + " > \(max)",
                value: count, triggers: entityWide)
        }
        return rules
    }

    /// `FROM <link table> AS o WHERE o.<column> = t._pk`: the rows linking an object of `t` to its destinations.
    private func links(_ storage: RelationshipStorage) -> SQLText {
        "FROM \(TableName(storage.table)) AS o WHERE \(ColumnName(storage.column, qualifier: "o")) = \(ColumnName("_pk", qualifier: "t"))"
    }

    private func exists(_ storage: RelationshipStorage) -> SQLText { "EXISTS (SELECT 1 " + links(storage) + ")" }

    /// Whether the relationship's column has no foreign key (its inverse's delete rule is noAction).
    private func declaresNoForeignKey(_ storage: RelationshipStorage) -> Bool {
        guard let column = layout.column(of: storage) else { return false }
        return column.references == nil
    }

    /// Duplicate groups over a uniqueness constraint (attributes and to-one relationships stored here).
    func uniquenessRule(_ names: [String], _ context: RuleContext) -> AuditRule {
        var columns: [String] = []
        var types: [AttributeType?] = []
        for name in names {
            if let column = context.storage.attributeColumns[name] {
                columns.append(column)
                types.append(model.attribute(name, of: context.entity)?.attribute.type)
            } else if let rel = context.storage.relationships[name], rel.kind == .foreignKey {
                columns.append(rel.column)
                types.append(nil)
            }
        }
        return context.rule(names.joined(separator: ", "), .uniqueness, .uniqueness, "unique (\(names.joined(separator: ", ")))",
                            .uniqueness(columns: columns, types: types), triggers: [context.storage.table])
    }
}
