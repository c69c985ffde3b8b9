import Foundation
import GRDB

/// A private, consistent copy of a store for a dry run (SPEC §9: a dry run never writes the store).
///
/// The source is checked without SQLite first (``Preflight/checkFile(atPath:forWriting:)``: not SQLite,
/// hot rollback journal), then opened read-only (see `StoreCopy.openSource`) and copied with the online backup API inside one read
/// transaction. The source's main file and `-wal` stay byte-identical; only the `-shm` index may change,
/// as for any reader. The copy lives in its own temporary directory, removed by ``remove()`` or when the
/// snapshot is released: keep the `Snapshot` alive as long as its `store` is used.
/// ```swift
/// let snapshot = try Snapshot.make(of: "app.sqlite")
/// defer { snapshot.remove() }
/// try migrator.run(on: snapshot.store)   // the real plan, on the copy
/// ```
public final class Snapshot: @unchecked Sendable {
    /// The store that was copied.
    public let sourcePath: String
    /// The copy.
    public let path: String
    /// The copy, opened with Strata's configuration.
    public let store: Store
    private let directory: String

    private init(sourcePath: String, path: String, store: Store, directory: String) {
        self.sourcePath = sourcePath
        self.path = path
        self.store = store
        self.directory = directory
    }

    deinit { remove() }

    /// Copies a store into a new temporary directory.
    /// - Parameters:
    ///   - storePath: the store to copy; it is only read.
    ///   - parent: where to create the snapshot's directory (default: the system's temporary directory;
    ///     it needs room for a copy of the store).
    ///   - busyTimeout: how long to wait for another process's write lock (rollback-journal stores).
    ///   - progress: reports pages copied (its unit should be `pages`).
    /// - Throws: `StoreError` (missing, not SQLite: exit 2; hot journal, corrupt, I/O: exit 1).
    public static func make(of storePath: String, in parent: String? = nil, busyTimeout: TimeInterval = 5,
                            progress: ProgressReporter? = nil) throws -> Snapshot {
        try Preflight.checkFile(atPath: storePath, forWriting: false)
        let base = parent ?? NSTemporaryDirectory()
        let directory = (base as NSString).appendingPathComponent("strata-snapshot-" + UUID().uuidString.lowercased())
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.other("cannot create the snapshot directory '\(directory)': \(error.localizedDescription)")
        }
        let copy = (directory as NSString).appendingPathComponent((storePath as NSString).lastPathComponent)
        do {
            let source = try StoreCopy.openSource(path: storePath, busyTimeout: busyTimeout)
            try StoreCopy.copy(from: source, to: copy, progress: progress)
            try source.close()
            return Snapshot(sourcePath: storePath, path: copy, store: try Store.open(path: copy), directory: directory)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            if let db = error as? DatabaseError, db.resultCode == .SQLITE_FULL {
                throw StoreError.other("no room for the snapshot in '\(base)': \(db.message ?? "disk full")")
            }
            throw StoreError.from(error, path: storePath)
        }
    }

    /// Deletes the copy (idempotent). The store object must not be used afterwards.
    public func remove() {
        try? store.queue.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
