import Foundation

/// Removes registered temporary files when the process gets SIGINT or SIGTERM, then exits with the
/// conventional status (128 + the signal: 130, 143).
///
/// The handler only calls `unlink`, `rmdir` and `_exit` (async-signal-safe) on C strings prepared at
/// registration. Without ``install()`` registrations are kept but nothing is handled (a library user
/// keeps its own signal handling).
public enum SignalCleanup {
    /// Paths held at once: a dry run's snapshot takes 5, and a fleet runs up to 64 of them at once (`--jobs`).
    static let capacity = 512
    nonisolated(unsafe) static let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()
    static let lock = NSLock()
    /// Set (to the signal's number) by the handler before it cleans up; read by ``waitIfTerminating()``.
    nonisolated(unsafe) static let terminating: UnsafeMutablePointer<sig_atomic_t> = {
        let flag = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()

    /// Installs the handlers for SIGINT and SIGTERM (the `strata` CLI does at start).
    public static func install() {
        _ = table
        _ = terminating
        for signalNumber in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signalNumber in
                SignalCleanup.terminating.pointee = signalNumber
                SignalCleanup.removeRegistered()
                _exit(128 + signalNumber)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signalNumber, &action, nil)
        }
    }

    /// Files first, then directories (a directory is removed once its files are gone). The run goes on in
    /// other threads until `_exit`, and may create a registered file again (a snapshot's `-journal` or
    /// `-wal` when its next transaction starts) between the two passes: while a directory is still not
    /// empty, both passes repeat (seen under load: a dry run's snapshot directory left behind on SIGTERM).
    static func removeRegistered() {
        for _ in 0..<1000 {
            for index in 0..<capacity { if let path = table[index] { unlink(path) } }
            var notEmpty = false
            for index in 0..<capacity {
                if let path = table[index], rmdir(path) != 0, errno == ENOTEMPTY { notEmpty = true }
            }
            if !notEmpty { return }
        }
    }

    /// Never returns while a signal handler is cleaning up: the run goes on in other threads until the
    /// handler's `_exit`, and may fail meanwhile because its temporary files are gone (a dry run's snapshot:
    /// "no store at …", exit 2, seen under load). Exit paths call this first, so the handler's exit
    /// status (130, 143) and silence win.
    public static func waitIfTerminating() {
        while terminating.pointee != 0 { pause() }
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
