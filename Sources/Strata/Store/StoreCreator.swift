import Foundation
import GRDB

/// Creates a new store at a model version: schema, metadata and a history row in one transaction.
///
/// The store is built in a temporary file next to `path` and linked into place only once it is
/// complete (SPEC §9: a kill at any instant leaves no half-made store, and the rerun completes): a file
/// at `path` is always a whole store.
public enum StoreCreator {
    /// Creates a store with `model`'s tables and its metadata, recorded as created at `model.version`.
    ///
    /// ```swift
    /// let history = try ModelHistory.load(directory: "models")
    /// let store = try StoreCreator.create(at: "app.sqlite", model: history.latest!)
    /// ```
    /// - Parameters:
    ///   - path: where to create the file; it must not exist yet.
    ///   - model: the version to create the store at.
    /// - Returns: the open store.
    /// - Throws: `StorePathError.notARegularFile` when `path` is a symbolic link loop (exit 2);
    ///   `StoreError` when the directory is missing or not writable, the file appeared meanwhile,
    ///   or SQLite fails (disk full: `PipelineError.diskFull`).
    @discardableResult
    public static func create(at path: String, model: Model) throws -> Store {
        try create(at: path, model: model, inTransaction: { _, _ in })
    }

    /// ``create(at:model:)`` with `inTransaction`, extra work in the same transaction (e.g. recording hooks
    /// as not needed).
    @discardableResult
    static func create(at path: String, model: Model, inTransaction: (Database, StoreMetadata) throws -> Void) throws -> Store {
        let given = path
        var path = path
        var info = stat()
        if StorePath.isLinkLoop(path) { throw StorePathError.notARegularFile(path: path, kind: "symbolic link loop") }
        if lstat(path, &info) == 0 {
            // A symlink to a store that does not exist yet (`current.sqlite` → `releases/7/app.sqlite`):
            // create its target. Anything else at the path is an existing file.
            guard (info.st_mode & S_IFMT) == S_IFLNK, stat(path, &info) != 0 else { throw exists(path) }
            path = StorePath.resolvedLocation(path)
        }
        let directory = PathText.directory(of: path)
        var isDirectory: ObjCBool = false
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw StoreError.missingDirectory(path: path)
        }
        if !Preflight.isWritable(directory.isEmpty ? "." : directory) { throw StoreError.readOnly(path: path) }
        TemporaryFiles.removeLeftovers(next: path, kind: "create")   // what killed creations left
        let temporary = TemporaryFiles.path(next: path, kind: "create")
        let registered = TemporaryFiles.databaseFiles(temporary)
        SignalCleanup.register(registered)
        defer {
            TemporaryFiles.removeDatabase(temporary)
            SignalCleanup.unregister(registered)
        }
        do {
            let building = try Store.connect(path: temporary)
            try building.queue.inDatabase { db in
                try db.inTransaction(.immediate) {
                    try build(db, model: model, inTransaction: inTransaction)
                    return .commit
                }
            }
            try building.queue.close()
            try StoreCopy.sync(temporary)
        } catch let error as DatabaseError {
            throw PipelineError.mapWriteError(error, path: path)
        }
        // link(2) never replaces a file: a store another process created meanwhile stays as it is.
        if link(temporary, path) != 0 {
            var code = errno
            if code == EEXIST { throw exists(path) }
            // A file system without hard links: rename, after checking again that nothing is there.
            if code == EPERM || code == ENOTSUP || code == EOPNOTSUPP, lstat(path, &info) != 0 {
                code = rename(temporary, path) == 0 ? 0 : errno
            }
            if code != 0 { throw StoreError.other("cannot create '\(path)': \(String(cString: strerror(code)))") }
        }
        try? StoreCopy.sync(directory.isEmpty ? "." : directory)
        return try Store.open(path: given)
    }

    /// Builds a store on `db`, inside the caller's transaction: Strata's tables, the model's tables and
    /// indexes, the metadata, a `create` history row, then `inTransaction`.
    @discardableResult
    static func build(_ db: Database, model: Model, inTransaction: (Database, StoreMetadata) throws -> Void) throws -> StoreMetadata {
        let started = Date()
        let layout = LayoutBuilder.layout(for: model)
        let metadata = StoreMetadata(storeUUID: UUID().uuidString.lowercased(), model: model, layout: layout,
                                     createdAtVersion: model.version)
        try StoreMetadata.createTables(db)
        for statement in SchemaSQL.createStatements(for: layout) { try db.execute(statement) }
        try metadata.write(db)
        try History.record(db, kind: "create", from: nil, to: model.version, started: started, finished: Date())
        try inTransaction(db, metadata)
        return metadata
    }

    static func exists(_ path: String) -> StoreError { StoreError.exists(path: path) }
}
