import Foundation
import StrataCore

/// Names, cleanup and permissions of the files a run creates before it moves them into place (a new
/// store, a backup) or throws them away (a dry run's snapshot).
///
/// Each name carries the creating process's pid, so that the next run can remove what a killed run
/// (SIGKILL, power loss) left behind: an entry whose pid is no longer alive is a leftover. SIGINT and
/// SIGTERM are handled by ``SignalCleanup``.
enum TemporaryFiles {
    /// SQLite's companion files of a database file.
    static let companionSuffixes = ["-journal", "-wal", "-shm"]

    /// `.<name>.strata-<kind>-<pid>-<uuid>` next to `path` (the name cut to ``PathText/temporaryStem(_:)``).
    static func path(next path: String, kind: String) -> String {
        (StorePath.directoryOf(path) as NSString)
            .appendingPathComponent(prefix(of: path, kind: kind) + "\(getpid())-\(UUID().uuidString.lowercased())")
    }

    /// `.<name>.strata-<kind>-`: how the temporaries of `kind` beside `path` start.
    static func prefix(of path: String, kind: String) -> String {
        ".\(PathText.temporaryStem((path as NSString).lastPathComponent)).strata-\(kind)-"
    }

    /// A database file and its companions, files first (the order ``SignalCleanup`` removes them in).
    static func databaseFiles(_ path: String) -> [String] {
        [path] + companionSuffixes.map { path + $0 }
    }

    /// Removes a database file and its companion files (idempotent).
    static func removeDatabase(_ path: String) {
        for file in databaseFiles(path) { unlink(file) }
    }

    /// Removes the entries of `directory` named `prefix<pid>-…` whose pid is dead and that this user owns.
    static func removeLeftovers(in directory: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let pid = Int32(rest.prefix { $0.isNumber }), pid > 0, !isAlive(pid) else { continue }
            let entry = (directory as NSString).appendingPathComponent(name)
            var info = stat()
            guard lstat(entry, &info) == 0, info.st_uid == geteuid() else { continue }
            try? FileManager.default.removeItem(atPath: entry)
        }
    }

    /// Leftovers of dead runs next to `path` (temporary stores and backups of `kind`).
    static func removeLeftovers(next path: String, kind: String) {
        removeLeftovers(in: StorePath.directoryOf(path), prefix: prefix(of: path, kind: kind))
    }

    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// The permission bits of a file (0 when it cannot be read).
    static func mode(of path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    /// The process's file-creation mask, read without changing it (`umask(2)` can only set it, and the mask is
    /// shared by every thread): Linux shows it in `/proc/self/status`; 022 where it cannot be read.
    static var umask: mode_t {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let mask = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return 0o022 }
        return mask
    }

    /// Creates an empty file that only its owner can read or write, failing if anything is at `path`.
    static func createPrivateFile(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.other("cannot create '\(path)': \(String(cString: strerror(errno)))") }
        close(fd)
    }
}
