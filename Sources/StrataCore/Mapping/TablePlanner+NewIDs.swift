/// Tables filled from several sources, and the rows that get new IDs (SPEC §11.3 "IDs").
///
/// A destination table keeps its rows' `_pk`s when all of them come from one source table, each source
/// entity through at most one entity mapping. Otherwise (a merge of entities from several tables, two
/// mappings of one source into one table, hierarchies joined by a mapping file) every row gets a new `_pk`
/// above the highest one the tables involved ever used, recorded old → new in the temporary translation
/// table `strata_remap`; every link to those rows is re-linked through it, set-based, and the step lists
/// the translation for the change set (`remapped`).
extension TablePlanner {
    static let remapTable = "strata_remap"

    /// The destination entity tables whose rows get new `_pk`s.
    func findNewIDTables() -> Set<String> {
        guard let mapping else { return [] }
        var result: Set<String> = []
        for table in dst.tables where table.kind == .entity {
            guard let root = table.rootEntity else { continue }
            let members = corr.destinationKinds[root] ?? []
            guard members.contains(where: { mapping.entities[$0] != nil }) else { continue }
            var tables: Set<String> = []
            var seen: Set<String> = []
            var repeated = false
            for k in members {
                for s in corr.sources(of: k) {
                    if let t = src.storage(of: s)?.table { tables.insert(t) }
                    if !seen.insert(s).inserted { repeated = true }
                }
            }
            if tables.count > 1 || repeated { result.insert(table.name) }
        }
        return result
    }

    /// Whether `table` holds links to rows that get new IDs (then it is rebuilt with them re-linked).
    func linksToNewIDs(_ table: TableSpec) -> Bool {
        guard !newIDTables.isEmpty else { return false }
        for storage in dst.entities.values {
            for r in storage.relationships.values where r.table == table.name {
                let target = dst.storage(of: r.destination)?.table ?? ""
                switch r.kind {
                case .foreignKey: if newIDTables.contains(target) { return true }
                case .inverseForeignKey: if newIDTables.contains(storage.table) { return true }
                case .joinTable: if newIDTables.contains(target) || newIDTables.contains(storage.table) { return true }
                }
            }
        }
        return false
    }

    func isKind(_ kind: String, of entity: String) -> Bool { (corr.destinationKinds[entity] ?? []).contains(kind) }

    /// `value`, an old `_pk` of `oldTable`, as the new `_pk` of the object carried from that row into
    /// `entity` (or one of its sub-entities), when `entity`'s rows get new IDs; NULL when no row carries it.
    func relinked(_ value: ColumnSource, from oldTable: String, to entity: String) -> ColumnSource {
        guard let table = dst.storage(of: entity)?.table, newIDTables.contains(table), value != .constant(.null) else { return value }
        return .expression(Self.newID(of: value.selectSQL, in: oldTable, kinds: corr.destinationKinds[entity] ?? [entity]))
    }

    /// `(SELECT new FROM strata_remap WHERE source = oldTable AND old = value AND kind IN (kinds))`.
    static func newID(of old: SQLText, in oldTable: String, kinds: [String]) -> SQLText {
        let r = "strata_r"
        return "(SELECT \(ColumnName("new", qualifier: r)) FROM \(TableName(remapTable)) AS \(keyword: r) WHERE \(ColumnName("source", qualifier: r)) = \(oldTable)"
            + " AND \(ColumnName("old", qualifier: r)) = " + old + " AND \(ColumnName("kind", qualifier: r)) IN (" + boundList(kinds.map(Value.text))
            + ") ORDER BY 1 LIMIT 1)"
    }

