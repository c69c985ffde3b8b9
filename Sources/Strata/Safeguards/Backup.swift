import Foundation
import GRDB

/// `--backup PATH`: a consistent copy of the store, written before the first change of a run.
///
/// The copy is written to a temporary file next to `PATH`, synced, then moved into place, so a
/// backup that exists is always complete. It is skipped when there is nothing to do: the caller
/// decides, and calls ``write(from:to:force:progress:)`` right before the first write.
/// ```swift
/// try Backup.checkDestination(options.backup, force: options.force, storePath: store.path)  // early, before any work
/// …
/// if !plan.isEmpty { try Backup.write(from: store, to: options.backup, force: options.force) }
/// ```
public enum Backup {
    /// What was written.
    public struct Result: Sendable, Hashable {
        public var path: String
        public var bytes: Int64
        public var duration: TimeInterval
    }

    /// Checks that a backup can be written to `path`, so a run fails before it starts rather than later.
    /// - Throws: ``PipelineError/backupExists(path:)`` (exit 2) when the file exists and `force` is false;
    ///   ``StorePathError/protectedOutput(option:path:what:)`` (exit 2) when `path` is the store, one of its
    ///   `-wal`/`-shm`/`-journal` files or its lock file (even with `force`);
    ///   ``PipelineError/backupFailed(path:detail:)`` (exit 1) when its directory is missing or not writable.
    public static func checkDestination(_ path: String, force: Bool, storePath: String) throws {
        // The store, its journals and lock file are never a backup's destination, whatever the spelling.
        try StorePath.checkOutput(path, option: "--backup", storePath: storePath, protectedFiles: [])
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw PipelineError.backupFailed(path: path, detail: "it is a directory") }
            if !force { throw PipelineError.backupExists(path: path) }
        }
        // A backup replaces a regular file only (`--force`): never a link, a device or a pipe, which
        // renaming the copy over would turn into a plain file (`--backup /dev/null` as root).
        var entry = stat()
        if lstat(path, &entry) == 0, (entry.st_mode & S_IFMT) != S_IFREG {
            throw PipelineError.backupFailed(path: path, detail: "it is a \(StorePath.kindName(entry.st_mode)), not a regular file")
        }
        let directory = StorePath.directoryOf(path)
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PipelineError.backupFailed(path: path, detail: "the directory '\(directory)' does not exist")
        }
        guard Preflight.isWritable(directory) else {
            throw PipelineError.backupFailed(path: path, detail: "the directory '\(directory)' is not writable")
        }
    }

    /// Writes a consistent copy of `store` to `path` (SQLite online backup API, one read transaction).
    ///
    /// Call it between steps, not from inside ``Store/read(_:)`` or ``Store/write(_:)`` (it reads through the same connection).
    /// - Parameters:
    ///   - store: the open store (the caller holds the ``StoreLock``).
    ///   - path: the backup file.
    ///   - force: replace an existing file at `path`.
    ///   - progress: reports pages copied.
    /// - Returns: the path, size and duration.
    /// - Throws: see ``checkDestination(_:force:storePath:)``; ``PipelineError/backupFailed(path:detail:)``
    ///   when writing fails (disk full, I/O). The store is never changed.
    @discardableResult
    public static func write(from store: Store, to path: String, force: Bool = false,
                             progress: ProgressCounter? = nil) throws -> Result {
        try checkDestination(path, force: force, storePath: store.path)
        let started = Date()
        TemporaryFiles.removeLeftovers(next: path, kind: "backup")   // what killed runs left
        let temporary = TemporaryFiles.path(next: path, kind: "backup")
        let registered = TemporaryFiles.databaseFiles(temporary)
        SignalCleanup.register(registered)
        defer {
            TemporaryFiles.removeDatabase(temporary)   // the file after link(2), or a failed copy with its journal
            SignalCleanup.unregister(registered)
        }
        do {
            try TemporaryFiles.createPrivateFile(temporary)   // 0600 while it is written: no window for others
            try StoreCopy.copy(from: store.queue, to: temporary, durable: true, progress: progress)
        } catch let error as DatabaseError {
            let detail = error.resultCode == .SQLITE_FULL ? "the disk is full" : (error.message ?? "\(error.resultCode)")
            throw PipelineError.backupFailed(path: path, detail: detail)
        } catch {
            throw PipelineError.backupFailed(path: path, detail: "\(error)")
        }
        // No wider than the store: a backup of a 0600 store is 0600.
        _ = chmod(temporary, TemporaryFiles.mode(of: store.path) & 0o666)
        // link(2) fails if `path` appeared meanwhile, so an existing file is never replaced without `force`.
        let moved = force ? rename(temporary, path) : link(temporary, path)
        let code = errno
        guard moved == 0 else {
            if code == EEXIST { throw PipelineError.backupExists(path: path) }
            throw PipelineError.backupFailed(path: path, detail: String(cString: strerror(code)))
        }
        try? StoreCopy.sync(StorePath.directoryOf(path))
        return Result(path: path, bytes: HotJournal.fileSize(path), duration: Date().timeIntervalSince(started))
    }
}
