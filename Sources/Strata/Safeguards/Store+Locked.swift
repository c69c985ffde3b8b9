import Foundation

extension Store {
    /// Opens a store for a command that writes it outside `migrate` (`batch`, `meta set`, `repair`,
    /// `adopt`): the same preflight and lock as a migration, so the two never interleave (SPEC §8).
    ///
    /// A read-only file (no write permission bit, even for root) or directory is refused before SQLite
    /// opens the file; the lock is `<store>-strata.lock`, waited for up to `lockTimeout`; SQLite's busy
    /// timeout follows it, for applications holding a write transaction.
    /// ```swift
    /// let (store, lock) = try Store.openLocked(path: "app.sqlite", lockTimeout: 60)
    /// defer { lock.release() }
    /// let result = try await store.execute(request)
    /// ```
    /// - Throws: `StoreError` (missing, not SQLite: exit 2; read-only: exit 1), `StorePathError` (exit 2),
    ///   ``PipelineError/storeBusy(storePath:lockPath:holder:timeout:)`` (exit 5).
    public static func openLocked(path: String, lockTimeout: TimeInterval,
                                  onWait: ((LockHolder?) -> Void)? = nil) throws -> (store: Store, lock: StoreLock) {
        try Preflight.checkFile(atPath: path, forWriting: true)
        let lock = try StoreLock.acquire(storePath: path, timeout: lockTimeout, onWait: onWait)
        do {
            return (try Store.open(path: path, busyTimeout: lockTimeout), lock)
        } catch {
            lock.release()
            throw error
        }
    }
}
