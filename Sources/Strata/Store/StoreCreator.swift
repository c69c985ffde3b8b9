import Foundation
import GRDB

/// Creates a new store at a model version: schema, metadata and a history row in one transaction.
public enum StoreCreator {
    /// - Parameters:
    ///   - path: where to create the file; it must not exist yet.
    ///   - model: the version to create the store at.
    ///   - inTransaction: extra work in the same transaction (e.g. recording hooks as not needed).
    /// - Returns: the open store.
    /// - Throws: `StoreError` when the directory is missing or not writable, or SQLite fails.
    @discardableResult
    public static func create(at path: String, model: Model,
                              inTransaction: (Database, StoreMetadata) throws -> Void = { _, _ in }) throws -> Store {
        if FileManager.default.fileExists(atPath: path) {
            throw StoreError.other("'\(path)' already exists; use `strata adopt` to baseline an existing database")
        }
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw StoreError.missingDirectory(path: path)
        }
        if !directory.isEmpty, !FileManager.default.isWritableFile(atPath: directory) { throw StoreError.readOnly(path: path) }
        let store = try Store.connect(path: path)
        let started = Date()
        let layout = LayoutBuilder.layout(for: model)
        let metadata = StoreMetadata(storeUUID: UUID().uuidString.lowercased(), model: model, layout: layout,
                                     createdAtVersion: model.version)
        do {
            try store.queue.inDatabase { db in
                try db.inTransaction(.immediate) {
                    try StoreMetadata.createTables(db)
                    for statement in SchemaSQL.createStatements(for: layout) { try db.execute(sql: statement) }
                    try metadata.write(db)
                    try History.record(db, kind: "create", from: nil, to: model.version, started: started, finished: Date())
                    try inTransaction(db, metadata)
                    return .commit
                }
            }
        } catch let error as DatabaseError {
            try? FileManager.default.removeItem(atPath: path)
            throw StoreError.from(error, path: path)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        return store
    }
}
