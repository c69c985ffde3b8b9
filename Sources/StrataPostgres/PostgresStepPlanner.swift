import StrataCore

/// Renders an inferred version step (`VersionStep`, planned by StrataCore as for SQLite) as PostgreSQL's
/// in-place `ALTER TABLE` work, for the changes this engine supports so far. Pure.
///
/// PostgreSQL changes tables in place, so a step SQLite runs as a 12-step rebuild (a dropped column, a new
/// foreign key) is here an `ALTER TABLE`. A change outside ``supportedChanges`` throws
/// `notYetSupported` before anything runs.
struct PostgresStepPlanner {
    /// The inferred changes a PostgreSQL store runs today.
    static let supportedChanges: Set<MappingChange.Kind> = [
        .addEntity, .removeEntity, .addAttribute, .removeAttribute, .renameAttribute, .makeMandatory, .makeOptional,
        .changeDefault, .changeRules, .changeHashModifier, .addRelationship, .addUniqueness, .removeUniqueness,
        .addIndex, .removeIndex,
    ]

    let step: VersionStep
    let source: Model
    let destination: Model
    let src: StoreLayout
    let dst: StoreLayout
    let srcTypes: [String: [String: AttributeType]]
    let dstTypes: [String: [String: AttributeType]]

    var creates: [SQLText] = []
    var alters: [SQLText] = []
    var foreignKeys: [SQLText] = []
    var drops: [SQLText] = []
    var dropIndexes: [SQLText] = []
    var backfills: [SQLText] = []
    var checks: [PostgresStepPlan.Operation] = []
    var indexes: [SQLText] = []

    /// The step's PostgreSQL plan.
    /// - Throws: `PostgresStoreError.notYetSupported` naming the first change this engine cannot run yet;
    ///   `.nameTooLong` for a new table or column name over 63 bytes.
    static func plan(_ step: VersionStep, source: Model, destination: Model) throws(PostgresStoreError) -> PostgresStepPlan {
        let place = "(version \(step.fromVersion) → \(step.toVersion))"
        if step.mappingFile != nil { throw .notYetSupported(what: "a mapping file \(place)") }
        for change in step.changes where !supportedChanges.contains(change.kind) {
            throw .notYetSupported(what: "the change '\(change)' \(place)")
        }
        let dst = try PostgresLayout.adapted(step.destinationLayout)
        var planner = PostgresStepPlanner(
            step: step, source: source, destination: destination, src: step.sourceLayout, dst: dst,
            srcTypes: PostgresTypes.attributeTypes(step.sourceLayout, model: source),
            dstTypes: PostgresTypes.attributeTypes(dst, model: destination))
        try planner.planTables(place: place)
        let operations = (planner.dropIndexes + planner.creates + planner.alters + planner.foreignKeys + planner.drops
                          + planner.backfills).map(PostgresStepPlan.Operation.execute)
            + planner.checks + planner.indexes.map(PostgresStepPlan.Operation.execute)
        return PostgresStepPlan(fromVersion: step.fromVersion, toVersion: step.toVersion, destinationLayout: dst, operations: operations)
    }

    mutating func planTables(place: String) throws(PostgresStoreError) {
        let added = dst.tables.filter { src.table($0.name) == nil }
        let statements = PostgresSchemaSQL.createStatements(for: added, attributeTypes: dstTypes)
        creates = Array(statements.prefix(added.count))
        foreignKeys = Array(statements.dropFirst(added.count))   // their foreign keys, then their indexes
        for table in src.tables where dst.table(table.name) == nil { drops.append("DROP TABLE \(TableName(table.name))") }
        for table in dst.tables {
            guard let old = src.table(table.name) else { continue }
            try planKeptTable(old: old, new: table, place: place)
        }
    }

