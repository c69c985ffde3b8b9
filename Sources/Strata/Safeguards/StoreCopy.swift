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

    /// Copies the main file of a rollback-journal store byte for byte into `destination` (an existing,
    /// empty file), inside one read transaction on `source`: its SHARED lock keeps every writer out of the
    /// main file until the copy is done, so the bytes are one committed state. Returns false, copying
    /// nothing, where this does not apply (a WAL store, whose latest pages may live in `-wal`; a platform
    /// without `sendfile` between files): the caller uses ``copy(from:to:durable:progress:)`` instead.
    ///
    /// Measured for the dry run's snapshot (issue 13; 165 MB store, page cache warm): `sendfile` 96–208 ms,
    /// the online backup API (`sqlite3 .backup`) 234–976 ms in the same minutes. The backup API reads and
    /// writes every page through SQLite's pager; the kernel copies the file without leaving it.
    static func copyFile(from source: DatabaseQueue, sourcePath: String, to destination: String,
                         progress: ProgressCounter?) throws -> Bool {
        #if os(Linux)
        guard HotJournal.readPrefix(sourcePath, count: 20).map({ $0[18] == 1 && $0[19] == 1 }) == true else { return false }
        return try source.inDatabase { db in
            var copied = false
            try db.inTransaction(.deferred) {
                // The first read takes the SHARED lock and checks the store is still in rollback mode.
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" else { return .commit }
                try sendFile(sourcePath, to: destination, progress: progress)
                copied = true
                return .commit
            }
            return copied
        }
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// The kernel's file-to-file copy, in steps of 64 MiB so progress moves.
    private static func sendFile(_ path: String, to destination: String, progress: ProgressCounter?) throws {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw StoreError.other("cannot open '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard output >= 0 else { throw StoreError.other("cannot open '\(destination)': \(String(cString: strerror(errno)))") }
        defer { close(output) }
        let size = HotJournal.fileSize(path)
        let pageSize: Int64 = 4096
        progress?.setTotal(Int((size + pageSize - 1) / pageSize))
        var done: Int64 = 0
        while done < size {
            let n = sendfile(output, input, nil, Int(min(size - done, 64 << 20)))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let code = errno
                if code == ENOSPC || code == EDQUOT { throw PipelineError.diskFull(path: destination, detail: String(cString: strerror(code))) }
                throw StoreError.other("cannot copy '\(path)': \(n == 0 ? "the file shrank" : String(cString: strerror(code)))")
            }
            done += Int64(n)
            progress?.update(done: Int((done + pageSize - 1) / pageSize))
        }
        progress?.finish()
    }
    #endif

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
            && !FileManager.default.fileExists(atPath: StorePath.resolvedLocation(path) + "-wal")   // named after the resolved path
        config.readonly = !walWithoutFile
        if walWithoutFile {
            config.prepareDatabase { try $0.execute(sql: "PRAGMA query_only = 1") }
        }
        config.busyMode = .timeout(busyTimeout)
        config.label = "strata.copy-source"
        return try DatabaseQueue(path: path, configuration: config)
    }
}
