extension PostgresStore {
    /// Opens the store, checks the role may use its schema, runs `body` with it and closes it, whether `body`
    /// returns or throws.
    ///
    /// ```swift
    /// let (migrations, hooks) = try await PostgresStore.withOpen(url) { try await $0.history() }
    /// ```
    /// - Throws: the errors of ``open(_:)`` and of `body`; `PostgresPrivilegeError` without USAGE on the schema (exit 1).
    public static func withOpen<T: Sendable>(_ url: PostgresStoreURL, _ body: (PostgresStore) async throws -> T) async throws -> T {
        let store = try await open(url)
        do {
            try await PostgresPrivileges.checkUsage(store.session)
            let result = try await body(store)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}