    /// A table filled from several sources: one part per (destination kind, source entity), each copied by
    /// its own `INSERT … SELECT`.
    mutating func planParts(_ table: TableSpec, members: [String]) -> Plan {
        let owners = columnOwners(of: table, members: members)
        let newIDs = newIDTables.contains(table.name)
        var plan = Plan(spec: table, sourceTable: nil, filter: nil, columns: [])
        plan.newIDs = newIDs
        for k in members {
            for sk in corr.sources(of: k) {
                guard let storage = src.storage(of: sk), let sourceSpec = src.table(storage.table) else { continue }
                var columns: [(ColumnSpec, ColumnSource)] = []
                for column in table.columns {
                    let source: ColumnSource
                    switch column.name {
                    case "_pk": source = newIDs ? .expression(Self.newID(of: ColumnSource.old("_pk"), in: storage.table, kinds: [k])) : .column("_pk")
                    case "_entity": source = .constant(.text(k))
                    default:
                        switch owners[column.name] {
                        case .attribute(let owner, let a)? where isKind(k, of: owner):
                            source = attributeBranch(a, kind: k, from: sk)
                        case .relationship(let owner, let r)? where isKind(k, of: owner):
                            source = relationshipBranch(r, owner: owner, kind: k, from: sk, sourceTable: storage.table)
                        case .order(let owner, let r)?:
                            source = orderSource(r, owner: owner, sourceTable: storage.table)
                        default: source = .constant(.null)
                        }
                    }
                    columns.append((column, source))
                }
                let condition: SQLText? = sourceSpec.column("_entity") != nil ? "\(ColumnName("_entity", qualifier: ColumnSource.oldAlias)) = \(sk)" : nil
                plan.parts.append(Part(kind: k, source: sk, sourceTable: storage.table, columns: columns, condition: condition,
                                       rowFilter: mapping?.entities[k]?.part(sk)?.filter))
            }
        }
        let from = plan.parts.map { $0.source == $0.kind ? $0.source : "\($0.source) as \($0.kind)" }.joined(separator: ", ")
        plan.reasons = [newIDs ? "filled from \(from); its objects get new IDs" : "filled from \(from)"]
        return plan
    }

    /// `WHERE …` of a part: its source entity's rows that its filter carries.
    func condition(of part: Part) -> SQLText? {
        let all = [part.condition, part.rowFilter].compactMap { $0 }
        return all.isEmpty ? nil : all.joined(separator: " AND ")
    }

    /// The tables involved in `plan`: its source tables, the tables of source entities named like its kinds,
    /// and its own name, each once.
    func usedIDTables(_ plan: Plan) -> [String] {
        var tables = plan.parts.map(\.sourceTable)
        for k in corr.destinationKinds[plan.spec.rootEntity ?? ""] ?? [] { if let t = src.storage(of: k)?.table { tables.append(t) } }
        if src.table(plan.spec.name) != nil { tables.append(plan.spec.name) }
        var seen: Set<String> = []
        return tables.filter { seen.insert($0).inserted }
    }

    /// The highest `_pk` the tables involved in `plan` ever used: its source tables, the tables of source
    /// entities named like its kinds, and its own name (their rows and `sqlite_sequence`).
    func highestUsedID(_ plan: Plan) -> SQLText {
        let tables = usedIDTables(plan)
        let pk = ColumnName("_pk"), m = ColumnName("m"), sequence = TableName("sqlite_sequence")
        let maxima = tables.map { "SELECT max(\(pk)) AS \(m) FROM \(TableName($0))" as SQLText }
            + ["SELECT max(\(ColumnName("seq"))) FROM \(sequence) WHERE \(ColumnName("name")) IN (" + boundList(tables.map(Value.text)) + ")"]
        return "(SELECT coalesce(max(\(m)), 0) FROM (" + maxima.joined(separator: " UNION ALL ") + "))"
    }

    /// The translation table and its rows: for every table with new IDs, its carried rows numbered above
    /// the highest `_pk` used, in part order then old `_pk` order.
    func newIDFill() -> [MigrationOperation] {
        let remapped = plans.filter(\.newIDs)
        guard !remapped.isEmpty else { return [] }
        let remap = TableName(Self.remapTable)
        let columns = ["source", "old", "entity", "kind"].map { ColumnName($0) }
        var ops: [MigrationOperation] = [
            .execute("DROP TABLE IF EXISTS \(remap)"),
            .execute("""
                CREATE TEMP TABLE \(remap) ("source" TEXT NOT NULL, "old" INTEGER NOT NULL, "entity" TEXT NOT NULL, \
                "kind" TEXT NOT NULL, "new" INTEGER NOT NULL, PRIMARY KEY ("source", "old", "kind")) WITHOUT ROWID
                """),
        ]
        for plan in remapped {
            let selects: [SQLText] = plan.parts.enumerated().map { i, part in
                var select: SQLText = "SELECT \(i) AS \(ColumnName("part")), \(part.sourceTable) AS \(ColumnName("source")), "
                    + ColumnSource.old("_pk") + " AS \(ColumnName("old")), \(part.source) AS \(ColumnName("entity")), \(part.kind) AS \(ColumnName("kind"))"
                    + " FROM \(TableName(part.sourceTable)) AS \(TableName(ColumnSource.oldAlias))"
                if let condition = condition(of: part) { select += " WHERE " + condition }
                return select
            }
            ops.append(.copy("INSERT INTO \(remap) (\(columns), \(ColumnName("new"))) SELECT \(columns), " + highestUsedID(plan)
                + " + row_number() OVER (ORDER BY \(ColumnName("part")), \(ColumnName("old"))) FROM (" + selects.joined(separator: " UNION ALL ") + ")"))
        }
        return ops
    }

