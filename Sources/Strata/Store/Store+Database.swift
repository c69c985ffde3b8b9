import GRDB

/// The escape hatch to GRDB: the only public API of Strata that hands out a GRDB `Database` (GRDB's types
/// appear elsewhere only where an app hands Strata its own database: ``Store/prepare(_:)`` and
/// ``Store/open(database:models:hooks:options:)``).
///
/// Everything else in Strata speaks in its own types; use these two for queries Strata does not offer,
/// with GRDB's API (`SQL` literals, `Row`, records), naming tables and columns with ``Store/table(for:)`` and
/// ``Store/column(for:property:)``. The connection is Strata's own or the app's prepared one: foreign keys on
/// and Strata's SQL functions registered. Neither call takes Strata's store lock; a write that must not
/// interleave with `strata migrate` or `strata batch` opens the store with ``Store/openLocked(path:lockTimeout:onWait:)``.
extension Store {
    /// Runs `body` in a read-only transaction and returns its result.
    ///
    /// ```swift
    /// let count = try store.read { db in
    ///     try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Recipe""#) ?? 0
    /// }
    /// ```
    /// - Parameters:
    ///   - body: reads through GRDB's `Database`; it must not write (SQLite refuses with `SQLITE_READONLY`).
    /// - Returns: what `body` returns.
    /// - Throws: `StoreError` for SQLite's errors; errors that `body` throws itself pass through unchanged.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try wrap { try queue.read(body) }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: committed when `body` returns, rolled back when
    /// it throws, so a failed write leaves the store as it was.
    ///
    /// ```swift
    /// let name = "Pancakes"
    /// try store.write { db in
    ///     try db.execute(literal: "UPDATE \"Recipe\" SET \"favorite\" = 1 WHERE \"name\" = \(name)")
    /// }
    /// ```
    /// - Parameters:
    ///   - body: reads and writes through GRDB's `Database`, inside the transaction (it must not begin or
    ///     end transactions itself).
    /// - Returns: what `body` returns.
    /// - Throws: ``PipelineError/diskFull(path:detail:)`` when SQLite runs out of space (the store is
    ///   unchanged), ``PipelineError/databaseBusy(path:)`` when another connection holds the write lock past
    ///   the busy timeout, `StoreError` for other SQLite errors; errors that `body` throws itself pass
    ///   through unchanged.
    @discardableResult
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        var result: T?
        do {
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
            }
        } catch let error as DatabaseError {
            throw PipelineError.mapWriteError(error, path: path)
        }
        guard let result else { preconditionFailure("the transaction committed without a result") }
        return result
    }
}
