/// Turns a model correspondence and the two layouts into per-table actions and the ordered SQL of a
/// version step. Pure.
///
/// Each destination table is derived from at most one source table: rows are copied (or kept in
/// place) with one `ColumnSource` per column. A table whose change is only new columns (with constant
/// values), renames, or `_entity` renames is altered in place; anything else is rebuilt with SQLite's
/// 12-step procedure. Only the tables that change are touched.
struct TablePlanner: Sendable {
    struct Plan: Sendable {
        var spec: TableSpec
        var sourceTable: String?
        /// Source entity names whose rows are copied; nil = every row.
        var filter: [String]?
        var columns: [(spec: ColumnSpec, source: ColumnSource)]
        /// For a new join table filled from links held elsewhere: `SELECT own, other FROM …`.
        var linkFill: SQLText?
        /// The source tables `linkFill` reads when they are join tables merged into this one (not "no longer in the model").
        var fillSources: [String] = []
        var kind: TableAction.Kind = .rebuild
        var reasons: [String] = []
        /// Source column → destination column, for columns carried unchanged.
        var carried: [String: String] = [:]
        /// A mapping file's `filter:` (over the source row): the rows it leaves out are dropped.
        var rowFilter: SQLText?
        /// A table filled from several sources (a merge, several mappings of one source, hierarchies
        /// joined): one `INSERT … SELECT` per part; empty for a table with one source table.
        var parts: [Part] = []
        /// Its rows get new `_pk`s through the translation table (SPEC §11.3 "IDs").
        var newIDs = false

        /// Whether the plan leaves source rows out (a mapping `filter:`).
        var dropsRows: Bool { rowFilter != nil || parts.contains { $0.rowFilter != nil } }
    }

    /// The rows of one source entity that become rows of one destination kind.
    struct Part: Sendable {
        var kind: String
        var source: String
        var sourceTable: String
        var columns: [(spec: ColumnSpec, source: ColumnSource)]
        /// Which source rows: the source entity's (in a hierarchy table) and the mapping's `filter:`.
        var condition: SQLText?
        var rowFilter: SQLText?
    }

    var refusals: [MappingRefusal] = []
    var actions: [TableAction] = []
    /// Links to rows a mapping's filter drops, counted before the step.
    var droppedLinks: [DroppedLinkProbe] = []
    var operations: [MigrationOperation] = []

    let corr: ModelCorrespondence
    /// The step's mapping file, compiled (SPEC §11.3).
    let mapping: CompiledMapping?
    let src: StoreLayout
    let dst: StoreLayout
    var source: Model { corr.source }
    var destination: Model { corr.destination }
    var plans: [Plan] = []
    var preChecks: [MigrationCheck] = []
    /// The checks after the change (duplicates, mandatory, mapped values), as `emit()` orders them.
    var dataChecks: [MigrationCheck] = []
    /// NULLs of attributes becoming non-optional set to their default.
    var nullDefaults: [NullDefault] = []
    /// Tables identical in both versions, with the same entities and optional flags: not planned at all.
    var unchanged: Set<String> = []
    /// Destination tables whose rows get new `_pk`s (SPEC §11.3 "IDs").
    var newIDTables: Set<String> = []

    /// The fast path that keeps long histories cheap: a step plans only the tables that change.
    func isUnchanged(_ table: TableSpec) -> Bool {
        guard let old = src.table(table.name), old == table, !newIDTables.contains(table.name), !linksToNewIDs(table) else { return false }
        if let mapping, table.kind == .entity, let root = table.rootEntity,
           (corr.destinationKinds[root] ?? []).contains(where: { mapping.entities[$0] != nil || isCompanionTarget($0) }) { return false }
        guard table.kind == .entity, let root = table.rootEntity else {
            // A join table: unchanged when both sides are unchanged entities (their names are in its spec) and its
            // links come from this one table (not also from another relationship merged into it).
            guard let owner = joinSides(table).owner else { return true }
            return allSourceLinks(owner.relationship, owner: owner.entity).allSatisfy { $0.storage.table == table.name }
        }
        let members = (corr.destinationKinds[root] ?? []).compactMap { destination.entity($0) }
        let sourceMembers = src.entityNames(inTable: table.name)
        guard Set(members.map(\.name)) == Set(sourceMembers) else { return false }
        for e in members {
            guard corr.sourceEntity[e.name] == e.name, let s = source.entity(e.name), s.isAbstract == e.isAbstract,
                  src.storage(of: e.name) == dst.storage(of: e.name) else { return false }
            let a = source.allAttributes(of: e.name), b = destination.allAttributes(of: e.name)
            guard a.count == b.count, zip(a, b).allSatisfy({
                $0.attribute.name == $1.attribute.name && $0.attribute.isOptional == $1.attribute.isOptional
            }) else { return false }
        }
        return true
    }

