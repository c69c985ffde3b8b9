/// Computes the storage layout of a model (SPEC §2, §10).
///
/// Pure: it takes a `Model` (and the columns an existing store already uses) and returns
/// a `StoreLayout`. Call it on a model that passed `ModelChecker`.
public enum LayoutBuilder {
    /// - Parameters:
    ///   - model: a checked model.
    ///   - previous: columns the store already has, as entity name → property name → column
    ///     (property names as they are in `model`, renames already applied). Existing
    ///     columns keep their names; new properties take the plain name when free, else `<Entity>_<name>`.
    ///   - created: the layout of a store created at the model's version, when the caller has it
    ///     (`ModelHistory.createdLayouts`): returned as it is when the kept columns land on its names.
    public static func layout(for model: Model, keeping previous: [String: [String: String]] = [:],
                              created: StoreLayout? = nil) -> StoreLayout {
        if let created, keptColumnsMatch(previous, created) { return created }
        return build(model, keeping: previous, relationshipPlans: planRelationships(model))
    }

    /// The layout computed in full (the checker passes the relationship plans it has already made).
    static func build(_ model: Model, keeping previous: [String: [String: String]],
                      relationshipPlans: [Key: RelationshipStorage]) -> StoreLayout {
        let columnOf = assignColumns(model, keeping: previous, relationshipPlans)
        var storages: [String: EntityStorage] = [:]
        var tables: [TableSpec] = []
        let roots = model.entities.filter { $0.parent == nil }

        func tableName(_ entity: String) -> String {
            let root = model.root(of: entity)!
            return root.table ?? root.name
        }

        // Entity storages.
        for e in model.entities {
            let root = model.root(of: e.name)!
            var attributeColumns: [String: String] = [:]
            var relationships: [String: RelationshipStorage] = [:]
            let lineage = model.lineage(of: e.name)
            attributeColumns.reserveCapacity(lineage.reduce(0) { $0 + $1.attributes.count })
            for ancestor in lineage.reversed() {
                let own = columnOf[ancestor.name] ?? [:]
                for a in ancestor.attributes { attributeColumns[a.name] = own[a.name] }
                for r in ancestor.relationships {
                    guard let plan = relationshipPlans[Key(ancestor.name, r.name)] else { continue }
                    var storage = plan
                    if storage.kind == .foreignKey { storage.column = columnOf[ancestor.name]![r.name]! }
                    if storage.kind == .inverseForeignKey, let inv = model.effectiveInverse(of: r, in: ancestor.name) {
                        storage.column = columnOf[inv.owner]?[inv.relationship.name] ?? storage.column
                    }
                    relationships[r.name] = storage
                }
            }
            storages[e.name] = EntityStorage(
                entity: e.name, root: root.name, table: tableName(e.name),
                isDiscriminated: model.hasChildren(root.name),
                kinds: model.hierarchy(of: e.name).map(\.name),
                attributeColumns: attributeColumns, relationships: relationships)
        }

        // Entity tables.
        for root in roots {
            let table = tableName(root.name)
            let discriminated = model.hasChildren(root.name)
            var columns = [ColumnSpec(name: "_pk", sqlType: "INTEGER", isPrimaryKey: true)]
            if discriminated { columns.append(ColumnSpec(name: "_entity", sqlType: "TEXT", isNotNull: true)) }
            var indexes: [IndexSpec] = []
            if discriminated { indexes.append(IndexSpec(name: indexName("idx", table, ["_entity"]), columns: ["_entity"], isUnique: false)) }
            var fkIndexes: [IndexSpec] = []
            let members = model.hierarchy(of: root.name)
            for e in members {
                let own = columnOf[e.name] ?? [:]
                for a in e.attributes {
                    columns.append(ColumnSpec(name: own[a.name]!, sqlType: a.type.sqlType))
                    if a.isIndexed { indexes.append(IndexSpec(name: indexName("idx", table, [own[a.name]!]), columns: [own[a.name]!], isUnique: false)) }
                }
                for r in e.relationships where relationshipPlans[Key(e.name, r.name)]?.kind == .foreignKey {
                    let column = own[r.name]!
                    let inverse = model.effectiveInverse(of: r, in: e.name)
                    let action: String? = inverse.map { $0.relationship.deleteRule.onDeleteAction } ?? "SET NULL"
                    columns.append(ColumnSpec(name: column, sqlType: "INTEGER",
                                              references: action == nil ? nil : tableName(r.destination), onDelete: action))
                    fkIndexes.append(IndexSpec(name: indexName("fk", table, [column]), columns: [column], isUnique: false))
                }
                let storage = storages[e.name]!
                func resolve(_ names: [String]) -> [String] {
                    names.compactMap { storage.attributeColumns[$0] ?? storage.relationships[$0].flatMap { $0.kind == .foreignKey ? $0.column : nil } }
                }
                // A part naming the side of a one-to-one that has no column is left out (the other side's
                // foreign-key index serves it; the checker warns); an index left with no part is not created.
                for list in e.indexes {
                    let cols = resolve(list)
                    if !cols.isEmpty { indexes.append(IndexSpec(name: indexName("idx", table, cols), columns: cols, isUnique: false)) }
                }
                for list in e.uniqueness {
                    let cols = resolve(list)
                    if !cols.isEmpty { indexes.append(IndexSpec(name: indexName("uniq", table, cols), columns: cols, isUnique: true)) }
                }
            }
            // Order columns of ordered to-many relationships whose inverse is a to-one stored here.
            var orderColumns: [String] = []
            for plan in relationshipPlans.values where plan.kind == .inverseForeignKey && plan.table == table {
                if let order = plan.orderColumn { orderColumns.append(order) }
            }
            for order in orderColumns.sorted() { columns.append(ColumnSpec(name: order, sqlType: "INTEGER")) }
            for fk in fkIndexes where !indexes.contains(where: { $0.columns.first == fk.columns[0] }) { indexes.append(fk) }
            tables.append(TableSpec(name: table, kind: .entity, rootEntity: root.name, columns: columns,
                                    indexes: unique(indexes)))
        }

        // Join tables.
        var joins: [String: TableSpec] = [:]
        for (key, plan) in relationshipPlans where plan.kind == .joinTable {
            let owner = model.entity(key.entity)!
            let relationship = owner.relationship(key.property)!
            let sourceEntity = plan.column == "source" ? key.entity : plan.destination
            let targetEntity = plan.column == "source" ? plan.destination : key.entity
            var spec = joins[plan.table] ?? TableSpec(
                name: plan.table, kind: .join,
                columns: [
                    ColumnSpec(name: "source", sqlType: "INTEGER", isNotNull: true, references: tableName(sourceEntity), onDelete: "CASCADE"),
                    ColumnSpec(name: "target", sqlType: "INTEGER", isNotNull: true, references: tableName(targetEntity), onDelete: "CASCADE"),
                ],
                primaryKey: ["source", "target"],
                indexes: [IndexSpec(name: indexName("fk", plan.table, ["target"]), columns: ["target"], isUnique: false)])
            if relationship.isOrdered, let order = plan.orderColumn, spec.column(order) == nil {
                spec.columns.append(ColumnSpec(name: order, sqlType: "INTEGER"))
            }
            joins[plan.table] = spec
        }
        for var spec in joins.values {
            let orders = spec.columns.filter { $0.name.hasSuffix("_order") }.sorted { $0.name < $1.name }
            spec.columns = spec.columns.filter { !$0.name.hasSuffix("_order") } + orders
            tables.append(spec)
        }
        return StoreLayout(tables: disambiguateIndexNames(tables), entities: storages)
    }

