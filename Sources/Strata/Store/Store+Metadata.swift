import Foundation

/// The store's key–value metadata: Strata's own `strata.*` keys and the application's keys.
extension Store {
    /// The value of one metadata key (a user key or one of Strata's `strata.*` keys), or nil.
    ///
    /// ```swift
    /// let region = try store.metadataValue(forKey: "region")
    /// ```
    /// - Parameters:
    ///   - key: the key, e.g. `region` or `strata.version`.
    /// - Throws: `StoreError.notAdopted` when the file carries no Strata metadata; `StoreError` for SQLite's errors.
    public func metadataValue(forKey key: String) throws -> String? {
        try read { db in
            guard try StoreMetadata.exists(db) else { throw StoreError.notAdopted(path: path) }
            return try StoreMetadata.value(db, key: key)
        }
    }

    /// The user keys (everything not starting with `strata.`) and their values, sorted by key.
    ///
    /// ```swift
    /// for (key, value) in try store.userMetadata() { print("\(key) = \(value)") }
    /// ```
    /// - Throws: `StoreError.notAdopted` when the file carries no Strata metadata; `StoreError` for SQLite's errors.
    public func userMetadata() throws -> [(key: String, value: String)] {
        try read { db in
            guard try StoreMetadata.exists(db) else { throw StoreError.notAdopted(path: path) }
            return try StoreMetadata.userValues(db)
        }
    }

    /// Sets a user key, in its own transaction.
    ///
    /// ```swift
    /// try store.setUserMetadata("eu-west", forKey: "region")
    /// ```
    /// - Parameters:
    ///   - value: the new value.
    ///   - key: a key not starting with `strata.` (those are Strata's own).
    /// - Throws: a `Diagnostic` for an empty or `strata.` key; `StoreError.notAdopted` when the file carries no
    ///   Strata metadata; the errors of ``write(_:)``.
    public func setUserMetadata(_ value: String, forKey key: String) throws {
        try write { db in
            guard try StoreMetadata.exists(db) else { throw StoreError.notAdopted(path: path) }
            try StoreMetadata.setUserValue(db, key: key, value: value)
        }
    }
}