    /// Table → order columns of ordered to-many relationships stored there (column, owning entity, relationship).
    var orderColumns: [String: [(String, String, Relationship)]] = [:]
    /// Join table → the relationship holding its `source` column, and the one holding `target` (its inverse).
    var joinSources: [String: (entity: String, relationship: Relationship)] = [:]
    var joinTargets: [String: (entity: String, relationship: Relationship)] = [:]

    init(_ corr: ModelCorrespondence, source: StoreLayout, destination: StoreLayout, mapping: CompiledMapping? = nil) {
        self.corr = corr
        self.mapping = mapping
        self.src = source
        self.dst = destination
        for e in corr.destination.entities {
            guard let storage = destination.storage(of: e.name) else { continue }
            for r in e.relationships {
                if let s = storage.relationships[r.name], s.kind == .inverseForeignKey, let order = s.orderColumn {
                    orderColumns[s.table, default: []].append((order, e.name, r))
                }
                if let s = storage.relationships[r.name], s.kind == .joinTable {
                    if s.column == "source" { joinSources[s.table] = (e.name, r) } else { joinTargets[s.table] = (e.name, r) }
                }
            }
        }
        newIDTables = findNewIDTables()
        for table in destination.tables {
            if isUnchanged(table) { unchanged.insert(table.name); continue }
            if let plan = table.kind == .entity ? planEntityTable(table) : planJoinTable(table) { plans.append(plan) }
        }
        guard refusals.isEmpty else { return }
        classify()
        emit()
        droppedLinks = droppedLinkProbes() + newIDLinkProbes() + newIDJoinLinkProbes()
    }

    mutating func refuse(_ entity: String, _ change: String, hint: String) {
        refusals.append(MappingRefusal(fromVersion: source.version, toVersion: destination.version, entity: entity,
                                       change: change, hint: hint, location: destination.entity(entity)?.location))
    }

    // MARK: entity tables

    mutating func planEntityTable(_ table: TableSpec) -> Plan? {
        let root = table.rootEntity!
        let members = (corr.destinationKinds[root] ?? [])
        if newIDTables.contains(table.name) || members.contains(where: { corr.mergedSources[$0] != nil }) {
            return planParts(table, members: members)
        }
        let mapped = members.filter { corr.sourceEntity[$0] != nil }
        let sourceTables = Set(mapped.compactMap { src.storage(of: corr.sourceEntity[$0]!)?.table })
        if sourceTables.count > 1 {
            let from = mapped.map { "\($0) (table \(src.storage(of: corr.sourceEntity[$0]!)!.table))" }.joined(separator: ", ")
            refuse(root, "merges root hierarchies into one table: \(from)",
                   hint: "keep them in separate hierarchies, or add the new hierarchy empty and move the objects in a hook")
            return nil
        }
        guard let sourceTable = sourceTables.first else {
            return Plan(spec: table, sourceTable: nil, filter: nil, columns: [], kind: .create, reasons: ["new table"])
        }
        let sourceKinds = mapped.map { corr.sourceEntity[$0]! }
        let allKinds = src.entityNames(inTable: sourceTable)
        let filter: [String]? = Set(sourceKinds) == Set(allKinds) ? nil : sourceKinds.sorted()
        let sourceSpec = src.table(sourceTable)!
        let owners = columnOwners(of: table, members: members)
        let rowFilter = mappingFilter(members: mapped, sourceTable: sourceTable)

        var columns: [(ColumnSpec, ColumnSource)] = []
        for column in table.columns {
            let source: ColumnSource
            switch column.name {
            case "_pk": source = .column("_pk")
            case "_entity":
                if sourceSpec.column("_entity") != nil {
                    source = .entityName(renames: Dictionary(uniqueKeysWithValues: mapped.map { (corr.sourceEntity[$0]!, $0) }), single: nil)
                } else {
                    source = .entityName(renames: [:], single: mapped.first!)
                }
            default:
                switch owners[column.name] {
                case .attribute(let owner, let a)?:
                    source = attributeSource(a, owner: owner, sourceTable: sourceTable, copied: Set(sourceKinds))
                case .relationship(let owner, let r)?:
                    source = relationshipSource(r, owner: owner, sourceTable: sourceTable, copied: Set(sourceKinds))
                case .order(let owner, let r)?:
                    source = orderSource(r, owner: owner, sourceTable: sourceTable)
                case nil: source = .constant(.null)
                }
            }
            columns.append((column, source))
        }
        var plan = Plan(spec: table, sourceTable: sourceTable, filter: filter, columns: columns)
        plan.rowFilter = rowFilter
        return plan
    }