    /// Index names are global in SQLite (and equal ignoring case clash), and `strata_idx_<table>_<columns>`
    /// is ambiguous when names contain `_` (`Recipe.a_b` and `Recipe_a.b`; `[a_b]` and `[a, b]`). Every
    /// index whose plain name is shared by another definition is renamed to the unambiguous
    /// `strata_<kind>_<length>_<table>_<length>_<column>…` (a digit follows the kind, which no plain name
    /// has, since table names start with a letter). Names that did not clash stay as they were, so the
    /// indexes of existing stores keep their names.
    static func disambiguateIndexNames(_ tables: [TableSpec]) -> [TableSpec] {
        struct Definition: Hashable { var table: String; var columns: [String]; var isUnique: Bool }
        var definitions: [String: Set<Definition>] = [:]
        for table in tables {
            for index in table.indexes {
                definitions[index.name.lowercased(), default: []].insert(
                    Definition(table: table.name.lowercased(), columns: index.columns.map { $0.lowercased() }, isUnique: index.isUnique))
            }
        }
        guard definitions.values.contains(where: { $0.count > 1 }) else { return tables }
        return tables.map { table in
            var table = table
            table.indexes = unique(table.indexes.map { index in
                guard definitions[index.name.lowercased()]!.count > 1 else { return index }
                let kind = index.name.dropFirst("strata_".count).prefix { $0 != "_" }
                return IndexSpec(name: encodedIndexName(String(kind), table.name, index.columns), columns: index.columns,
                                 isUnique: index.isUnique)
            })
            return table
        }
    }

