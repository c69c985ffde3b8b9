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
    ///   ``PipelineError/backupFailed(path:detail:)`` (exit 1) when `path` is the store or its directory is
    ///   missing or not writable.
    public static func checkDestination(_ path: String, force: Bool, storePath: String) throws {
        if resolved(path) == resolved(storePath) {
            throw PipelineError.backupFailed(path: path, detail: "it is the store itself")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw PipelineError.backupFailed(path: path, detail: "it is a directory") }
            if !force { throw PipelineError.backupExists(path: path) }
        }
        let directory = Preflight.directoryOf(path)
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PipelineError.backupFailed(path: path, detail: "the directory '\(directory)' does not exist")
        }
        guard Preflight.isWritable(directory) else {
            throw PipelineError.backupFailed(path: path, detail: "the directory '\(directory)' is not writable")
        }
    }

    /// Writes a consistent copy of `store` to `path` (SQLite online backup API, one read transaction).
    ///
    /// Call it between steps, not from inside `store.queue` (it reads through the queue itself).
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
                             progress: ProgressReporter? = nil) throws -> Result {
        try checkDestination(path, force: force, storePath: store.path)
        let started = Date()
        let temporary = (Preflight.directoryOf(path) as NSString)
            .appendingPathComponent(".\((path as NSString).lastPathComponent).strata-tmp-\(UUID().uuidString.lowercased())")
        do {
            try StoreCopy.copy(from: store.queue, to: temporary, progress: progress)
        } catch let error as DatabaseError {
            try? FileManager.default.removeItem(atPath: temporary)
            let detail = error.resultCode == .SQLITE_FULL ? "the disk is full" : (error.message ?? "\(error.resultCode)")
            throw PipelineError.backupFailed(path: path, detail: detail)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw PipelineError.backupFailed(path: path, detail: "\(error)")
        }
        // link(2) fails if `path` appeared meanwhile, so an existing file is never replaced without `force`.
        let moved = force ? rename(temporary, path) : link(temporary, path)
        let code = errno
        if !force { unlink(temporary) }
        guard moved == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            if code == EEXIST { throw PipelineError.backupExists(path: path) }
            throw PipelineError.backupFailed(path: path, detail: String(cString: strerror(code)))
        }
        try? StoreCopy.sync(Preflight.directoryOf(path))
        return Result(path: path, bytes: HotJournal.fileSize(path), duration: Date().timeIntervalSince(started))
    }

    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