    /// A table in both versions: renamed, added and dropped columns, backfills, checks and index changes.
    mutating func planKeptTable(old: TableSpec, new: TableSpec, place: String) throws(PostgresStoreError) {
        let name = TableName(new.name)
        let kinds = dst.entityNames(inTable: new.name)
        guard Set(kinds) == Set(src.entityNames(inTable: old.name)) else {
            throw .notYetSupported(what: "changing which entities table \(new.name) stores \(place)")
        }
        let oldTypes = PostgresTypes.columnTypes(of: old, attributeTypes: srcTypes)
        let newTypes = PostgresTypes.columnTypes(of: new, attributeTypes: dstTypes)
        let (carried, additions) = try correspondence(of: new, kinds: kinds, place: place)
        let oldNames = Set(old.columns.map { $0.name.lowercased() })
        for column in new.columns {
            if let from = carried[column.name] ?? (column.name.hasPrefix("_") ? column.name : nil) {
                guard let previous = old.column(from), oldTypes[from] == newTypes[column.name],
                      previous.isNotNull == column.isNotNull, previous.references == column.references,
                      previous.onDelete == column.onDelete, previous.isPrimaryKey == column.isPrimaryKey else {
                    throw .notYetSupported(what: "changing the type or constraints of column \(new.name).\(column.name) \(place)")
                }
                if from != column.name {
                    guard !oldNames.contains(column.name.lowercased()) || from.lowercased() == column.name.lowercased() else {
                        throw .notYetSupported(what: "renaming \(new.name).\(from) to a name another column holds \(place)")
                    }
                    alters.append("ALTER TABLE \(name) RENAME COLUMN \(ColumnName(from)) TO \(ColumnName(column.name))")
                }
            } else if let addition = additions[column.name] {
                alters.append("ALTER TABLE \(name) ADD COLUMN " + PostgresSchemaSQL.columnDefinition(column, type: newTypes[column.name]!))
                if let fk = PostgresSchemaSQL.addForeignKey(column, table: new.name) { foreignKeys.append(fk) }
                if let value = addition.fill {
                    backfills.append("UPDATE \(name) SET \(ColumnName(column.name)) = " + value + filter(addition.kinds, of: new, alias: nil, wherePrefix: " WHERE "))
                }
                if addition.mustBeEmpty {
                    checks.append(.check(objects(of: new, kinds: addition.kinds, where: "TRUE"),
                                         message: "\(addition.owner) has no objects (new non-optional \(addition.owner) has no default)"))
                }
            } else {
                throw .notYetSupported(what: "filling column \(new.name).\(column.name) from other values \(place)")
            }
        }
        let kept = Set(carried.values).union(new.columns.map(\.name).filter { $0.hasPrefix("_") })
        for column in old.columns where !kept.contains(column.name) {
            alters.append("ALTER TABLE \(name) DROP COLUMN \(ColumnName(column.name))")
        }
        planMandatory(new, kinds: kinds)
        planIndexes(old: old, new: new, carried: carried)
    }

    /// A new column: whom it belongs to, its backfill and whether the rows it applies to must not exist.
    struct Addition {
        var owner: String
        var kinds: [String]
        var fill: SQLText?
        var mustBeEmpty: Bool
    }

    /// Destination column → source column for the properties kept (by name or `renamedFrom`), and the new
    /// properties' columns.
    func correspondence(of table: TableSpec, kinds: [String], place: String) throws(PostgresStoreError)
        -> (carried: [String: String], additions: [String: Addition]) {
        var carried: [String: String] = [:]
        var additions: [String: Addition] = [:]
        if table.kind == .join, let old = src.table(table.name) {
            for column in table.columns where old.column(column.name) != nil { carried[column.name] = column.name }
        }
        for entityName in kinds {
            guard let entity = destination.entity(entityName), let storage = dst.storage(of: entityName),
                  let oldStorage = src.storage(of: entityName) else { continue }
            let hierarchy = destination.hierarchy(of: entityName).map(\.name)
            for attribute in entity.attributes {
                guard let column = storage.attributeColumns[attribute.name] else { continue }
                if let previous = sourceName(attribute.name, renamedFrom: attribute.renamedFrom, in: entityName, attribute: true),
                   let from = oldStorage.attributeColumns[previous] {
                    carried[column] = from
                } else {
                    let fill = attribute.defaultValue.map { PostgresTypes.expression($0, as: attribute.type) }
                    additions[column] = Addition(owner: "\(entityName).\(attribute.name)", kinds: hierarchy, fill: fill,
                                                 mustBeEmpty: !attribute.isOptional && attribute.defaultValue == nil)
                }
            }
            for relationship in entity.relationships {
                guard let link = storage.relationships[relationship.name], link.kind == .foreignKey, link.table == table.name else { continue }
                if let previous = sourceName(relationship.name, renamedFrom: relationship.renamedFrom, in: entityName, attribute: false),
                   let old = oldStorage.relationships[previous], old.kind == .foreignKey, old.table == table.name {
                    carried[link.column] = old.column
                } else if source.relationship(relationship.name, of: entityName) == nil {
                    additions[link.column] = Addition(owner: "\(entityName).\(relationship.name)", kinds: hierarchy, fill: nil,
                                                      mustBeEmpty: !relationship.isOptional)
                } else {
                    throw .notYetSupported(what: "moving the links of \(entityName).\(relationship.name) into a column \(place)")
                }
            }
        }
        return (carried, additions)
    }

    /// The property's name in the source model: its own, else its `renamedFrom`, else nil (a new property).
    func sourceName(_ name: String, renamedFrom: String?, in entity: String, attribute: Bool) -> String? {
        func has(_ n: String) -> Bool {
            attribute ? source.attribute(n, of: entity) != nil : source.relationship(n, of: entity) != nil
        }
        if has(name) { return name }
        if let renamedFrom, has(renamedFrom) { return renamedFrom }
        return nil
    }
}
