import Foundation
import GRDB

/// A store's state against the model files: what `strata status` reports.
public struct StoreStatus: Sendable, Codable, Hashable {
    public var path: String
    public var storeUUID: String
    public var version: Int
    public var createdAtVersion: Int
    public var modelHash: String
    public var latestVersion: Int?
    public var pendingVersions: [Int]
    public var pendingHooks: [String]
    /// Hooks refused until `--run-late-hooks` (their version was passed before they appeared).
    public var lateHooks: [String]
    public var drift: [DriftReport.Item]
    public var userMetadata: [String: String]

    public var hasPendingWork: Bool { !pendingVersions.isEmpty || !pendingHooks.isEmpty || !lateHooks.isEmpty }

    /// Reads a store's status: drift (hashes, live schema, edited hooks) and pending work.
    public static func read(store: Store, history: ModelHistory, hooks: HookSet) throws -> StoreStatus {
        try store.wrap {
            try store.queue.read { db in
                guard let metadata = try StoreMetadata.read(db) else { throw StoreError.notAdopted(path: store.path) }
                let hookState = try HookState.read(db, metadata: metadata, hooks: hooks)
                let drift = try DriftDetector.check(db, metadata: metadata, model: history.model(version: metadata.version)).items
                    + hookState.driftItems + MappingState.driftItems(db, mappings: history.mappings, version: metadata.version)
                let user = Dictionary(try StoreMetadata.userValues(db).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
                return StoreStatus(
                    path: store.path, storeUUID: metadata.storeUUID, version: metadata.version,
                    createdAtVersion: metadata.createdAtVersion, modelHash: metadata.modelHash,
                    latestVersion: history.latest?.version,
                    pendingVersions: history.versions.filter { $0 > metadata.version },
                    pendingHooks: hookState.pending, lateHooks: hookState.late, drift: drift, userMetadata: user)
            }
        }
    }
}
