import Foundation
import GRDB

/// `strata adopt --version N`: baselines an SQLite file that has no Strata metadata (SPEC §8).
public enum StoreAdoption {
    /// Checks that the live schema is version `model`'s layout, then records the metadata as if the
    /// store had been created at that version (hooks with `after` ≤ N are not needed), in one transaction.
    /// - Throws: `MigrationError.drift` (exit 6) with every difference when the schema does not match;
    ///   `StoreError.other` when the file already has Strata metadata.
    @discardableResult
    public static func adopt(_ store: Store, model: Model, hooks: HookSet) throws -> StoreMetadata {
        let layout = LayoutBuilder.layout(for: model)
        let metadata = StoreMetadata(storeUUID: UUID().uuidString.lowercased(), model: model, layout: layout,
                                     createdAtVersion: model.version)
        let started = Date()
        try store.wrap {
            try store.queue.inDatabase { db in
                try db.inTransaction(.immediate) {
                    if try StoreMetadata.exists(db) {
                        throw StoreError.other("'\(store.path)' already has Strata metadata (version \(try StoreMetadata.read(db)?.version ?? 0))")
                    }
                    let report = try DriftDetector.check(db, metadata: metadata, model: model)
                    guard report.isEmpty else { throw MigrationError.drift(report) }
                    try StoreMetadata.createTables(db)
                    try metadata.write(db)
                    try History.record(db, kind: "adopt", from: nil, to: model.version, started: started, finished: Date())
                    try HookState.recordNotNeeded(db, hooks: hooks, createdAt: model.version)
                    return .commit
                }
            }
        }
        return metadata
    }
}
