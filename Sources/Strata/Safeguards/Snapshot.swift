import Foundation
import GRDB

/// A private, consistent copy of a store for a dry run (SPEC §9: a dry run never writes the store).
///
/// The source is checked without SQLite first (``Preflight/checkFile(atPath:forWriting:)``: not SQLite,
/// hot rollback journal), then opened read-only (see `StoreCopy.openSource`) and copied with the online backup API inside one read
/// transaction. The source's main file and `-wal` stay byte-identical; only the `-shm` index may change,
/// as for any reader. The copy lives in its own temporary directory (mode 0700, the copy 0600), removed by
/// ``remove()``, when the snapshot is released, on SIGINT/SIGTERM (``SignalCleanup``), or, after a
/// SIGKILL, by the next snapshot: keep the `Snapshot` alive as long as its `store` is used.
/// ```swift
/// let snapshot = try Snapshot.make(of: "app.sqlite")
/// defer { snapshot.remove() }
/// try migrator.run(on: snapshot.store)   // the real plan, on the copy
/// ```
public final class Snapshot: @unchecked Sendable {
    /// The copy.
    public let path: String
    /// The copy, opened with Strata's configuration.
    public let store: Store
    private let directory: String
    private let registered: [String]

    private init(path: String, store: Store, directory: String, registered: [String]) {
        self.path = path
        self.store = store
        self.directory = directory
        self.registered = registered
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
                            progress: ProgressCounter? = nil) throws -> Snapshot {
        try Preflight.checkFile(atPath: storePath, forWriting: false)
        let base = parent ?? NSTemporaryDirectory()
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        // Snapshots of runs that were killed (SIGKILL, power loss) hold a full copy of a store: remove them.
        TemporaryFiles.removeLeftovers(in: base, prefix: directoryPrefix)
        let directory = (base as NSString).appendingPathComponent(directoryPrefix + "\(getpid())-" + UUID().uuidString.lowercased())
        // Private: only this user can enter the directory, and the copy is readable by its owner only.
        guard mkdir(directory, 0o700) == 0, chmod(directory, 0o700) == 0 else {
            throw StoreError.other("cannot create the snapshot directory '\(directory)': \(String(cString: strerror(errno)))")
        }
        let copy = (directory as NSString).appendingPathComponent((storePath as NSString).lastPathComponent)
        let registered = TemporaryFiles.databaseFiles(copy) + [directory]
        SignalCleanup.register(registered)
        do {
            try TemporaryFiles.createPrivateFile(copy)
            let source = try StoreCopy.openSource(path: storePath, busyTimeout: busyTimeout)
            if try !StoreCopy.copyFile(from: source, sourcePath: storePath, to: copy, progress: progress) {
                try StoreCopy.copy(from: source, to: copy, durable: false, progress: progress)
            }
            try source.close()
            let store = try Store.open(path: copy)
            // Nothing survives a snapshot, so the run on it needs no durability: no fsync, and the rollback
            // journal in memory (ROLLBACK still works). Without this a dry run cost more than its parts,
            // the copy plus the real run (issue 13: 1.04–1.05×, example v3→v4 at 1,000,000 rows).
            try store.queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = OFF")
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = MEMORY")
            }
            return Snapshot(path: copy, store: store, directory: directory, registered: registered)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            SignalCleanup.unregister(registered)
            if let db = error as? DatabaseError, db.resultCode == .SQLITE_FULL {
                throw StoreError.other("no room for the snapshot in '\(base)': \(db.message ?? "disk full")")
            }
            if case PipelineError.diskFull(_, let detail)? = error as? PipelineError {
                throw StoreError.other("no room for the snapshot in '\(base)': \(detail)")
            }
            throw StoreError.from(error, path: storePath)
        }
    }

    /// Snapshot directories are `strata-snapshot-<pid>-<uuid>`.
    static let directoryPrefix = "strata-snapshot-"

    /// Deletes the copy (idempotent). The store object must not be used afterwards.
    public func remove() {
        try? store.queue.close()
        try? FileManager.default.removeItem(atPath: directory)
        SignalCleanup.unregister(registered)
    }
}
