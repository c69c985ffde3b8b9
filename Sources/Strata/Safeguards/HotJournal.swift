import Foundation

/// Detects a hot rollback journal without opening the store with SQLite.
///
/// A rollback journal (`<store>-journal`) is *hot* when a writer died mid-transaction: the file is
/// non-empty, starts with SQLite's journal magic, the store is non-empty, and no live process holds
/// the store's RESERVED lock (a live writer's journal is not hot). The first SQLite connection that
/// reads such a store rolls the journal back, i.e. *writes* the store, so a dry run must refuse it.
/// (SQLite's own test: `hasHotJournal()` in pager.c.)
public enum HotJournal {
    /// The 8 bytes every journal header starts with (pager.c `aJournalMagic`).
    static let magic: [UInt8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]
    /// SQLite's lock bytes (os.h): PENDING_BYTE is 0x40000000, RESERVED_BYTE the next one.
    static let reservedByte: off_t = 0x4000_0001

    /// Whether `<storePath>-journal` is hot. Reads files only.
    ///
    /// Call it before this process opens any SQLite connection to the store: it opens the store file to
    /// test the RESERVED lock, and closing that descriptor would drop POSIX locks this process holds on it.
    public static func isHot(storePath: String) -> Bool {
        let journal = StorePath.resolvedLocation(storePath) + "-journal"   // SQLite names it after the resolved path
        guard fileSize(journal) > 0, fileSize(storePath) > 0 else { return false }
        guard let header = readPrefix(journal, count: magic.count), header == magic else { return false }
        return !reservedLockHeld(storePath)
    }

    /// Refuses a store with a hot journal.
    /// - Throws: `StoreError.hotJournal` (exit 1), whose hint says how to recover.
    public static func check(storePath: String) throws {
        if isHot(storePath: storePath) { throw StoreError.hotJournal(path: storePath) }
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }

    static func readPrefix(_ path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        return read == count ? buffer : nil
    }

    /// Whether another process holds a lock on the store's RESERVED byte (a writer is alive).
    static func reservedLockHeld(_ storePath: String) -> Bool {
        let fd = open(storePath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = reservedByte
        lock.l_len = 1
        guard fcntl(fd, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }
}
