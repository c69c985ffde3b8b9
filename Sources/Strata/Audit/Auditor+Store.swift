import Foundation

extension Auditor {
    /// An auditor for the store's recorded version, with the model `strata audit` uses: the version's model
    /// from `modelsDirectory` when that directory exists (validation rules change without a migration),
    /// checked against the entity hashes the store recorded; else the copy of the model the store recorded.
    ///
    /// ```swift
    /// let store = try Store.open(path: "app.sqlite", readOnly: true)
    /// let auditor = try Auditor(store: store, modelsDirectory: "models")
    /// let result = try auditor.run(on: store, scope: .full)
    /// ```
    /// - Parameters:
    ///   - store: the store to audit.
    ///   - modelsDirectory: a directory of model files; nil, or a path that is not a directory, uses the recorded model.
    ///   - warnings: receives the model files' warnings, once, before any error is thrown.
    /// - Throws: `DiagnosticList` for model files that do not load; `MigrationError.drift` when the directory's
    ///   model of the store's version differs from the recorded one; `StoreError` for a store without metadata.
    public init(store: Store, modelsDirectory: String?, warnings: ([Diagnostic]) -> Void = { _ in }) throws {
        var history: ModelHistory?
        var isDirectory: ObjCBool = false
        if let modelsDirectory, FileManager.default.fileExists(atPath: modelsDirectory, isDirectory: &isDirectory), isDirectory.boolValue {
            history = try ModelHistory.load(directory: modelsDirectory)
            warnings(history!.warnings)
        }
        try self.init(store: store, history: history)
    }

    /// An auditor for the store's recorded version with the model `history` has for it (checked against the
    /// entity hashes the store recorded), else the copy of the model the store recorded. A fleet loads the
    /// model files once and audits each store with this.
    /// - Throws: `MigrationError.drift` when `history`'s model of the store's version differs from the recorded
    ///   one; `StoreError` for a store without metadata.
    public init(store: Store, history: ModelHistory?) throws {
        let metadata = try store.metadata()
        let model = try Self.model(of: metadata, storePath: store.path, history: history)
        self.init(model: model, layout: metadata.layout, storeUUID: metadata.storeUUID)
    }

    package static func model(of metadata: StoreMetadata, storePath: String, history: ModelHistory?) throws -> Model {
        if let model = history?.model(version: metadata.version) {
            let hashes = VersionHash.entityHashes(of: model)
            if hashes != metadata.entityHashes {
                throw MigrationError.drift(DriftReport(storeVersion: metadata.version, items: [DriftReport.Item(
                    .modelHash, expected: "recorded model hash \(metadata.modelHash.prefix(12))…",
                    found: "\(model.file) gives \(VersionHash.modelHash(fromEntityHashes: hashes).prefix(12))…")]))
            }
            return model
        }
        return try ModelLoader.load(yaml: metadata.modelYAML, file: "\(storePath) (recorded model, version \(metadata.version))")
    }
}
