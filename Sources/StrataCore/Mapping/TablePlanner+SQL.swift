extension TablePlanner {
    static func temporaryName(_ table: String) -> String { "strata_new_\(table)" }

    // MARK: in place or rebuild

    mutating func classify() {
        var consumers: [String: Int] = [:]
        for p in plans {
            if let s = p.sourceTable { consumers[s, default: 0] += 1 }
            for s in Set(p.parts.map(\.sourceTable)) { consumers[s, default: 0] += 1 }
        }
        for i in plans.indices { firstPass(&plans[i], consumers: consumers) }
        // Renames in place must not collide with another in-place table's current name, and foreign keys
        // kept in place must still point at the right table once SQLite has renamed what it renames.
        var changed = true
        while changed {
            changed = false
            let inPlace = plans.filter { $0.kind == .alter }
            let renames = Dictionary(inPlace.compactMap { p in p.sourceTable.map { ($0, p.spec.name) } }, uniquingKeysWith: { a, _ in a })
            let inPlaceSources = Set(inPlace.compactMap { $0.sourceTable?.lowercased() })
            for i in plans.indices where plans[i].kind == .alter {
                let p = plans[i]
                var reason: String?
                if p.sourceTable != p.spec.name, inPlaceSources.contains(p.spec.name.lowercased()) {
                    reason = "its new name is still taken by another table during the step"
                }
                let sourceSpec = src.table(p.sourceTable!)!
                for (s, d) in p.carried.sorted(by: { $0.key < $1.key }) {   // reasons in one order, run after run
                    guard let ref = sourceSpec.column(s)?.references else { continue }
                    if (renames[ref] ?? ref) != p.spec.column(d)?.references {
                        reason = "the foreign key \(d) points at a table that is rebuilt under a new name"
                    }
                }
                if let reason { plans[i].kind = .rebuild; plans[i].reasons = [reason]; changed = true }
            }
        }
    }

    private func firstPass(_ plan: inout Plan, consumers: [String: Int]) {
        guard plan.kind != .create, let sourceTable = plan.sourceTable, let sourceSpec = src.table(sourceTable) else { return }
        var reasons: [String] = []
        var carried: [String: String] = [:]
        var doubly: Set<String> = []
        if let filter = plan.filter { reasons.append("only the objects of \(filter.joined(separator: ", ")) stay in it") }
        if plan.rowFilter != nil { reasons.append("the mapping file's filter drops rows") }
        if consumers[sourceTable, default: 0] > 1 { reasons.append("its objects are split over several tables") }
        for (column, source) in plan.columns {
            switch source {
            case .column(let c):
                if carried[c] != nil { doubly.insert(c) }
                carried[c] = column.name
                guard let old = sourceSpec.column(c) else { reasons.append("column \(column.name) changes"); continue }
                if old.sqlType != column.sqlType || old.isPrimaryKey != column.isPrimaryKey || old.isNotNull != column.isNotNull
                    || old.onDelete != column.onDelete || (old.references == nil) != (column.references == nil) {
                    reasons.append(old.onDelete != column.onDelete ? "ON DELETE of \(column.name) changes" : "column \(column.name) changes")
                }
            case .entityName(_, nil):
                carried["_entity"] = column.name
            case .entityName(_, _?):
                break   // added in place with a DEFAULT
            case .constant(let v):
                if column.isPrimaryKey || (column.isNotNull && v.isNull) || (column.references != nil && !v.isNull) {
                    reasons.append("column \(column.name) cannot be added in place")
                }
            case .byKind(let branches) where branches.allSatisfy(\.value.isConstant) && !column.isNotNull && column.references == nil:
                break
            case .cast(let c, let type):
                reasons.append("column \(column.name) converts to \(type)")
                _ = c
            default:
                reasons.append("column \(column.name) is filled from other values")
            }
        }
        for c in doubly.sorted() { reasons.append("column \(c) is copied into several columns") }
        let dropped = sourceSpec.columns.map(\.name).filter { carried[$0] == nil }
        if !dropped.isEmpty { reasons.append("column\(dropped.count > 1 ? "s" : "") \(dropped.joined(separator: ", ")) dropped") }
        if sourceSpec.primaryKey.map({ carried[$0] ?? "?" }) != plan.spec.primaryKey { reasons.append("its primary key changes") }
        // A renamed column must not take a name another source column still holds.
        let sourceNames = Set(sourceSpec.columns.map { $0.name.lowercased() })
        for (s, d) in carried.sorted(by: { $0.key < $1.key }) where s != d && sourceNames.contains(d.lowercased()) && s.lowercased() != d.lowercased() {
            reasons.append("columns \(s) and \(d) swap names")
        }
        plan.carried = carried
        if reasons.isEmpty { plan.kind = .alter } else { plan.kind = .rebuild; plan.reasons = reasons }
    }

    // MARK: SQL

    mutating func emit() {
        var dropIndexes: [MigrationOperation] = []
        var copies: [MigrationOperation] = []
        var alters: [MigrationOperation] = []
        var renames: [MigrationOperation] = []
        var backfills: [MigrationOperation] = []
        var checks: [MigrationOperation] = []
        var indexes: [MigrationOperation] = []
        var reasons: [String: [String]] = [:]   // destination table → reasons for an in-place change

        for p in plans {
            let name = p.spec.name
            let table = TableName(name)
            switch p.kind {
            case .create, .rebuild, .drop:
                let temp = TableName(Self.temporaryName(name))
                copies.append(.execute(SchemaSQL.createTable(p.spec, named: temp.name)))
                if let fill = p.linkFill {
                    copies.append(.copy("INSERT INTO \(temp) (\(p.spec.columns.map { ColumnName($0.name) })) " + fill))
                } else if !p.parts.isEmpty {
                    copies += partCopies(p, into: temp)
                } else if let sourceTable = p.sourceTable {
                    var copy: SQLText = "INSERT INTO \(temp) (\(p.columns.map { ColumnName($0.spec.name) })) SELECT "
                        + p.columns.map(\.source.selectSQL).joined(separator: ", ")
                        + " FROM \(TableName(sourceTable)) AS \(TableName(ColumnSource.oldAlias))"
                    if let filter = p.filter {
                        copy += " WHERE " + ColumnSource.old("_entity") + " IN (" + boundList(filter.map(Value.text)) + ")"
                    }
                    if let rowFilter = p.rowFilter {
                        copy += (p.filter == nil ? " WHERE " : " AND ") + rowFilter
                    }
                    copies.append(.copy(copy))
                    if p.spec.kind == .entity {
                        let sequence = TableName("sqlite_sequence"), sequenceName = ColumnName("name"), seq = ColumnName("seq")
                        copies.append(.execute("DELETE FROM \(sequence) WHERE \(sequenceName) = \(temp.name)"))
                        copies.append(.execute("""
                            INSERT INTO \(sequence) (\(sequenceName), \(seq)) SELECT \(temp.name), \
                            max(coalesce((SELECT max(\(seq)) FROM \(sequence) WHERE \(sequenceName) = \(sourceTable)), 0), \
                            coalesce((SELECT max(\(ColumnName("_pk"))) FROM \(temp)), 0))
                            """))
                    }
                }
                renames.append(.execute("ALTER TABLE \(temp) RENAME TO \(table)"))
                for index in p.spec.indexes {
                    if index.isUnique, !hadUnique(index, plan: p) { checks.append(.check(duplicateCheck(index, table: p.spec))) }
                    indexes.append(.execute(SchemaSQL.createIndex(index, on: name)))
                }
                actions.append(TableAction(table: name, sourceTable: p.sourceTable, kind: p.kind, reasons: p.reasons))
            case .alter:
                let sourceTable = p.sourceTable!
                let sourceSpec = src.table(sourceTable)!
                var why: [String] = []
                if sourceTable != name {
                    alters.append(.execute("ALTER TABLE \(TableName(sourceTable)) RENAME TO \(table)"))
                    why.append("renamed from \(sourceTable)")
                }
                for (s, d) in p.carried.sorted(by: { $0.key < $1.key }) where s != d {
                    alters.append(.execute("ALTER TABLE \(table) RENAME COLUMN \(ColumnName(s)) TO \(ColumnName(d))"))
                    why.append("column \(s) renamed to \(d)")
                }
                let entity = ColumnName("_entity")
                var entityUpdate: [MigrationOperation] = []
                var fills: [MigrationOperation] = []
                for (column, source) in p.columns {
                    let added = ColumnName(column.name)
                    switch source {
                    case .entityName(let renamesMap, nil):
                        let changed = renamesMap.filter { $0.key != $0.value }.sorted { $0.key < $1.key }
                        if !changed.isEmpty {
                            entityUpdate.append(.execute("UPDATE \(table) SET \(entity) = CASE \(entity)"
                                + changed.map { " WHEN \($0.key) THEN \($0.value)" as SQLText }.joined()
                                + " ELSE \(entity) END WHERE \(entity) IN (" + boundList(changed.map { .text($0.key) }) + ")"))
                            why.append("objects' entity renamed")
                        }
                    case .entityName(_, let single?):
                        // A DEFAULT cannot be bound: the literal is rendered by SQLLiteral, the one place values become text.
                        alters.append(.execute("ALTER TABLE \(table) ADD COLUMN \(entity) TEXT NOT NULL DEFAULT \(keyword: SQLLiteral.render(.text(single))!)"))
                        why.append("column _entity added")
                    case .constant(let v):
                        let literal = v.isNull ? nil : SQLLiteral.render(v)
                        var def: SQLText = "ALTER TABLE \(table) ADD COLUMN \(added) \(keyword: column.sqlType)"
                        if let literal { def += " DEFAULT \(keyword: literal)" }
                        def += SchemaSQL.references(column)
                        alters.append(.execute(def))
                        if !v.isNull, literal == nil { fills.append(.execute("UPDATE \(table) SET \(added) = \(v)")) }
                        why.append("column \(column.name) added")
                    case .byKind(let branches):
                        alters.append(.execute("ALTER TABLE \(table) ADD COLUMN \(added) \(keyword: column.sqlType)"))
                        for b in branches {
                            guard case .constant(let v) = b.value, !v.isNull else { continue }
                            fills.append(.execute("UPDATE \(table) SET \(added) = \(v) WHERE \(entity) IN ("
                                + boundList(b.destinationKinds.map(Value.text)) + ")"))
                        }
                        why.append("column \(column.name) added")
                    default: break
                    }
                }
                alters += entityUpdate + fills
                // Indexes: keep those with the same name and (renamed) columns, drop the others, create the new.
                var kept: Set<String> = []
                for index in sourceSpec.indexes {
                    let mapped = IndexSpec(name: index.name, columns: index.columns.map { p.carried[$0] ?? $0 }, isUnique: index.isUnique)
                    if p.spec.indexes.contains(mapped) { kept.insert(index.name) }
                    else { dropIndexes.append(.execute("DROP INDEX IF EXISTS \(IndexName(index.name))")); why.append("index \(index.name) dropped") }
                }
                for index in p.spec.indexes where !kept.contains(index.name) {
                    if index.isUnique, !hadUnique(index, plan: p) { checks.append(.check(duplicateCheck(index, table: p.spec))) }
                    indexes.append(.execute(SchemaSQL.createIndex(index, on: name)))
                    why.append("index \(index.name) created")
                }
                reasons[name] = why
                if !why.isEmpty { actions.append(TableAction(table: name, sourceTable: sourceTable, kind: .alter, reasons: why)) }
            }
        }
        // Source tables nothing keeps in place are dropped (after their rows were copied).
        let keptInPlace = Set(plans.filter { $0.kind == .alter }.compactMap(\.sourceTable)).union(unchanged)
        var drops: [MigrationOperation] = []
        for table in src.tables where !keptInPlace.contains(table.name) {
            drops.append(.execute("DROP TABLE \(TableName(table.name))"))
            if !plans.contains(where: { $0.sourceTable == table.name || $0.parts.contains { $0.sourceTable == table.name } || $0.fillSources.contains(table.name) }) {
                actions.append(TableAction(table: table.name, sourceTable: table.name, kind: .drop, reasons: ["no longer in the model"]))
            }
        }
        let (mandatory, mandatoryChecks, defaults) = mandatoryWork()
        backfills += droppedLinkCleanup() + mandatory
        checks += mandatoryChecks + mappedMandatoryChecks()
        dataChecks = checks.compactMap { if case .check(let c) = $0 { c } else { nil } }
        nullDefaults = defaults
        let rebuilds = plans.contains { $0.kind == .rebuild } || !drops.isEmpty
        var ops: [MigrationOperation] = []
        if rebuilds { ops.append(.saveUserObjects) }
        ops += preChecks.map(MigrationOperation.check)
        ops += dropIndexes + newIDFill() + copies + newIDCollect() + drops + alters + renames + backfills + checks + indexes
        if rebuilds { ops += [.restoreUserObjects, .foreignKeyCheck] }
        operations = ops
        actions.sort { ($0.table, $0.kind.rawValue) < ($1.table, $1.kind.rawValue) }
    }

    /// Whether the source table already had this uniqueness (then its data is known to be unique).
    private func hadUnique(_ index: IndexSpec, plan: Plan) -> Bool {
        guard let sourceTable = plan.sourceTable, let spec = src.table(sourceTable) else { return plan.kind == .create }
        return spec.indexes.contains { $0.isUnique && $0.columns.map { plan.carried[$0] ?? "?" } == index.columns }
    }

    /// The expression naming each row's own entity: `t."_entity"` in a hierarchy table, else the entity name.
    private func entityExpression(_ table: TableSpec, alias: String) -> SQLText {
        table.column("_entity") != nil ? "\(ColumnName("_entity", qualifier: alias))" : .bind(.text(table.rootEntity ?? table.name))
    }

    private func duplicateCheck(_ index: IndexSpec, table: TableSpec) -> MigrationCheck {
        let name = TableName(table.name), pk = ColumnName("_pk", qualifier: "t")
        let columns = index.columns.map { ColumnName($0) }, qualified = columns.map { $0.qualified(by: "t") }
        let notNull = columns.map { "\($0) IS NOT NULL" as SQLText }.joined(separator: " AND ")
        let statement: SQLText = "SELECT \(pk), " + entityExpression(table, alias: "t") + ", \(qualified) FROM \(name) AS t"
            + " WHERE (\(qualified)) IN (SELECT \(columns) FROM \(name)"
            + " WHERE " + notNull + " GROUP BY \(columns) HAVING count(*) > 1)"
            + " ORDER BY \(qualified), \(pk)"
        var columnToProperty: [String: String] = [:]
        var owner = table.rootEntity ?? table.name
        for e in (corr.destinationKinds[owner] ?? []).compactMap({ destination.entity($0) }) {
            let storage = dst.storage(of: e.name)!
            for (p, c) in storage.attributeColumns { columnToProperty[c] = p }
            for (p, r) in storage.relationships where r.kind == .foreignKey { columnToProperty[r.column] = p }
            if e.uniqueness.contains(where: { list in list.map { storage.attributeColumns[$0] ?? storage.relationships[$0]?.column ?? "" } == index.columns }) {
                owner = e.name
            }
        }
        return MigrationCheck(kind: .duplicates, entity: owner, properties: index.columns.map { columnToProperty[$0] ?? $0 },
                              statement: statement, code: 1551)
    }

    /// optional → non-optional and new non-optional attributes: NULLs get the default, or must not exist.
    private func mandatoryWork() -> ([MigrationOperation], [MigrationOperation], [NullDefault]) {
        var updates: [MigrationOperation] = []
        var checks: [MigrationOperation] = []
        var defaults: [NullDefault] = []
        for p in plans where p.spec.kind == .entity && (p.sourceTable != nil || !p.parts.isEmpty) {
            let table = p.spec
            let name = TableName(table.name), pk = ColumnName("_pk", qualifier: "t")
            let members = (corr.destinationKinds[table.rootEntity!] ?? []).compactMap { destination.entity($0) }
            let allKinds = Set(members.map(\.name))
            /// ` AND alias."_entity" IN (…)` when the rows of `kinds` are not the whole table.
            func filter(_ kinds: [String], alias: String?) -> SQLText {
                guard table.column("_entity") != nil, Set(kinds) != allKinds else { return "" }
                return " AND \(ColumnName("_entity", qualifier: alias)) IN (" + boundList(kinds.map(Value.text)) + ")"
            }
            /// The objects of `kinds`, as a check's rows `(_pk, entity)`, where `condition` holds.
            func objects(_ kinds: [String], where condition: SQLText) -> SQLText {
                "SELECT \(pk), " + entityExpression(table, alias: "t") + " FROM \(name) AS t WHERE " + condition
                    + filter(kinds, alias: "t") + " ORDER BY \(pk)"
            }
            for e in members {
                for a in e.attributes where !a.isOptional {
                    guard let column = dst.storage(of: e.name)?.attributeColumns[a.name] else { continue }
                    var nullable: [String] = []
                    var missing: [String] = []
                    for k in (corr.destinationKinds[e.name] ?? []) {
                        for sk in corr.sources(of: k) where !isMapped(a.name, kind: k, from: sk) {
                            if let m = corr.sourceAttribute(a, kind: k, from: sk) {
                                if m.attribute.isOptional, !nullable.contains(k) { nullable.append(k) }
                            } else if a.defaultValue == nil, !missing.contains(k) { missing.append(k) }
                        }
                    }
                    if !nullable.isEmpty {
                        if let d = a.defaultValue {
                            updates.append(.execute("UPDATE \(name) SET \(ColumnName(column)) = \(d) WHERE \(ColumnName(column)) IS NULL"
                                + filter(nullable, alias: nil)))
                            let whole = table.column("_entity") == nil || Set(nullable) == allKinds
                            defaults.append(NullDefault(table: table.name, column: column, value: d, kinds: whole ? nil : nullable))
                        } else {
                            checks.append(.check(MigrationCheck(
                                kind: .nullInMandatoryAttribute, entity: e.name, properties: [a.name],
                                statement: objects(nullable, where: "\(ColumnName(column, qualifier: "t")) IS NULL"), code: 1570)))
                        }
                    }
                    if !missing.isEmpty {
                        checks.append(.check(MigrationCheck(
                            kind: .rowsForNewMandatoryAttribute, entity: e.name, properties: [a.name],
                            statement: objects(missing, where: "1"), code: 1570)))
                    }
                }
                // A new non-optional to-one (SPEC §4: like a new non-optional attribute without a default) links
                // no existing object: only possible when there is none.
                for r in e.relationships where !r.isOptional && !r.isToMany {
                    guard dst.storage(of: e.name)?.relationships[r.name]?.kind == .foreignKey else { continue }
                    let missing = (corr.destinationKinds[e.name] ?? []).filter {
                        corr.sourceEntity[$0] != nil && corr.sourceRelationship(r, kind: $0) == nil && companionLink(r, kind: $0) == nil
                    }
                    guard !missing.isEmpty else { continue }
                    checks.append(.check(MigrationCheck(
                        kind: .rowsForNewMandatoryRelationship, entity: e.name, properties: [r.name],
                        statement: objects(missing, where: "1"), code: 1570)))
                }
                if e.isAbstract, let se = corr.sourceEntity[e.name], source.entity(se)?.isAbstract == false, table.column("_entity") != nil {
                    let entity = ColumnName("_entity", qualifier: "t")
                    checks.append(.check(MigrationCheck(
                        kind: .rowsOfAbstractEntity, entity: e.name, properties: [],
                        statement: "SELECT \(pk), \(entity) FROM \(name) AS t WHERE \(entity) = \(e.name) ORDER BY \(pk)", code: 1550)))
                }
            }
        }
        return (updates, checks, defaults)
    }
}
