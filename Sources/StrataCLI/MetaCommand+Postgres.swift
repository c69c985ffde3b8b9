import Strata
import StrataPostgres

// `strata meta get|set|list` on a PostgreSQL store: the same output as on SQLite. `get` and `list` only
// read; `set` takes the store's advisory lock, as `migrate` does (`--lock-timeout`).

extension MetaCommand.Get {
    func runPostgres(_ url: PostgresStoreURL, output: Output) async throws {
        let value = try await PostgresStore.withOpen(url) { store in
            _ = try await store.metadata()
            return try await store.metadataValue(forKey: key)
        }
        try Self.emit(key: key, value: value, output: output)
    }
}

extension MetaCommand.Set {
    func runPostgres(_ url: PostgresStoreURL, output: Output) async throws {
        try await PostgresStore.withOpen(url) { store in
            _ = try await store.metadata()
            try await store.setUserMetadata(value, forKey: key, lockTimeout: locking.lockTimeout, ddlLockTimeout: postgres.ddlLockTimeout)
        }
        output.json(Document(key: key, value: value))
        output.line("\(key) = \(value)")
    }
}

extension MetaCommand.List {
    func runPostgres(_ url: PostgresStoreURL, output: Output) async throws {
        let (metadata, user) = try await PostgresStore.withOpen(url) { store in
            (try await store.metadata(), try await store.userMetadata())
        }
        Self.emit(metadata, user: user, output: output)
    }
}