    /// `strata_idx_6_Recipe_3_a_b`: each name preceded by its length, so no two tables or column lists
    /// share one.
    static func encodedIndexName(_ kind: String, _ table: String, _ columns: [String]) -> String {
        "strata_\(kind)_" + ([table] + columns).map { "\($0.utf8.count)_\($0)" }.joined(separator: "_")
    }

    /// Entity → own property → column, per hierarchy: kept columns first, then the plain name when
    /// free, else `<Entity>_<name>`.
    static func assignColumns(_ model: Model, keeping previous: [String: [String: String]],
                              _ relationshipPlans: [Key: RelationshipStorage]) -> [String: [String: String]] {
        var columnOf: [String: [String: String]] = [:]
        for root in model.entities where root.parent == nil {
            let members = model.hasChildren(root.name) ? model.hierarchy(of: root.name).sorted { $0.name < $1.name } : [root]
            var claims: [(entity: String, property: String, desired: String)] = []
            for e in members {
                for a in e.attributes { claims.append((e.name, a.name, a.column ?? a.name)) }
                for r in e.relationships where relationshipPlans[Key(e.name, r.name)]?.kind == .foreignKey {
                    claims.append((e.name, r.name, r.column ?? r.name))
                }
            }
            var used: Set<SQLName> = [SQLName("_pk"), SQLName("_entity")]
            used.reserveCapacity(claims.count + 2)
            var assigned = [String?](repeating: nil, count: claims.count)
            if !previous.isEmpty {
                for (i, claim) in claims.enumerated() {
                    if let kept = previous[claim.entity]?[claim.property], used.insert(SQLName(kept)).inserted { assigned[i] = kept }
                }
            }
            for (i, claim) in claims.enumerated() where assigned[i] == nil {
                var name = claim.desired
                if !used.insert(SQLName(name)).inserted {
                    name = "\(claim.entity)_\(claim.desired)"
                    used.insert(SQLName(name))
                }
                assigned[i] = name
            }
            var i = 0
            while i < claims.count {   // claims are grouped by entity
                let entity = claims[i].entity
                var end = i
                while end < claims.count, claims[end].entity == entity { end += 1 }
                var own: [String: String] = [:]
                own.reserveCapacity(end - i)
                for k in i..<end { own[claims[k].property] = assigned[k] }
                columnOf[entity] = own
                i = end
            }
        }
        return columnOf
    }

