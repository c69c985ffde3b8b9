import GRDB

extension DatabaseWriter {
    /// Serialized access to the writer connection, outside any transaction: `DatabaseQueue.inDatabase`
    /// for any writer, so a store runs alike on Strata's own queue and on an application's pool.
    func inDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction(body)
    }
}
