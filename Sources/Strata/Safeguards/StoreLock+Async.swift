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
        var wait = Wait(start: Date(), timeout: timeout, pollInterval: pollInterval)
        while let pause = try wait.next(fd, storePath: storePath, lockPath: lockPath, onWait: onWait) {
            do {
                try await Task.sleep(nanoseconds: UInt64(pause * 1_000_000_000))
            } catch {
                close(fd)
                throw error
            }
        }
        return claim(fd, waited: wait.waited)
    }

    /// The state of a wait for the lock, shared by ``acquire(storePath:timeout:pollInterval:onWait:)`` (which
    /// sleeps the thread between attempts) and ``wait(forStore:timeout:pollInterval:onWait:)`` (which sleeps the task).
    struct Wait {
        let start: Date
        let timeout: TimeInterval
        let pollInterval: TimeInterval
        /// Whether another holder was met (the caller was told once, through `onWait`).
        var waited = false

        /// One attempt: nil when the lock is now held, else how long to pause before the next one.
        /// - Throws: ``PipelineError/storeBusy(storePath:lockPath:holder:timeout:)`` once `timeout` has passed.
        mutating func next(_ fd: Int32, storePath: String, lockPath: String,
                           onWait: ((LockHolder?) -> Void)?) throws -> TimeInterval? {
            if try StoreLock.attempt(fd, lockPath: lockPath) { return nil }
            if !waited {
                waited = true
                onWait?(StoreLock.readHolder(fd: fd))
            }
            let elapsed = Date().timeIntervalSince(start)
            if elapsed >= timeout { throw StoreLock.busy(fd, storePath: storePath, lockPath: lockPath, timeout: timeout) }
            return max(0.001, min(pollInterval, timeout - elapsed))
        }
    }
}
