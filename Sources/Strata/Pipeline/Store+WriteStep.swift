import Foundation
import GRDB

extension Store {
    /// Runs one step of a run in its own `BEGIN IMMEDIATE` transaction (SPEC §9), committing when `body`
    /// returns and rolling back when it throws, so a failed step leaves the store as it was.
    ///
    /// Errors say so: `SQLITE_FULL` (disk full, or `PRAGMA max_page_count` reached) becomes
    /// ``PipelineError/diskFull(path:detail:)`` (exit 1, "the store is unchanged"); other SQLite errors become
    /// `StoreError`s. Errors that `body` throws itself pass through unchanged.
    /// ```swift
    /// try store.writeStep { db in
    ///     try StoreMetadata.setUserValue(db, key: "owner", value: "team-a")
    /// }
    /// ```
    /// - Throws: ``PipelineError/diskFull(path:detail:)``, `StoreError`, or what `body` throws.
    @discardableResult
    public func writeStep<T>(_ body: (Database) throws -> T) throws -> T {
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
        guard let result else { preconditionFailure("the step's transaction committed without a result") }
        return result
    }
}
