import Foundation

extension MigrationRun.Options {
    /// Options whose `$NOW` is `now`.
    ///
    /// ```swift
    /// let report = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: .init(now: Date()))
    /// ```
    public init(now: Date) {
        self.init(now: now.timeIntervalSince1970)
    }
}