    /// After the copies: the translation, listed for the change set, then dropped.
    func newIDCollect() -> [MigrationOperation] {
        guard plans.contains(where: \.newIDs) else { return [] }
        let remap = TableName(Self.remapTable), kind = ColumnName("kind"), new = ColumnName("new")
        return [
            .remapped(list: "SELECT \(ColumnName("entity")), \(ColumnName("old")), \(kind), \(new) FROM \(remap) ORDER BY \(kind), \(new)",
                      counts: "SELECT \(kind), count(*) FROM \(remap) GROUP BY \(kind) ORDER BY \(kind)"),
            .execute("DROP TABLE \(remap)"),
        ]
    }

    /// The copies of a table filled from several sources, and its `sqlite_sequence` row.
    func partCopies(_ plan: Plan, into temp: TableName) -> [MigrationOperation] {
        var ops: [MigrationOperation] = plan.parts.map { part in
            var copy: SQLText = "INSERT INTO \(temp) (\(part.columns.map { ColumnName($0.spec.name) })) SELECT "
                + part.columns.map(\.source.selectSQL).joined(separator: ", ")
                + " FROM \(TableName(part.sourceTable)) AS \(TableName(ColumnSource.oldAlias))"
            if let condition = condition(of: part) { copy += " WHERE " + condition }
            return .copy(copy)
        }
        let sequence = TableName("sqlite_sequence"), name = ColumnName("name"), seq = ColumnName("seq")
        ops.append(.execute("DELETE FROM \(sequence) WHERE \(name) = \(temp.name)"))
        ops.append(.execute("INSERT INTO \(sequence) (\(name), \(seq)) SELECT \(temp.name), max(" + highestUsedID(plan)
            + ", coalesce((SELECT max(\(ColumnName("_pk"))) FROM \(temp)), 0))"))
        return ops
    }

    /// Before the step: the links that re-linking drops because no part of their destination table carries the
    /// row they pointed at (its filter left it out), counted on the source tables; links held in foreign keys.
    func newIDLinkProbes() -> [DroppedLinkProbe] {
        guard let mapping else { return [] }
        let old = ColumnSource.oldAlias, pk = ColumnName("_pk", qualifier: ColumnSource.oldAlias)
        var probes: [DroppedLinkProbe] = []
        for target in plans where target.newIDs && target.parts.contains(where: { $0.rowFilter != nil }) {
            let kinds = (corr.destinationKinds[target.spec.rootEntity ?? ""] ?? []).filter { mapping.entities[$0]?.sources.contains { $0.filter != nil } == true }
            guard !kinds.isEmpty else { continue }
            for e in destination.entities {
                guard let storage = dst.storage(of: e.name) else { continue }
                for r in e.relationships {
                    guard let link = storage.relationships[r.name], link.kind == .foreignKey, dst.storage(of: r.destination)?.table == target.spec.name,
                          let m = corr.sourceRelationship(r, kind: e.name), let sk = corr.sourceEntity[e.name],
                          let sourceLink = src.storage(of: sk)?.relationships[m.name], sourceLink.kind == .foreignKey,
                          let linked = src.storage(of: m.relationship.destination)?.table else { continue }
                    // The rows of the kinds the relationship points at: a link to a row only another kind carried is dropped too.
                    let parts = target.parts.filter { $0.sourceTable == linked && isKind($0.kind, of: r.destination) }
                    let entity = kinds.first { isKind($0, of: r.destination) } ?? kinds[0]
                    guard !parts.isEmpty, parts.allSatisfy({ condition(of: $0) != nil }) else { continue }
                    let carried: SQLText = "SELECT \(pk) FROM \(TableName(linked)) AS \(keyword: old) WHERE "
                        + parts.map { "(" + condition(of: $0)! + ")" }.joined(separator: " OR ")
                    let c = ColumnName(sourceLink.column, qualifier: old)
                    var text: SQLText = "SELECT count(*) FROM \(TableName(sourceLink.table)) AS \(keyword: old) WHERE "
                    if let own = plans.first(where: { $0.spec.name == storage.table })?.rowFilter { text += own + " AND " }
                    text += "\(c) IS NOT NULL AND \(c) NOT IN (" + carried + ")"
                    probes.append(DroppedLinkProbe(entity: entity, table: storage.table, column: link.column, count: text))
                }
            }
        }
        return probes
    }
}
