/// Join tables whose links come from several source relationships (SPEC §11.3 "merges"): `Album.items` → `Media`
/// continues `Album.items` → `Photo` and, through `Media.albums`, `Album.vitems` → `Video` (`Video.albums`' other
/// side). Every set of links is copied, re-linked to objects with new IDs, by one `INSERT … SELECT … UNION ALL`.
extension TablePlanner {
    typealias LinkSource = (storage: RelationshipStorage, sourceOwner: String, swapped: Bool)

    /// Every source relationship whose links destination relationship `r` of `owner` continues, each set of links
    /// once: the one of every source entity of `owner` and its sub-entities (a merge has several), and, seen from
    /// the other side, its inverse's of every source entity of the inverse's owner.
    func allSourceLinks(_ r: Relationship, owner: String) -> [LinkSource] {
        var found: [LinkSource] = []
        var seen: Set<[String]> = []
        func add(_ side: Relationship, of entity: String, swapped: Bool) {
            for k in corr.destinationKinds[entity] ?? [entity] {
                for sk in corr.sources(of: k) {
                    guard let m = corr.sourceRelationship(side, kind: k, from: sk), let storage = src.storage(of: sk)?.relationships[m.name],
                          src.column(of: storage) != nil else { continue }
                    let l = links(storage, owner: sk, swapped: swapped)
                    if seen.insert([l.table, l.own, l.other]).inserted { found.append((storage, sk, swapped)) }
                }
            }
        }
        add(r, of: owner, swapped: false)
        if let inverse = destination.effectiveInverse(of: r, in: owner), !destination.isOwnInverse(r, in: owner) {
            add(inverse.relationship, of: inverse.owner, swapped: true)
        }
        return found
    }

    /// The plan of join table `table` filled from several sets of links, in `sources` order: each link whose
    /// objects are carried, once; each order column numbers its end's links source by source, in the source's
    /// order (else by the other end's old `_pk`).
    func mergedLinks(_ table: TableSpec, owner: Side, ownEnd: String, from sources: [LinkSource]) -> Plan {
        let p = ColumnName("p"), s = ColumnName("s"), t = ColumnName("t"), so = ColumnName("s_order"), to = ColumnName("t_order")
        var relinks = false
        let selects: [SQLText] = sources.enumerated().map { i, found in
            let l = links(found.storage, owner: found.sourceOwner, swapped: found.swapped)
            let ownerTable = src.storage(of: found.sourceOwner)?.table ?? "", destinationTable = src.storage(of: found.storage.destination)?.table ?? ""
            let (ownTable, otherTable) = found.swapped ? (destinationTable, ownerTable) : (ownerTable, destinationTable)
            let own = ColumnName(l.own, qualifier: "l"), other = ColumnName(l.other, qualifier: "l")
            let ownLink = relinked(.expression("\(own)"), from: ownTable, to: owner.entity)
            let otherLink = relinked(.expression("\(other)"), from: otherTable, to: owner.relationship.destination)
            if ownLink != .expression("\(own)") || otherLink != .expression("\(other)") { relinks = true }
            // The source's order of each end's links: the storage side's, and in a join table the other side's.
            var orders: [String: String] = [:]
            if found.storage.kind != .foreignKey, let order = found.storage.orderColumn { orders[found.storage.column] = order }
            if found.storage.kind == .joinTable, let column = found.storage.otherColumn, src.table(l.table)?.column(column + "_order") != nil {
                orders[column] = column + "_order"
            }
            let ownOrder = orders[l.own].map { ColumnName($0, qualifier: "l") } ?? other
            let otherOrder = orders[l.other].map { ColumnName($0, qualifier: "l") } ?? own
            return "SELECT CAST(\(i) AS INTEGER) AS \(p), " + ownLink.selectSQL + " AS \(s), " + otherLink.selectSQL + " AS \(t), "
                + "\(ownOrder) AS \(so), \(otherOrder) AS \(to) FROM \(TableName(l.table)) AS l WHERE \(own) IS NOT NULL AND \(other) IS NOT NULL"
        }
        let columns = table.columns.map { c -> SQLText in
            switch c.name {
            case ownEnd: return "\(s)"
            case ownEnd + "_order": return "row_number() OVER (PARTITION BY \(s) ORDER BY \(p), \(so), \(t))"
            case let name where name.hasSuffix("_order"): return "row_number() OVER (PARTITION BY \(t) ORDER BY \(p), \(to), \(s))"
            default: return "\(t)"
            }
        }
        // A link held by several sources (one pair of objects) is copied once, in its first source's place.
        let fill: SQLText = "SELECT " + columns.joined(separator: ", ") + " FROM (SELECT min(\(p)) AS \(p), \(s), \(t), min(\(so)) AS \(so), "
            + "min(\(to)) AS \(to) FROM (" + selects.joined(separator: " UNION ALL ") + ") AS \(TableName("strata_all"))"
            + " WHERE \(s) IS NOT NULL AND \(t) IS NOT NULL GROUP BY \(s), \(t)) AS \(TableName("strata_links"))"
        var from: [String] = []
        for found in sources where !from.contains(found.storage.table) { from.append(found.storage.table) }
        var plan = Plan(spec: table, sourceTable: nil, filter: nil, columns: [], linkFill: fill, kind: .create,
                        reasons: ["links of \(owner.entity).\(owner.relationship.name) merge here from \(from.joined(separator: ", "))"
                                  + (relinks ? ", re-linked to new IDs" : "")])
        plan.fillSources = from
        return plan
    }

