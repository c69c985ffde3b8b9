import Foundation
import GRDB

/// Checks run before a migration touches anything, each throwing the documented error (SPEC §8, §10):
/// missing directory or store (2), not SQLite (2), read-only file or directory (1), hot journal in a
/// read-only run (1), corrupt database (1), store newer than the newest model (6).
///
/// Order for `migrate`: ``checkFile(atPath:forWriting:)`` before opening the store (it reads bytes only),
/// then open, take the lock, ``checkIntegrity(_:)`` and ``checkVersion(_:history:path:)``.
public enum Preflight {
    /// The 16 bytes every SQLite database file starts with.
    static let header = Array("SQLite format 3\u{0}".utf8)

    /// Checks the store file without opening it with SQLite (so it cannot change it).
    ///
    /// A file without any write permission bit counts as read-only even for root, which could write it
    /// anyway: someone made it read-only on purpose.
    /// - Parameters:
    ///   - path: the store.
    ///   - forWriting: a real run (needs the file and its directory writable, for the journal or WAL);
    ///     false for a dry run, which also refuses a hot rollback journal.
    /// - Throws: `StoreError.missingDirectory` / `.missing` / `.notADatabase`, `StorePathError.notARegularFile`
    ///   (exit 2), `StoreError.readOnly` / `.hotJournal` (exit 1).
    public static func checkFile(atPath path: String, forWriting: Bool) throws {
        let directory = StorePath.directoryOf(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StoreError.missingDirectory(path: path)
        }
        // A FIFO would block the first read forever; a link loop "does not exist" to fileExists.
        try StorePath.checkRegularFile(path)
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missing(path: path) }
        guard access(path, R_OK) == 0 else { throw StoreError.other("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        if HotJournal.fileSize(path) > 0 {
            guard let prefix = HotJournal.readPrefix(path, count: header.count), prefix == header else {
                throw StoreError.notADatabase(path: path)
            }
        }
        if forWriting {
            if !isWritable(path) || !isWritable(directory) { throw StoreError.readOnly(path: path) }
        } else {
            try HotJournal.check(storePath: path)
        }
    }

    /// Runs `PRAGMA quick_check` (or the slower, complete `integrity_check` when `full`) and refuses a corrupt store.
    /// - Throws: `StoreError.corrupt` (exit 1) with SQLite's first messages; `StoreError.notADatabase` (exit 2).
    static func checkIntegrity(_ db: Database, path: String, full: Bool = false) throws {
        let messages: [String]
        do {
            messages = try String.fetchAll(db, sql: full ? "PRAGMA integrity_check(20)" : "PRAGMA quick_check(20)")
        } catch {
            throw StoreError.from(error, path: path)
        }
        guard messages != ["ok"] else { return }
        let detail = messages.prefix(3).joined(separator: "; ") + (messages.count > 3 ? "; …" : "")
        throw StoreError.corrupt(path: path, detail: detail.isEmpty ? "integrity check failed" : detail)
    }

    /// ``checkIntegrity(_:path:full:)`` on an open store.
    public static func checkIntegrity(_ store: Store, full: Bool = false) throws {
        do {
            try store.queue.read { try checkIntegrity($0, path: store.path, full: full) }
        } catch let error as StrataError {
            throw error
        } catch {
            throw StoreError.from(error, path: store.path)
        }
    }

    /// Refuses a store whose version is above the newest model: a later app version wrote it.
    /// - Throws: ``PipelineError/newerThanModels(path:storeVersion:newestModel:)`` (exit 6).
    public static func checkVersion(_ metadata: StoreMetadata, history: ModelHistory, path: String) throws {
        guard let newest = history.latest?.version, metadata.version > newest else { return }
        throw PipelineError.newerThanModels(path: path, storeVersion: metadata.version, newestModel: newest)
    }

    /// Writable by this process, and with at least one write permission bit.
    static func isWritable(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return access(path, W_OK) == 0 && (info.st_mode & 0o222) != 0
    }
}
