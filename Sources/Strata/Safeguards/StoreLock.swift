import Foundation

/// Who holds a store's lock, as written into `<store>-strata.lock` by the holder.
public struct LockHolder: Sendable, Hashable, CustomStringConvertible {
    public var pid: Int32
    public var host: String
    /// When the holder took the lock (ISO 8601), when recorded.
    public var since: String?

    public init(pid: Int32, host: String, since: String? = nil) {
        self.pid = pid
        self.host = host
        self.since = since
    }

    /// `pid 4242 on host build-7 (since 2024-05-01T10:00:00Z)`.
    public var description: String {
        "pid \(pid) on host \(host)" + (since.map { " (since \($0))" } ?? "")
    }

    /// The file's text: `pid: N`, `host: H`, `since: T` lines.
    var fileText: String {
        "pid: \(pid)\nhost: \(host)\n" + (since.map { "since: \($0)\n" } ?? "")
    }

    /// Parses the file's text; nil when it is empty or incomplete (the holder has not written it yet).
    init?(fileText: String) {
        var fields: [String: String] = [:]
        for line in fileText.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard let pidText = fields["pid"], let pid = Int32(pidText), let host = fields["host"] else { return nil }
        self.init(pid: pid, host: host, since: fields["since"])
    }

    /// This process.
    static var current: LockHolder {
        var buffer = [UInt8](repeating: 0, count: 256)
        let ok = buffer.withUnsafeMutableBytes { gethostname($0.baseAddress!.assumingMemoryBound(to: CChar.self), 255) } == 0
        let host = ok ? String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self) : "unknown"
        return LockHolder(pid: getpid(), host: host, since: DateText.utc(Date().timeIntervalSince1970, milliseconds: false))
    }
}

/// An exclusive OS lock (`flock(2)`) on `<store>-strata.lock`, held for a whole run (SPEC §9).
///
/// The OS releases the lock when the process exits or is killed, so no stale lock survives a crash;
/// the file itself stays (deleting lock files races with other lockers) and only names the last holder.
/// flock locks belong to an open file description: two `acquire` calls in one process conflict too.
/// ```swift
/// let lock = try StoreLock.acquire(storePath: "app.sqlite", timeout: 60)
/// defer { lock.release() }
/// if lock.waited { /* another run finished first: re-read the store, it may have nothing to do */ }
/// ```
public final class StoreLock: @unchecked Sendable {
    /// Whether another process held the lock when we asked, so that we had to wait for it.
    public let waited: Bool

    private let mutex = NSLock()
    private var fd: Int32

    private init(fd: Int32, waited: Bool) {
        self.fd = fd
        self.waited = waited
    }

    deinit { release() }

    /// The lock file of a store: `<store>-strata.lock`, next to the file the path resolves to, so that a
    /// store reached through a symlink has one lock (spelled as given when the name is not a link).
    public static func lockPath(forStore storePath: String) -> String {
        let resolved = StorePath.resolvedLocation(storePath)
        let directory = StorePath.realPath(StorePath.directoryOf(storePath)) ?? StorePath.directoryOf(storePath)
        let spelled = (directory as NSString).appendingPathComponent((storePath as NSString).lastPathComponent)
        return (spelled == resolved ? storePath : resolved) + "-strata.lock"
    }

    /// Takes the store's lock, polling until `timeout` seconds have passed.
    /// - Parameters:
    ///   - storePath: the store (it need not exist yet; its directory must).
    ///   - timeout: seconds to wait for another holder (0: try once).
    ///   - pollInterval: seconds between attempts.
    ///   - onWait: called once, with the current holder when known, when the lock is taken and we start waiting
    ///     (the CLI prints "waiting for …").
    /// - Returns: the held lock; release it with ``release()`` (or let it go out of scope).
    /// - Throws: ``PipelineError/storeBusy(storePath:lockPath:holder:timeout:)`` (exit 5) on timeout;
    ///   `StoreError.missingDirectory` / `.readOnly` when the lock file cannot be created;
    ///   ``StorePathError/unsafeLockFile(lockPath:detail:)`` (exit 2) when the lock path is a symlink, not a
    ///   regular file, a file with other hard links, or a file that is not a lock record (it is never
    ///   followed, written or truncated); ``PipelineError/lockFailed(lockPath:detail:)`` for other OS errors.
    public static func acquire(storePath: String, timeout: TimeInterval = 60, pollInterval: TimeInterval = 0.05,
                               onWait: ((LockHolder?) -> Void)? = nil) throws -> StoreLock {
        let lockPath = lockPath(forStore: storePath)
        let fd = try openLockFile(lockPath, storePath: storePath)
        var wait = Wait(start: Date(), timeout: timeout, pollInterval: pollInterval)
        while let pause = try wait.next(fd, storePath: storePath, lockPath: lockPath, onWait: onWait) {
            usleep(useconds_t(pause * 1_000_000))
        }
        return claim(fd, waited: wait.waited)
    }

