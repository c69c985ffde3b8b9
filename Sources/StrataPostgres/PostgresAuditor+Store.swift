import Foundation
import StrataCore
import Strata

extension Auditor {
    /// An auditor for the store's recorded version, with the model `strata audit` uses, as on SQLite: the
    /// version's model from `history` (checked against the entity hashes the store recorded), else the copy
    /// of the model the store recorded.
    /// - Throws: `MigrationError.drift` when `history`'s model of the store's version differs from the recorded
    ///   one; `StoreError` for unreadable metadata; `PostgresStoreError` from the server.
    public init(store: PostgresStore, history: ModelHistory?) async throws {
        let metadata = try await store.metadata()
        let model = try Self.model(of: metadata, storePath: store.url.description, history: history)
        self.init(model: model, layout: metadata.layout, storeUUID: metadata.storeUUID)
    }
}
