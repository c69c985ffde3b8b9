import Foundation

extension Store {
    /// The observers of this store's batch changes.
    public var changeObservers: ChangeObservers { ChangeObservers.registry.observers(for: self) }

    /// Registers a handler called after every batch this store executes, with what it changed
    /// (Core Data's `mergeChanges(fromRemoteContextSave:into:)` equivalent).
    /// - Parameter wantsObjectIDs: when true, change sets carry object IDs even for `.statusOnly`
    ///   requests; otherwise, unless the request asked for IDs, they carry counts only.
    /// - Returns: a token for `removeChangeObserver(_:)`.
    @discardableResult
    public func addChangeObserver(wantsObjectIDs: Bool = true,
                                  _ handler: @escaping @Sendable (ChangeSet) -> Void) -> ChangeObservers.Token {
        changeObservers.add(wantsObjectIDs: wantsObjectIDs, handler)
    }

    public func removeChangeObserver(_ token: ChangeObservers.Token) {
        changeObservers.remove(token)
    }
}
