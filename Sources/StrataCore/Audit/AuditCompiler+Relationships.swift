extension AuditCompiler {
    /// Mandatory to-one and to-many (1570), minCount/maxCount of a non-empty to-many (1580/1590) and
    /// dangling references of a noAction to-one stored on this side (1700).
    func relationshipRules(_ r: Relationship, storage: RelationshipStorage, _ context: RuleContext) -> [AuditRule] {
        let own = context.storage.table
        let entityWide: Set<String> = [own, storage.table]
        var rules: [AuditRule] = []
        func add(_ kind: AuditRule.Kind, _ code: AuditCode, _ constraint: String, _ condition: SQLStatement,
                 value: String, triggers: Set<String>) {
            rules.append(context.rule(r.name, kind, code, constraint,
                                      .row(condition: condition, value: SQLStatement(value)), triggers: triggers))
        }

        if !r.isToMany {
            switch storage.kind {
            case .foreignKey:
                let col = SQLStatement.column(storage.column)
                if !r.isOptional {
                    add(.optional, .missingMandatory, "not optional", SQLStatement("\(col) IS NULL"), value: col, triggers: entityWide)
                }
                if declaresNoForeignKey(storage) {
                    let destination = layout.storage(of: storage.destination)?.table ?? storage.destination
                    let exists = "EXISTS (SELECT 1 FROM \(SQLIdentifier.quote(destination)) AS o WHERE o.\"_pk\" = \(col))"
                    add(.dangling, .danglingReference, "references an existing \(storage.destination)",
                        SQLStatement("\(col) IS NOT NULL AND NOT \(exists)"), value: col, triggers: [destination])
                }
            case .inverseForeignKey, .joinTable:
                if !r.isOptional {
                    add(.optional, .missingMandatory, "not optional", SQLStatement("NOT \(exists(storage))"),
                        value: "NULL", triggers: entityWide)
                }
            }
            return rules
        }

        let count = "(SELECT COUNT(*) \(links(storage)))"
        if !r.isOptional {
            add(.optional, .missingMandatory, "not optional (at least one)", SQLStatement("NOT \(exists(storage))"),
                value: "0", triggers: entityWide)
        }
        if let min = r.minCount, min > 1 {
            add(.minCount, .tooFew, "minCount \(min)",
                SQLStatement("\(count) BETWEEN 1 AND ?", [.integer(Int64(min - 1))]), value: count, triggers: entityWide)
        }
        if let max = r.maxCount {
            add(.maxCount, .tooMany, "maxCount \(max)", SQLStatement("\(count) > ?", [.integer(Int64(max))]),
                value: count, triggers: entityWide)
        }
        return rules
    }

    /// `FROM <link table> AS o WHERE o.<column> = t._pk`: the rows linking an object of `t` to its destinations.
    private func links(_ storage: RelationshipStorage) -> String {
        "FROM \(SQLIdentifier.quote(storage.table)) AS o WHERE o.\(SQLIdentifier.quote(storage.column)) = t.\"_pk\""
    }

    private func exists(_ storage: RelationshipStorage) -> String { "EXISTS (SELECT 1 \(links(storage)))" }

    /// Whether the relationship's column has no foreign key (its inverse's delete rule is noAction).
    private func declaresNoForeignKey(_ storage: RelationshipStorage) -> Bool {
        guard let column = layout.table(storage.table)?.column(storage.column) else { return false }
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
