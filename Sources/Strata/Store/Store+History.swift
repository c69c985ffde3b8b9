import Foundation

extension Store {
    /// The applied steps (creation, adoption, migrations) and the hooks recorded in the store, each in
    /// time order.
    ///
    /// ```swift
    /// let (migrations, hooks) = try store.history()
    /// for entry in migrations { print(entry.kind, entry.toVersion, entry.finished) }
    /// ```
    /// - Throws: `StoreError.notAdopted` when the file carries no Strata metadata; `StoreError` for SQLite's errors.
    public func history() throws -> (migrations: [HistoryEntry], hooks: [HookRecord]) {
        try read { db in
            guard try StoreMetadata.exists(db) else { throw StoreError.notAdopted(path: path) }
            return (try History.entries(db), try History.hooks(db))
        }
    }
}
