import Foundation

extension Store {
    /// The change sets of this store, as an `AsyncSequence`: every batch request it executes and every hook
    /// that ``migrate(models:hooks:options:)`` runs publishes what it changed, after its transaction committed.
    /// Consume it where you like, the main actor included:
    ///
    /// ```swift
    /// @MainActor final class RecipesModel {
    ///     var names: [String] = []
    ///     func observe(_ store: Store) async {
    ///         for await changes in store.changes() where changes.updatedCounts["Recipe"] != nil {
    ///             names = (try? store.fetchAll("Recipe").map { "\($0["name"]!)" }) ?? names
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The subscription starts with the call (changes committed after it are delivered, none before) and ends
    /// when the sequence and its iterator are gone or the consuming task is cancelled; what the consumer has
    /// not read yet is buffered. Iterate it once.
    /// - Parameter includingObjectIDs: change sets carry the changed objects' IDs (default), even for requests
    ///   whose result type asks for a count; false keeps counts only, so memory stays flat for huge batches.
    public func changes(includingObjectIDs: Bool = true) -> StoreChanges {
        StoreChanges(observers: changeObservers, wantsObjectIDs: includingObjectIDs)
    }

    /// Migrates this open store to the newest model (or `options.target`) under the store's lock, waited for
    /// without blocking a thread, then publishes the hooks' change sets to ``changes(includingObjectIDs:)``.
    /// For a store an app keeps open while new models arrive (a downloaded update, a plug-in).
    /// - Returns: what ran; `nothingToDo` when the store was already there.
    /// - Throws: the errors of ``open(at:models:hooks:options:)`` (creating is not one: the store exists).
    @discardableResult
    public func migrate(models: ProjectSource, hooks: ProjectSource? = nil,
                        options: OpenOptions = OpenOptions()) async throws -> MigrationRunReport {
        let project = try await Self.offThread { try Project(models: models, hooks: hooks, options: options) }
        let lock = try await StoreLock.wait(forStore: path, timeout: options.lockTimeout, pollInterval: options.pollInterval,
                                            onWait: options.onLockWait)
        defer { lock.release() }
        do {
            let report = try await Self.offThread { [self] in
                try project.migrate(self, report: project.report(store: path, waited: lock.waited))
            }
            changeObservers.publish(report.changes)
            return report
        } catch let error as MigrationRunError {
            changeObservers.publish(error.report.changes)   // the steps that committed before the failure
            throw error
        }
    }
}
