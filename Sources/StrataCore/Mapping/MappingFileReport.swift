/// A destination entity named by a mapping file, with the queries that count, before the step runs, what
/// it carries, drops and fails to cast (SPEC §11.3 "Reports"), per source entity (a merge has several). The
/// conditions are over the source table aliased `ColumnSource.oldAlias`.
public struct MappedEntity: Hashable, Sendable {
    public var entity: String
    /// The source entities, joined with ", " (`Photo, Video` for a merge).
    public var source: String
    public var filter: String?
    /// Attribute → expression.
    public var attributes: [String: String]
    /// Whether its rows get new `_pk`s (object IDs) in this step (SPEC §11.3 "IDs").
    public var newIDs = false
    public var parts: [Part] = []

    /// One source entity's rows.
    public struct Part: Hashable, Sendable {
        public var source: String
        /// The source table and the condition selecting the source entity's rows in it.
        public var sourceTable: String
        public var rows: SQLText
        /// `rows` and the filter: the rows carried.
        public var carried: SQLText
        public var probes: [FailedCastProbe] = []

        /// `SELECT count(*) FROM source AS strata_old WHERE condition`.
        public func count(_ condition: SQLText) -> SQLText {
            "SELECT count(*) FROM \(TableName(sourceTable)) AS \(keyword: ColumnSource.oldAlias) WHERE " + condition
        }

        /// The first `limit` failed casts of `probe`: `_pk` and the inputs' values.
        public func samples(_ probe: FailedCastProbe, limit: Int) -> SQLText {
            let columns = ([ColumnName("_pk", qualifier: ColumnSource.oldAlias)] + probe.columns.map { ColumnName($0, qualifier: ColumnSource.oldAlias) })
                .map { "\($0)" as SQLText }.joined(separator: ", ")
            return "SELECT " + columns + " FROM \(TableName(sourceTable)) AS \(keyword: ColumnSource.oldAlias) WHERE " + probe.condition
                + " ORDER BY \(ColumnName("_pk", qualifier: ColumnSource.oldAlias)) LIMIT \(limit)"
        }
    }

    /// A mapped attribute's failed casts: carried rows whose value is nil although every input was not.
    public struct FailedCastProbe: Hashable, Sendable {
        public var attribute: String
        public var expression: String
        public var condition: SQLText
        /// The source values a sample shows: attribute → column.
        public var inputs: [String]
        public var columns: [String]
    }
}

enum MappingFileReport {
    /// `strata diff`'s lines for the entities a mapping file names.
    static func changes(_ mapping: CompiledMapping?, newIDTables: Set<String> = [], layout: StoreLayout? = nil) -> [MappingChange] {
        guard let mapping else { return [] }
        return mapping.entities.keys.sorted().map { name in
            let e = mapping.entities[name]!
            var detail = (e.isMerge ? "merged from " : "mapped from ") + e.sources.map(\.entity).joined(separator: ", ") + " (\(mapping.file.file))"
            if let filter = e.filterText { detail += ", filter: \(filter) (other rows dropped)" }
            if let table = layout?.storage(of: name)?.table, newIDTables.contains(table) { detail += ", objects get new IDs" }
            return MappingChange(.mapEntity, entity: name, detail: detail, isDestructive: e.sources.contains { $0.filter != nil })
        }
    }

    static func entities(_ mapping: CompiledMapping?, sourceLayout: StoreLayout, newIDTables: Set<String> = [],
                         layout: StoreLayout? = nil) -> [MappedEntity] {
        guard let mapping else { return [] }
        return mapping.entities.keys.sorted().map { name in
            let e = mapping.entities[name]!
            var entity = MappedEntity(entity: name, source: e.sources.map(\.entity).joined(separator: ", "), filter: e.filterText,
                                      attributes: e.expressions)
            entity.newIDs = layout?.storage(of: name).map { newIDTables.contains($0.table) } ?? false
            for s in e.sources {
                guard let storage = sourceLayout.storage(of: s.entity) else { continue }
                let rows: SQLText = storage.isDiscriminated ? "\(ColumnName("_entity", qualifier: ColumnSource.oldAlias)) = \(s.entity)" : "1"
                let carried = s.filter.map { rows + " AND " + $0 } ?? rows
                var part = MappedEntity.Part(source: s.entity, sourceTable: storage.table, rows: rows, carried: carried)
                for attribute in s.attributes.keys.sorted() {
                    guard let value = s.attributes[attribute], let inputs = s.inputs[attribute], !inputs.isEmpty else { continue }
                    var condition = carried + " AND (" + value + ") IS NULL"
                    for input in inputs { condition += " AND \(ColumnName(input.column, qualifier: ColumnSource.oldAlias)) IS NOT NULL" }
                    part.probes.append(.init(attribute: attribute, expression: s.expressions[attribute] ?? "", condition: condition,
                                             inputs: inputs.map(\.attribute), columns: inputs.map(\.column)))
                }
                entity.parts.append(part)
            }
            return entity
        }
    }
}

extension MappingRefusal {
    /// The refusal with the way forward: a mapping file (or, when there is one, what it must add).
    func pointingAt(_ file: MappingFile?) -> MappingRefusal {
        var r = self
        if let file {
            r.hint += "; or cover it in \(file.file)"
        } else {
            r.hint += "; or write a mapping file: `strata mapping \(fromVersion) \(toVersion)` prints a skeleton"
        }
        return r
    }
}
