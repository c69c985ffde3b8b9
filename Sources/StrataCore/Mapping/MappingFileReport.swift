/// A destination entity named by a mapping file, with the queries that count, before the step runs, what
/// it carries, drops and fails to cast (SPEC §11.3 "Reports"). The conditions are over the source table
/// aliased `ColumnSource.oldAlias`.
public struct MappedEntity: Hashable, Sendable {
    public var entity: String
    public var source: String
    public var filter: String?
    /// Attribute → expression.
    public var attributes: [String: String]
    /// The source table and the condition selecting the source entity's rows in it.
    public var sourceTable: String
    public var rows: SQLText
    /// `rows` and the filter: the rows carried.
    public var carried: SQLText
    public var probes: [FailedCastProbe] = []

    /// A mapped attribute's failed casts: carried rows whose value is nil although every input was not.
    public struct FailedCastProbe: Hashable, Sendable {
        public var attribute: String
        public var expression: String
        public var condition: SQLText
        /// The source values a sample shows: attribute → column.
        public var inputs: [String]
        public var columns: [String]
    }

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

enum MappingFileReport {
    /// `strata diff`'s lines for the entities a mapping file names.
    static func changes(_ mapping: CompiledMapping?) -> [MappingChange] {
        guard let mapping else { return [] }
        return mapping.entities.keys.sorted().map { name in
            let e = mapping.entities[name]!
            var detail = "mapped from \(e.source) (\(mapping.file.file))"
            if let filter = e.filterText { detail += ", filter: \(filter) (other rows dropped)" }
            return MappingChange(.mapEntity, entity: name, detail: detail, isDestructive: e.filter != nil)
        }
    }

    static func entities(_ mapping: CompiledMapping?, sourceLayout: StoreLayout) -> [MappedEntity] {
        guard let mapping else { return [] }
        return mapping.entities.keys.sorted().compactMap { name in
            let e = mapping.entities[name]!
            guard let storage = sourceLayout.storage(of: e.source) else { return nil }
            let rows: SQLText = storage.isDiscriminated ? "\(ColumnName("_entity", qualifier: ColumnSource.oldAlias)) = \(e.source)" : "1"
            let carried = e.filter.map { rows + " AND " + $0 } ?? rows
            var entity = MappedEntity(entity: name, source: e.source, filter: e.filterText, attributes: e.expressions,
                                      sourceTable: storage.table, rows: rows, carried: carried)
            for attribute in e.attributes.keys.sorted() {
                guard let value = e.attributes[attribute], let inputs = e.inputs[attribute], !inputs.isEmpty else { continue }
                var condition = carried + " AND (" + value + ") IS NULL"
                for input in inputs { condition += " AND \(ColumnName(input.column, qualifier: ColumnSource.oldAlias)) IS NOT NULL" }
                entity.probes.append(.init(attribute: attribute, expression: e.expressions[attribute] ?? "", condition: condition,
                                           inputs: inputs.map(\.attribute), columns: inputs.map(\.column)))
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