    /// Whether every kept column is the one a new store gives that property. Then the assignment with
    /// `previous` is the new store's: kept names are claimed first, but each is the name its property gets
    /// anyway, and a property planned before it never wanted it (it would have taken it in a new store too;
    /// a checked model's created layout has no duplicate column).
    static func keptColumnsMatch(_ previous: [String: [String: String]], _ created: StoreLayout) -> Bool {
        for (entity, columns) in previous {
            guard let storage = created.entities[entity] else { return false }
            for (property, column) in columns {
                if let own = storage.attributeColumns[property] {
                    if own != column { return false }
                } else if let link = storage.relationships[property], link.kind == .foreignKey {
                    if link.column != column { return false }
                } else {
                    return false
                }
            }
        }
        return true
    }

    struct Key: Hashable {
        var entity: String
        var property: String
        init(_ entity: String, _ property: String) { self.entity = entity; self.property = property }
    }

    /// Where each declared relationship is stored (columns of FKs are placeholders, filled later).
    /// A one-to-one's foreign key is on the side whose (entity, relationship) sorts first; a to-one that is
    /// its own inverse (`spouse` ↔ `spouse`) has one side, which keeps the key in its own column.
    static func planRelationships(_ model: Model) -> [Key: RelationshipStorage] {
        func table(_ entity: String) -> String { let r = model.root(of: entity)!; return r.table ?? r.name }
        var plans: [Key: RelationshipStorage] = [:]
        for e in model.entities {
            for r in e.relationships {
                guard model.entity(r.destination) != nil else { continue }
                let inverse = model.effectiveInverse(of: r, in: e.name)
                let thisSideFirst = inverse.map { (e.name, r.name) < ($0.owner, $0.relationship.name) } ?? true
                let isOwnInverse = model.isOwnInverse(r, in: e.name)
                let storage: RelationshipStorage
                if !r.isToMany {
                    if let inverse, !inverse.relationship.isToMany, !thisSideFirst, !isOwnInverse {
                        storage = RelationshipStorage(kind: .inverseForeignKey, destination: r.destination, isToMany: false,
                                                      table: table(r.destination), column: inverse.relationship.column ?? inverse.relationship.name)
                    } else {
                        storage = RelationshipStorage(kind: .foreignKey, destination: r.destination, isToMany: false,
                                                      table: table(e.name), column: r.column ?? r.name)
                    }
                } else if let inverse, !inverse.relationship.isToMany {
                    storage = RelationshipStorage(kind: .inverseForeignKey, destination: r.destination, isToMany: true,
                                                  table: table(r.destination), column: inverse.relationship.column ?? inverse.relationship.name,
                                                  orderColumn: r.isOrdered ? "_order_\(e.name)_\(r.name)" : nil)
                } else {
                    let joinOwner = thisSideFirst ? (e.name, r.name) : (inverse!.owner, inverse!.relationship.name)
                    storage = RelationshipStorage(kind: .joinTable, destination: r.destination, isToMany: true,
                                                  table: "_\(joinOwner.0)_\(joinOwner.1)",
                                                  column: thisSideFirst ? "source" : "target",
                                                  otherColumn: thisSideFirst ? "target" : "source",
                                                  orderColumn: r.isOrdered ? (thisSideFirst ? "source_order" : "target_order") : nil)
                }
                plans[Key(e.name, r.name)] = storage
            }
        }
        return plans
    }

    static func indexName(_ kind: String, _ table: String, _ columns: [String]) -> String {
        "strata_\(kind)_\(table)_\(columns.joined(separator: "_"))"
    }

    /// The indexes without repeated definitions (`indexed: true` and `indexes: [[x]]` are one index).
    /// Different definitions under one name are kept, for `disambiguateIndexNames` to rename.
    static func unique(_ indexes: [IndexSpec]) -> [IndexSpec] {
        var seen: Set<IndexSpec> = []
        return indexes.filter { seen.insert(IndexSpec(name: $0.name.lowercased(), columns: $0.columns, isUnique: $0.isUnique)).inserted }
    }
}