    /// Before the step: the links in join tables that re-linking drops because no part of the table an end points
    /// at carries the row (its filter left it out), counted on the source join tables (SPEC §11.3 "Uncarried rows").
    func newIDJoinLinkProbes() -> [DroppedLinkProbe] {
        guard let mapping else { return [] }
        let old = ColumnSource.oldAlias, pk = ColumnName("_pk", qualifier: ColumnSource.oldAlias)
        var probes: [DroppedLinkProbe] = []
        for table in dst.tables where table.kind != .entity {
            let (owner, _, ownEnd) = joinSides(table)
            guard let owner else { continue }
            for found in allSourceLinks(owner.relationship, owner: owner.entity) {
                let l = links(found.storage, owner: found.sourceOwner, swapped: found.swapped)
                let ownerTable = src.storage(of: found.sourceOwner)?.table ?? "", destinationTable = src.storage(of: found.storage.destination)?.table ?? ""
                let (ownTable, otherTable) = found.swapped ? (destinationTable, ownerTable) : (ownerTable, destinationTable)
                let ends = [(ownEnd, l.own, owner.entity, ownTable),
                            (ownEnd == "source" ? "target" : "source", l.other, owner.relationship.destination, otherTable)]
                for (column, sourceColumn, entity, linked) in ends {
                    guard let target = plans.first(where: { $0.newIDs && $0.spec.name == dst.storage(of: entity)?.table }),
                          target.parts.contains(where: { $0.rowFilter != nil }) else { continue }
                    let kinds = (corr.destinationKinds[target.spec.rootEntity ?? ""] ?? [])
                        .filter { mapping.entities[$0]?.sources.contains { $0.filter != nil } == true }
                    let parts = target.parts.filter { $0.sourceTable == linked && isKind($0.kind, of: entity) }
                    guard !kinds.isEmpty, !parts.isEmpty, parts.allSatisfy({ condition(of: $0) != nil }) else { continue }
                    let carried: SQLText = "SELECT \(pk) FROM \(TableName(linked)) AS \(keyword: old) WHERE "
                        + parts.map { "(" + condition(of: $0)! + ")" }.joined(separator: " OR ")
                    let c = ColumnName(sourceColumn, qualifier: old)
                    probes.append(DroppedLinkProbe(entity: kinds.first { isKind($0, of: entity) } ?? kinds[0], table: table.name, column: column,
                                                   count: "SELECT count(*) FROM \(TableName(l.table)) AS \(keyword: old) WHERE \(c) IS NOT NULL AND \(c) NOT IN (" + carried + ")"))
                }
            }
        }
        return probes
    }
}
