import StrataCore
import Strata

/// `strata status` on a PostgreSQL store: version, hashes, drift, pending versions and hooks.
///
/// ```swift
/// let status = try await PostgresStatus.read(url, models: history, hooks: hooks)
/// print(status.version, status.pendingVersions)
/// ```
public struct PostgresStatus: Sendable, Hashable, Encodable {
    public var store: String
    /// The store as SQLite's `StoreStatus.path` names it, so that one JSON shape serves both engines: the URL
    /// (its password never shown), as ``store``.
    public var path: String
    public var storeUUID: String
    public var version: Int
    public var latestVersion: Int?
    public var createdAtVersion: Int
    public var modelHash: String
    /// Whether the recorded model hash is the hash of the model file of the store's version.
    public var hashMatches: Bool
    public var pendingVersions: [Int]
    /// Hooks that will run when the store passes their version.
    public var pendingHooks: [String]
    /// Hooks whose version the store passed by migrating before they appeared.
    public var lateHooks: [String]
    /// How the store differs from its recorded version: hashes, the live catalog against the layout, edited
    /// hook files (as SQLite's `StoreStatus.drift`).
    public var drift: [DriftReport.Item] = []
    /// The user keys of `strata_metadata` (`strata meta set`), as SQLite's `StoreStatus.userMetadata`.
    public var userMetadata: [String: String] = [:]
    /// The store's recorded layout, the source of its pending steps (not in the JSON document).
    public var layout: StoreLayout

    enum CodingKeys: String, CodingKey {
        case store, storeUUID, version, latestVersion, createdAtVersion, modelHash, hashMatches, pendingVersions, pendingHooks
        case lateHooks, drift, path, userMetadata
    }

    /// What `strata status` exits with and the diagnostics that explain it, by SQLite's rules
    /// (`StoreStatus.exitCode`): drift (or a model hash that is not the model file's) is 6; with `check`, late
    /// hooks 6, a pending step that cannot be inferred 4 (named as `migrate` names it), other pending work 7
    /// (a declared Swift stage `stages` lacks, named); else 0.
    public func exitCode(check: Bool, history: ModelHistory, hooks: HookSet, stages: Stages) -> (code: ExitStatus, diagnostics: [Diagnostic]) {
        if !hashMatches && drift.isEmpty { return (.drift, []) }
        return StoreStatus.exitCode(check: check, version: version, latestVersion: latestVersion, drift: drift, pendingHooks: pendingHooks,
                                    lateHooks: lateHooks, hasPendingWork: !pendingVersions.isEmpty || !pendingHooks.isEmpty || !lateHooks.isEmpty,
                                    history: history, hooks: hooks, layout: layout, stages: stages)
    }

    /// Reads the store's status.
    /// - Throws: `PostgresStoreError` (missing store 2, server 1); `StoreError.corrupt` for unreadable metadata.
    public static func read(_ url: PostgresStoreURL, models: ModelHistory, hooks: HookSet) async throws -> PostgresStatus {
        let store = try await PostgresStore.open(url)
        do {
            try await PostgresPrivileges.checkUsage(store.session)
            let metadata = try await store.metadata()
            let records = try await store.hookRecords()
            let current = models.models.first { $0.version == metadata.version }
            let drift = try await PostgresDriftDetector.check(store, metadata: metadata, model: current).items
                + store.hookState(hooks, metadata: metadata).driftItems + store.mappingDriftItems(models.mappings, version: metadata.version)
            let user = Dictionary(try await store.userMetadata().map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            await store.close()
            let unrecorded = hooks.hooks.filter { records[$0.id] == nil && $0.after > metadata.createdAtVersion }
            return PostgresStatus(
                store: url.description, path: url.description, storeUUID: metadata.storeUUID, version: metadata.version,
                latestVersion: models.latest?.version, createdAtVersion: metadata.createdAtVersion, modelHash: metadata.modelHash,
                hashMatches: current.map { VersionHash.modelHash(of: $0) == metadata.modelHash } ?? false,
                pendingVersions: models.models.map(\.version).filter { $0 > metadata.version },
                pendingHooks: unrecorded.filter { $0.after > metadata.version }.map(\.id),
                lateHooks: unrecorded.filter { $0.after <= metadata.version }.map(\.id), drift: drift, userMetadata: user,
                layout: metadata.layout)
        } catch {
            await store.close()
            throw error
        }
    }
}
