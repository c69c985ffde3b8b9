import Foundation
import GRDB

/// A consistent page-by-page copy of a database with SQLite's online backup API.
///
/// The whole copy runs inside one read transaction on the source, so it is one consistent state of
/// the store even while another process writes (in WAL mode writers go on; in rollback mode they wait
/// for the copy), and it never restarts. Used by ``Snapshot`` and ``Backup``.
enum StoreCopy {
    /// Pages per backup step: progress is reported after each step.
    static let pagesPerStep: CInt = 1024

    /// Copies `source` into a new file at `destination` (which must not exist) and, when `durable`, syncs
    /// it to disk (a backup must survive a crash; a dry run's snapshot is thrown away and skips the sync).
    /// - Throws: `DatabaseError` from SQLite (the partial file is removed).
    static func copy(from source: any DatabaseReader, to destination: String, durable: Bool,
                     progress: ProgressCounter?) throws {
        do {
            let target = try DatabaseQueue(path: destination)
            try source.backup(to: target, pagesPerStep: pagesPerStep) { step in
                progress?.setTotal(step.totalPageCount)
                progress?.update(done: step.completedPageCount)
            }
            try target.close()
            if durable { try sync(destination) }
            progress?.finish()
        } catch {
            progress?.finish()
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
    }

    /// `fsync` of a file or directory.
    static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.other("cannot open '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StoreError.other("cannot sync '\(path)': \(String(cString: strerror(errno)))") }
    }

    /// A connection for copying a store that must not change.
    ///
    /// Read-only, except for a WAL-mode store without a `-wal` file: any SQLite reader of such a store
    /// creates the `-wal`, and only a read-write connection deletes it again when it closes (a read-only
    /// one would leave an empty `-wal` behind). That connection runs with `PRAGMA query_only` and only
    /// reads; closing it checkpoints nothing, since nobody wrote. (Check for a hot journal first.)
    static func openSource(path: String, busyTimeout: TimeInterval) throws -> DatabaseQueue {
        var config = Configuration()
        let walWithoutFile = HotJournal.readPrefix(path, count: 20).map { $0[18] == 2 } == true
            && !FileManager.default.fileExists(atPath: path + "-wal")
        config.readonly = !walWithoutFile
        if walWithoutFile {
            config.prepareDatabase { try $0.execute(sql: "PRAGMA query_only = 1") }
        }
        config.busyMode = .timeout(busyTimeout)
        config.label = "strata.copy-source"
        return try DatabaseQueue(path: path, configuration: config)
    }
}
