import Foundation

/// Removes registered temporary files when the process gets SIGINT or SIGTERM, then exits with the
/// conventional status (128 + the signal: 130, 143).
///
/// The handler only calls `unlink`, `rmdir` and `_exit` (async-signal-safe) on C strings prepared at
/// registration. Without ``install()`` registrations are kept but nothing is handled (a library user
/// keeps its own signal handling).
public enum SignalCleanup {
    static let capacity = 64
    nonisolated(unsafe) static let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()
    static let lock = NSLock()

    /// Installs the handlers for SIGINT and SIGTERM (the `strata` CLI does at start).
    public static func install() {
        _ = table
        for signalNumber in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signalNumber in
                SignalCleanup.removeRegistered()
                _exit(128 + signalNumber)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signalNumber, &action, nil)
        }
    }

    /// Files first, then directories (a directory is removed once its files are gone).
    static func removeRegistered() {
        for index in 0..<capacity { if let path = table[index] { unlink(path) } }
        for index in 0..<capacity { if let path = table[index] { rmdir(path) } }
    }

    /// Registers paths to remove on a signal (files, and directories that will be empty once they are gone).
    static func register(_ paths: [String]) {
        lock.withLock {
            var remaining = paths[...]
            for index in 0..<capacity where table[index] == nil {
                guard let path = remaining.popFirst() else { break }
                table[index] = strdup(path)
            }
        }
    }

    /// Forgets paths registered with ``register(_:)`` (after they were removed or moved into place).
    static func unregister(_ paths: [String]) {
        lock.withLock {
            let set = Set(paths)
            for index in 0..<capacity {
                guard let pointer = table[index], set.contains(String(cString: pointer)) else { continue }
                table[index] = nil
                free(pointer)
            }
        }
    }
}
