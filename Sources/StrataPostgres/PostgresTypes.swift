import StrataCore

/// The native PostgreSQL type of each managed column (SPEC §14.2), from the layout and its model. Pure.
///
/// The layout records SQLite's storage types; the model says what each attribute column holds, so the
/// same layout gets `smallint`, `boolean`, `timestamptz`, … here. Keys and links are `bigint`.
enum PostgresTypes {
    /// The type of an attribute's column.
    static func name(of type: AttributeType) -> String {
        switch type {
        case .int16: "smallint"
        case .int32: "integer"
        case .int64: "bigint"
        case .decimal: "numeric"
        case .double: "double precision"
        case .float: "real"
        case .string, .uri: "text"
        case .bool: "boolean"
        case .date: "timestamptz"
        case .binary: "bytea"
        case .uuid: "uuid"
        }
    }

    /// Table → column → attribute type, for every attribute column of `layout` (as `model` declares it).
    static func attributeTypes(_ layout: StoreLayout, model: Model) -> [String: [String: AttributeType]] {
        var types: [String: [String: AttributeType]] = [:]
        for (entity, storage) in layout.entities {
            for (_, attribute) in model.allAttributes(of: entity) {
                guard let column = storage.attributeColumns[attribute.name] else { continue }
                types[storage.table, default: [:]][column] = attribute.type
            }
        }
        return types
    }

    /// The PostgreSQL type of every column of `table`: its attribute's type, `text` for `_entity`, `bigint`
    /// for `_pk`, links and order columns.
    static func columnTypes(of table: TableSpec, attributeTypes: [String: [String: AttributeType]]) -> [String: String] {
        var result: [String: String] = [:]
        for column in table.columns {
            if let type = attributeTypes[table.name]?[column.name] {
                result[column.name] = name(of: type)
            } else {
                result[column.name] = column.name == "_entity" ? "text" : "bigint"
            }
        }
        return result
    }

    /// `value` (in its SQLite storage form) as an expression of the attribute's PostgreSQL type: bound, then
    /// converted in SQL (a bool is bound as 0/1, a date as seconds since 1970, a uuid or decimal as text).
    static func expression(_ value: Value, as type: AttributeType) -> SQLText {
        if value.isNull { return "NULL" }
        switch type {
        case .bool: return "(\(value) <> 0)"
        case .date: return "to_timestamp(\(value))"
        case .uuid: return "CAST(\(value) AS uuid)"
        case .decimal: return "CAST(\(value) AS numeric)"
        case .int16: return "CAST(\(value) AS smallint)"
        case .int32: return "CAST(\(value) AS integer)"
        case .float: return "CAST(\(value) AS real)"
        case .int64, .double, .string, .uri, .binary: return "\(value)"
        }
    }
}