    enum ColumnOwner {
        case attribute(String, Attribute)
        case relationship(String, Relationship)
        case order(String, Relationship)
    }

    func columnOwners(of table: TableSpec, members: [String]) -> [String: ColumnOwner] {
        var owners: [String: ColumnOwner] = [:]
        for m in members {
            guard let e = destination.entity(m), let storage = dst.storage(of: m) else { continue }
            for a in e.attributes { if let c = storage.attributeColumns[a.name] { owners[c] = .attribute(m, a) } }
            for r in e.relationships {
                if let s = storage.relationships[r.name], s.kind == .foreignKey, s.table == table.name { owners[s.column] = .relationship(m, r) }
            }
        }
        for (order, owner, r) in orderColumns[table.name] ?? [] { owners[order] = .order(owner, r) }
        return owners
    }

    /// Source columns (of any kind stored in the source table) holding `column`.
    func sourceKindsHaving(_ column: String, in table: String) -> Set<String> {
        Set(src.entityNames(inTable: table).filter { name in
            guard let s = src.entities[name] else { return false }
            return s.attributeColumns.values.contains(column)
                || s.relationships.values.contains { $0.kind == .foreignKey && $0.table == table && $0.column == column }
        })
    }

    func merge(_ branches: [(destinationKind: String, sourceKind: String, source: ColumnSource)],
                       sourceTable: String, copied: Set<String>) -> ColumnSource {
        guard let first = branches.first?.source else { return .constant(.null) }
        // One source column, NULL for the other kinds that never had it: the column as it is.
        let nonNull = Set(branches.map(\.source).filter { $0 != .constant(.null) })
        if nonNull.count == 1, let only = nonNull.first {
            switch only {
            case .column(let c), .cast(let c, _):
                let nullKinds = copied.subtracting(branches.filter { $0.source == only }.map(\.sourceKind))
                if sourceKindsHaving(c, in: sourceTable).isDisjoint(with: nullKinds) { return only }
            default: break
            }
        }
        if branches.allSatisfy({ $0.source == first }) {
            let others = copied.subtracting(branches.map(\.sourceKind))
            if others.isEmpty || first == .constant(.null) { return first }
            switch first {
            case .column(let c), .cast(let c, _):
                if sourceKindsHaving(c, in: sourceTable).isDisjoint(with: others) { return first }
            default: break
            }
        }
        var groups: [(source: ColumnSource, kinds: [(String, String)])] = []
        for b in branches where b.source != .constant(.null) {
            if let i = groups.firstIndex(where: { $0.source == b.source }) { groups[i].kinds.append((b.sourceKind, b.destinationKind)) }
            else { groups.append((b.source, [(b.sourceKind, b.destinationKind)])) }
        }
        if groups.isEmpty { return .constant(.null) }
        return .byKind(groups.map { KindBranch(sourceKinds: $0.kinds.map(\.0), destinationKinds: $0.kinds.map(\.1), value: $0.source) })
    }

    func attributeSource(_ a: Attribute, owner: String, sourceTable: String, copied: Set<String>) -> ColumnSource {
        var branches: [(String, String, ColumnSource)] = []
        for k in (corr.destinationKinds[owner] ?? []) {
            guard let sk = corr.sourceEntity[k] else { continue }
            branches.append((k, sk, attributeBranch(a, kind: k, from: sk)))
        }
        return merge(branches.map { ($0.0, $0.1, $0.2) }, sourceTable: sourceTable, copied: copied)
    }

    /// An attribute's value for the rows of destination kind `kind` carried from source entity `sk`: the
    /// mapping file's expression, the source attribute it continues, or its default.
    func attributeBranch(_ a: Attribute, kind k: String, from sk: String) -> ColumnSource {
        if let value = mapping?.value(a.name, kind: k, source: sk) { return .expression(value) }
        if let m = corr.sourceAttribute(a, kind: k, from: sk), let c = src.storage(of: sk)?.attributeColumns[m.name] {
            return m.attribute.type.sqlType == a.type.sqlType ? .column(c) : .cast(c, a.type.sqlType)
        }
        return .constant(a.defaultValue ?? .null)
    }

    /// The order column of an ordered to-many stored in this table: the source's, or the rows' `_pk` order.
    func orderSource(_ r: Relationship, owner: String, sourceTable: String) -> ColumnSource {
        let m = corr.sourceRelationship(r, kind: owner)
        let storage = m.flatMap { src.storage(of: corr.sourceEntity[owner]!)?.relationships[$0.name] }
        if let storage, storage.kind == .inverseForeignKey, storage.table == sourceTable, let order = storage.orderColumn {
            return .column(order)
        }
        return .expression(ColumnSource.old("_pk"))
    }

