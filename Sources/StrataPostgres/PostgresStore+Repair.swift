import Foundation
import StrataCore
import Strata

/// `strata repair` on a PostgreSQL store (SPEC §8): what it does on SQLite, on `strata_hooks`, under the
/// store's lock (the one `migrate` holds) and in one transaction.
extension PostgresStore {
    /// How the hook files stand against `strata_hooks` (the comparison SQLite stores make).
    func hookState(_ hooks: HookSet, metadata: StoreMetadata) async throws(PostgresStoreError) -> HookState {
        let statement: SQLText = #"SELECT "id", "status", "checksum" FROM "strata_hooks""#
        var records: [String: (status: String, checksum: String)] = [:]
        for row in try await session.rows(statement) {
            records[try PostgresSession.decode(row[0], as: String.self, statement: statement)] = (
                try PostgresSession.decode(row[1], as: String.self, statement: statement),
                try PostgresSession.decode(row[2], as: String.self, statement: statement))
        }
        return HookState(hooks: hooks, records: records, metadata: metadata)
    }

    /// Re-records the checksums of applied hooks whose files were edited (after a person checked the edit),
    /// clearing that drift, as `HookState.repair` does on SQLite.
    ///
    /// ```swift
    /// let repaired = try await store.repairHooks(hooks, lockTimeout: 60)
    /// ```
    /// - Returns: the hooks re-recorded.
    /// - Throws: `PostgresStoreError.busy` (exit 5) when another run holds the lock; `PostgresLockWaitError` (exit 5)
    ///   when a statement waits longer than `ddlLockTimeout` for another session's lock; the server's errors.
    public func repairHooks(_ hooks: HookSet, lockTimeout: Double, ddlLockTimeout: Double = 5) async throws -> [HookState.EditedHook] {
        try await locked(lockTimeout: lockTimeout, ddlLockTimeout: ddlLockTimeout) { metadata in
            let edited = try await self.hookState(hooks, metadata: metadata).edited
            for hook in edited {
                try await self.session.execute(#"UPDATE "strata_hooks" SET "checksum" = "# + "\(hook.fileChecksum) WHERE \"id\" = \(hook.id)")
            }
            return edited
        }
    }

    /// Records late hooks as skipped: they never run (a late before-hook can never run), as `HookState.skip`
    /// does on SQLite.
    ///
    /// ```swift
    /// try await store.skipLateHooks(["keep-codes"], hooks: hooks, lockTimeout: 60)
    /// ```
    /// - Returns: the ids recorded.
    /// - Throws: `DiagnosticList` (exit 2, nothing written) when an id is not a late hook of this store;
    ///   `PostgresStoreError.busy` (exit 5); the server's errors.
    public func skipLateHooks(_ ids: [String], hooks: HookSet, lockTimeout: Double, ddlLockTimeout: Double = 5) async throws -> [String] {
        try await locked(lockTimeout: lockTimeout, ddlLockTimeout: ddlLockTimeout) { metadata in
            let state = try await self.hookState(hooks, metadata: metadata)
            try state.checkSkippable(ids)
            for id in ids {
                guard let hook = hooks.hook(id: id) else { continue }
                let model = hook.timing == .before ? hook.modelVersion : metadata.version
                try await self.session.execute("""
                    INSERT INTO "strata_hooks" ("id", "checksum", "afterVersion", "modelVersion", "status", "rowsAffected", "finished") \
                    VALUES (\(id), \(hook.checksum), CAST(\(hook.after) AS integer), CAST(\(model) AS integer), 'skipped', 0, \
                    \(History.timestamp(Date())))
                    """)
            }
            return ids
        }
    }

    /// The mapping files of steps the store ran (to ≤ `version`) whose checksum is not the one the step's latest
    /// history row records, with that row's id and details (SQLite's `MappingState` comparison).
    func editedMappings(_ mappings: [Int: MappingFile],
                        version: Int) async throws(PostgresStoreError) -> [(id: Int64, details: String?, file: MappingFile)] {
        var edited: [(Int64, String?, MappingFile)] = []
        for (to, file) in mappings.sorted(by: { $0.key < $1.key }) where to <= version {
            let statement: SQLText = """
                SELECT "id", "details" FROM "strata_history" WHERE "kind" = 'migrate' AND "toVersion" = CAST(\(to) AS integer) \
                ORDER BY "id" DESC LIMIT 1
                """
            // A store created at or after `to` never ran the step.
            guard let row = try await session.rows(statement).first else { continue }
            let details = row[1].bytes == nil ? nil : try PostgresSession.decode(row[1], as: String.self, statement: statement)
            if MappingState.recordedChecksum(details) != file.checksum {
                edited.append((try PostgresSession.decode(row[0], as: Int64.self, statement: statement), details, file))
            }
        }
        return edited
    }

    /// Drift items for edited mapping files.
    func mappingDriftItems(_ mappings: [Int: MappingFile], version: Int) async throws(PostgresStoreError) -> [DriftReport.Item] {
        try await editedMappings(mappings, version: version).map { MappingState.driftItem($0.file, recorded: MappingState.recordedChecksum($0.details)) }
    }

    /// Re-records the checksums of edited mapping files (after a person reviewed the edit), as
    /// `MappingState.repair` does on SQLite.
    ///
    /// ```swift
    /// let files = try await store.repairMappings(history.mappings, lockTimeout: 60)
    /// ```
    /// - Returns: the files re-recorded.
    /// - Throws: `PostgresStoreError.busy` (exit 5) when another run holds the lock; `PostgresLockWaitError` (exit 5)
    ///   when a statement waits longer than `ddlLockTimeout` for another session's lock; the server's errors.
    public func repairMappings(_ mappings: [Int: MappingFile], lockTimeout: Double, ddlLockTimeout: Double = 5) async throws -> [String] {
        try await locked(lockTimeout: lockTimeout, ddlLockTimeout: ddlLockTimeout) { metadata in
            var repaired: [String] = []
            for edited in try await self.editedMappings(mappings, version: metadata.version) {
                try await self.session.execute(#"UPDATE "strata_history" SET "details" = "#
                    + "\(MappingState.details(edited.details, recording: edited.file)) WHERE \"id\" = \(edited.id)")
                repaired.append(edited.file.file)
            }
            return repaired
        }
    }

    /// `body` in one transaction under the store's session and transaction locks, with the metadata read there;
    /// each statement waits at most `ddlLockTimeout` seconds for a lock another session holds.
    func locked<T: Sendable>(lockTimeout: Double, ddlLockTimeout: Double, _ body: (StoreMetadata) async throws -> T) async throws -> T {
        let lock = PostgresSessionLock(session: session, url: url)
        try await lock.acquire(timeout: lockTimeout)
        let result = try await session.transaction(lockTimeout: ddlLockTimeout) {
            try await session.execute("SELECT pg_advisory_xact_lock(\(lock.key))")
            return try await body(try await metadata())
        }
        try await lock.release()
        return result
    }
}
