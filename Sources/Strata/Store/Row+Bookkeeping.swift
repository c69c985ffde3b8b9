import GRDB

extension Row {
    /// A column of Strata's own tables (`strata_metadata`, `strata_history`, `strata_hooks`) as `V`. A value of
    /// another storage class (a store edited by hand or by another tool: text in `rowsAffected`, a BLOB in
    /// `value`) is `StoreError.corrupt` naming the table and column, where GRDB's subscript would stop the process.
    func bookkeeping<V: DatabaseValueConvertible>(_ column: String, of table: String, in db: Database) throws -> V {
        do {
            return try decode(forColumn: column)
        } catch {
            let found = self[column] as DatabaseValue
            throw StoreError.corrupt(path: db.description, detail: "\(table).\(column) holds \(Self.storageClass(found)), not \(Self.storageClass(of: V.self))")
        }
    }

    private static func storageClass(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64: return "an integer"
        case .double: return "a real"
        case .string: return "text"
        case .blob: return "a BLOB"
        }
    }

    private static func storageClass<V>(of type: V.Type) -> String {
        switch type {
        case is String.Type, is String?.Type: return "text"
        case is Int.Type, is Int?.Type, is Int64.Type, is Int64?.Type: return "an integer"
        case is Double.Type, is Double?.Type: return "a number"
        default: return "a \(type)"
        }
    }
}