    /// The link pairs of a source relationship, as `(table, own column, other column)`.
    func links(_ storage: RelationshipStorage, owner sourceOwner: String, swapped: Bool) -> (table: String, own: String, other: String) {
        let t: (String, String, String)
        switch storage.kind {
        case .foreignKey: t = (storage.table, "_pk", storage.column)
        case .inverseForeignKey: t = (storage.table, storage.column, "_pk")
        case .joinTable: t = (storage.table, storage.column, storage.otherColumn!)
        }
        return swapped ? (t.0, t.2, t.1) : t
    }

    /// Where a destination relationship's links are held in the source: its own source relationship,
    /// or (when it is new) its inverse's, seen from the other side. None when the source has no column for
    /// them: layouts written before a to-one that is its own inverse (`spouse` ↔ `spouse`) kept its key put
    /// the key "on the other side", itself, and gave it no column, so no such link was ever stored.
    func sourceLinks(_ r: Relationship, owner: String, kind: String, from: String? = nil) -> (storage: RelationshipStorage, sourceOwner: String, swapped: Bool)? {
        if let m = corr.sourceRelationship(r, kind: kind, from: from), let sk = from ?? corr.sourceEntity[kind],
           let storage = src.storage(of: sk)?.relationships[m.name] {
            return src.column(of: storage) != nil ? (storage, sk, false) : nil
        }
        if let inverse = destination.effectiveInverse(of: r, in: owner), let sk = corr.sourceEntity[inverse.owner],
           let m = corr.sourceRelationship(inverse.relationship, kind: inverse.owner),
           let storage = src.storage(of: sk)?.relationships[m.name] {
            return src.column(of: storage) != nil ? (storage, sk, true) : nil
        }
        return nil
    }

    mutating func relationshipSource(_ r: Relationship, owner: String, sourceTable: String, copied: Set<String>) -> ColumnSource {
        var branches: [(String, String, ColumnSource)] = []
        for k in (corr.destinationKinds[owner] ?? []) {
            guard let sk = corr.sourceEntity[k] else { continue }
            branches.append((k, sk, relationshipBranch(r, owner: owner, kind: k, from: sk, sourceTable: sourceTable)))
        }
        return merge(branches.map { ($0.0, $0.1, $0.2) }, sourceTable: sourceTable, copied: copied)
    }

    /// A to-one's link for the rows of destination kind `kind` carried from source entity `sk` (in
    /// `sourceTable`): the `$source` companion, the source's foreign key, or the link held elsewhere; re-linked
    /// when its destination's rows get new IDs.
    mutating func relationshipBranch(_ r: Relationship, owner: String, kind k: String, from sk: String, sourceTable: String) -> ColumnSource {
        if let link = companionLink(r, kind: k, from: sk) { return relinked(link, from: sourceTable, to: r.destination) }
        guard let found = sourceLinks(r, owner: owner, kind: k, from: sk) else { return .constant(.null) }
        // The table whose `_pk`s the old links hold.
        let linkedTable = src.storage(of: found.swapped ? found.sourceOwner : found.storage.destination)?.table ?? sourceTable
        if !found.swapped, found.storage.kind == .foreignKey, found.storage.table == sourceTable {
            return relinked(.column(found.storage.column), from: linkedTable, to: r.destination)
        }
        let l = links(found.storage, owner: found.sourceOwner, swapped: found.swapped)
        let own = ColumnName(l.own, qualifier: "l"), other = ColumnName(l.other, qualifier: "l")
        let sql: SQLText = "(SELECT \(other) FROM \(TableName(l.table)) AS l WHERE \(own) = " + ColumnSource.old("_pk")
            + " AND \(other) IS NOT NULL ORDER BY \(other) LIMIT 1)"
        // An object with more than one of these links (a many-to-many's, a to-one without inverse that gets a
        // to-one inverse, one-to-one data written by SQL from outside) stops the step: `LIMIT 1` would drop the others.
        var check: SQLText = "SELECT \(own), \(k) FROM \(TableName(l.table)) AS l"
        if found.storage.kind != .joinTable { check += " WHERE \(own) IS NOT NULL" }   // a key column may be NULL
        check += " GROUP BY \(own) HAVING count(*) > 1 ORDER BY 1"
        let c = MigrationCheck(kind: .multipleLinks, entity: k, properties: [r.name], statement: check, code: 1590)
        if !preChecks.contains(c) { preChecks.append(c) }
        return relinked(.expression(sql), from: linkedTable, to: r.destination)
    }
}