    /// One try at the lock on an open lock file: true when taken, false when another holder has it.
    /// - Throws: ``PipelineError/lockFailed(lockPath:detail:)`` for OS errors (the file is closed).
    static func attempt(_ fd: Int32, lockPath: String) throws -> Bool {
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK else {
                close(fd)
                throw PipelineError.lockFailed(lockPath: lockPath, detail: String(cString: strerror(code)))
            }
            return false
        }
    }

    /// The timeout error, naming the current holder; closes the lock file.
    static func busy(_ fd: Int32, storePath: String, lockPath: String, timeout: TimeInterval) -> PipelineError {
        let holder = readHolder(fd: fd)
        close(fd)
        return PipelineError.storeBusy(storePath: storePath, lockPath: lockPath, holder: holder, timeout: timeout)
    }

    /// The lock just taken on `fd`, its file naming us for whoever waits next (the file is a lock record,
    /// checked when opened).
    static func claim(_ fd: Int32, waited: Bool) -> StoreLock {
        let text = Array(LockHolder.current.fileText.utf8)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(fd, off_t(text.count))
        return StoreLock(fd: fd, waited: waited)
    }

    /// Opens (creating it when missing) the lock file without following a symlink, and checks that it is
    /// ours to write: a regular file with one name, empty or holding a lock record.
    static func openLockFile(_ lockPath: String, storePath: String) throws -> Int32 {
        // A new lock file is readable by no one the store is not readable by (it names the holder's host).
        let storeMode = TemporaryFiles.mode(of: storePath)
        let mode: mode_t = storeMode == 0 ? 0o644 : (storeMode & 0o644) | 0o600
        let fd = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode)
        guard fd >= 0 else {
            let code = errno
            var info = stat()
            if code == ELOOP || (lstat(lockPath, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK) {
                throw StorePathError.unsafeLockFile(lockPath: lockPath, detail: "it is a symbolic link")
            }
            switch code {
            case ENOENT, ENOTDIR: throw StoreError.missingDirectory(path: storePath)
            case EACCES, EROFS, EPERM: throw StoreError.readOnly(path: storePath)
            case EISDIR, ENXIO, EWOULDBLOCK:
                throw StorePathError.unsafeLockFile(lockPath: lockPath, detail: "it is not a regular file")
            default: throw PipelineError.lockFailed(lockPath: lockPath, detail: String(cString: strerror(code)))
            }
        }
        var info = stat()
        let problem: String?
        if fstat(fd, &info) != 0 {
            problem = String(cString: strerror(errno))
        } else if (info.st_mode & S_IFMT) != S_IFREG {
            problem = "it is a \(StorePath.kindName(info.st_mode)), not a regular file"
        } else if info.st_nlink > 1 {
            problem = "it has \(info.st_nlink) names (hard links): writing it would change another file"
        } else if info.st_size > 4096 || (info.st_size > 0 && readHolder(fd: fd) == nil) {
            problem = "it does not hold a Strata lock record (pid, host): it is some other file"
        } else {
            problem = nil
        }
        if let problem {
            close(fd)
            throw StorePathError.unsafeLockFile(lockPath: lockPath, detail: problem)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Releases the lock (idempotent). The OS also releases it when the process ends.
    public func release() {
        mutex.lock()
        defer { mutex.unlock() }
        guard fd >= 0 else { return }
        _ = ftruncate(fd, 0)
        _ = flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    static func readHolder(fd: Int32) -> LockHolder? {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return LockHolder(fileText: String(decoding: buffer[..<count], as: UTF8.self))
    }
}
