/// Join tables of a step: copied from the source's join table, or filled from links held elsewhere (a to-many
/// that becomes many-to-many); links to objects with new IDs re-linked.
extension TablePlanner {
    typealias Side = (entity: String, relationship: Relationship)

    /// The relationships stored in join table `table`: the side that owns the `source` column, the inverse side,
    /// and the owner's end of each link. A many-to-many that is its own inverse (`friends` ↔ `friends`) has one
    /// side, which holds `target`: it is the owner, its links in `target`.
    func joinSides(_ table: TableSpec) -> (owner: Side?, inverseSide: Side?, ownEnd: String) {
        let owner = joinSources[table.name], inverseSide = joinTargets[table.name]
        if owner == nil, let side = inverseSide, destination.isOwnInverse(side.relationship, in: side.entity) { return (side, nil, "target") }
        return (owner, inverseSide, "source")
    }

    mutating func planJoinTable(_ table: TableSpec) -> Plan? {
        let (owner, inverseSide, ownEnd) = joinSides(table)
        guard let owner else { return Plan(spec: table, sourceTable: nil, filter: nil, columns: [], kind: .create, reasons: ["new table"]) }
        let otherEnd = ownEnd == "source" ? "target" : "source"
        let all = allSourceLinks(owner.relationship, owner: owner.entity)
        if all.count > 1 { return mergedLinks(table, owner: owner, ownEnd: ownEnd, from: all) }
        guard let found = sourceLinks(owner.relationship, owner: owner.entity, kind: owner.entity) else {
            return Plan(spec: table, sourceTable: nil, filter: nil, columns: [], kind: .create, reasons: ["new table"])
        }
        let l = links(found.storage, owner: found.sourceOwner, swapped: found.swapped)
        // The tables whose `_pk`s the old links hold, for re-linking to objects with new IDs.
        let ownerTable = src.storage(of: found.sourceOwner)?.table ?? "", destinationTable = src.storage(of: found.storage.destination)?.table ?? ""
        let (ownTable, otherTable) = found.swapped ? (destinationTable, ownerTable) : (ownerTable, destinationTable)
        if found.storage.kind == .joinTable {
            // Order columns: this side's and the inverse side's, when the source kept them.
            func sourceOrder(_ side: (entity: String, relationship: Relationship)?) -> String? {
                guard let side, let m = corr.sourceRelationship(side.relationship, kind: side.entity),
                      let sk = corr.sourceEntity[side.entity], let s = src.storage(of: sk)?.relationships[m.name],
                      s.kind == .joinTable else { return nil }
                return s.orderColumn
            }
            var columns: [(ColumnSpec, ColumnSource)] = []
            for c in table.columns {
                switch c.name {
                case ownEnd: columns.append((c, relinked(.column(l.own), from: ownTable, to: owner.entity)))
                case otherEnd: columns.append((c, relinked(.column(l.other), from: otherTable, to: owner.relationship.destination)))
                case ownEnd + "_order":
                    columns.append((c, sourceOrder(owner).map(ColumnSource.column) ?? rowNumber(partition: l.own, order: l.other)))
                default:
                    columns.append((c, sourceOrder(inverseSide).map(ColumnSource.column) ?? rowNumber(partition: l.other, order: l.own)))
                }
            }
            var plan = Plan(spec: table, sourceTable: found.storage.table, filter: nil, columns: columns)
            // A link whose object no mapping carries is not copied.
            let ends = columns.filter { ["source", "target"].contains($0.0.name) && !$0.1.isPlainColumn }
            if !ends.isEmpty { plan.rowFilter = ends.map { "(" + $0.1.selectSQL + ") IS NOT NULL" }.joined(separator: " AND ") }
            return plan
        }
        let own = ColumnName(l.own, qualifier: "l"), other = ColumnName(l.other, qualifier: "l")
        let ownLink = relinked(.expression("\(own)"), from: ownTable, to: owner.entity).selectSQL
        let otherLink = relinked(.expression("\(other)"), from: otherTable, to: owner.relationship.destination).selectSQL
        if linksToNewIDs(table) {
            // Links re-linked to objects with new IDs: those whose object no mapping carries are left out.
            let s = ColumnName("s"), t = ColumnName("t")
            let select: SQLText = "SELECT " + linkColumns(table, ownEnd: ownEnd, own: "\(s)", other: "\(t)")
                + " FROM (SELECT " + ownLink + " AS \(s), " + otherLink + " AS \(t) FROM \(TableName(l.table)) AS l"
                + " WHERE \(own) IS NOT NULL AND \(other) IS NOT NULL) WHERE \(s) IS NOT NULL AND \(t) IS NOT NULL"
            return Plan(spec: table, sourceTable: nil, filter: nil, columns: [], linkFill: select, kind: .create,
                        reasons: ["links of \(owner.entity).\(owner.relationship.name) move here from \(l.table), re-linked to new IDs"])
        }
        let select: SQLText = "SELECT " + linkColumns(table, ownEnd: ownEnd, own: "\(own)", other: "\(other)")
            + " FROM \(TableName(l.table)) AS l WHERE \(own) IS NOT NULL AND \(other) IS NOT NULL"
        return Plan(spec: table, sourceTable: nil, filter: nil, columns: [], linkFill: select, kind: .create,
                    reasons: ["links of \(owner.entity).\(owner.relationship.name) move here from \(l.table)"])
    }

    /// The values of `table`'s columns, in its order, for links given as the owner's end and the other end:
    /// each end in its column, and each order column numbering the links of its end.
    func linkColumns(_ table: TableSpec, ownEnd: String, own: SQLText, other: SQLText) -> SQLText {
        table.columns.map { c -> SQLText in
            switch c.name {
            case ownEnd: return own
            case ownEnd + "_order": return "row_number() OVER (PARTITION BY " + own + " ORDER BY " + other + ")"
            case let name where name.hasSuffix("_order"): return "row_number() OVER (PARTITION BY " + other + " ORDER BY " + own + ")"
            default: return other
            }
        }.joined(separator: ", ")
    }

    func rowNumber(partition: String, order: String) -> ColumnSource {
        .expression("row_number() OVER (PARTITION BY " + ColumnSource.old(partition) + " ORDER BY " + ColumnSource.old(order) + ")")
    }
}
