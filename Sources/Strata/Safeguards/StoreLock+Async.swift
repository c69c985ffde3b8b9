import Foundation

extension StoreLock {
    /// Takes the store's lock like ``acquire(storePath:timeout:pollInterval:onWait:)``, but waits for another
    /// holder with `Task.sleep` between attempts: no thread is blocked while waiting, and cancelling the task
    /// stops the wait (throwing `CancellationError`).
    ///
    /// ```swift
    /// let lock = try await StoreLock.wait(forStore: "app.sqlite", timeout: 60)
    /// defer { lock.release() }
    /// ```
    /// - Throws: the errors of ``acquire(storePath:timeout:pollInterval:onWait:)``, and `CancellationError`.
    public static func wait(forStore storePath: String, timeout: TimeInterval = 60, pollInterval: TimeInterval = 0.05,
                            onWait: (@Sendable (LockHolder?) -> Void)? = nil) async throws -> StoreLock {
        let lockPath = lockPath(forStore: storePath)
        let fd = try openLockFile(lockPath, storePath: storePath)
        let start = Date()
        var waited = false
        while try !attempt(fd, lockPath: lockPath) {
            if !waited {
                waited = true
                onWait?(readHolder(fd: fd))
            }
            let elapsed = Date().timeIntervalSince(start)
            if elapsed >= timeout { throw busy(fd, storePath: storePath, lockPath: lockPath, timeout: timeout) }
            let pause = max(0.001, min(pollInterval, timeout - elapsed))
            do {
                try await Task.sleep(nanoseconds: UInt64(pause * 1_000_000_000))
            } catch {
                close(fd)
                throw error
            }
        }
        return claim(fd, waited: waited)
    }
}
