import Foundation

/// The change-set observers of one store.
public final class ChangeObservers: @unchecked Sendable {
    public struct Token: Hashable, Sendable { let id: Int }

    private struct Entry {
        var wantsObjectIDs: Bool
        var handler: @Sendable (ChangeSet) -> Void
    }

    private let lock = NSLock()
    private var entries: [Int: Entry] = [:]
    private var nextID = 0

    package init() {}

    public func add(wantsObjectIDs: Bool, _ handler: @escaping @Sendable (ChangeSet) -> Void) -> Token {
        lock.lock(); defer { lock.unlock() }
        nextID += 1
        entries[nextID] = Entry(wantsObjectIDs: wantsObjectIDs, handler: handler)
        return Token(id: nextID)
    }

    public func remove(_ token: Token) {
        lock.lock(); defer { lock.unlock() }
        entries[token.id] = nil
    }

    /// Whether an observer asked for object IDs.
    public var wantsObjectIDs: Bool {
        lock.lock(); defer { lock.unlock() }
        return entries.values.contains { $0.wantsObjectIDs }
    }

    /// Whether no observer is registered.
    var isEmpty: Bool {
        lock.lock(); defer { lock.unlock() }
        return entries.isEmpty
    }

    /// Calls every observer with the change set (in registration order), unless it is empty.
    public func publish(_ changes: ChangeSet) {
        guard !changes.isEmpty else { return }
        lock.lock()
        let handlers = entries.sorted { $0.key < $1.key }.map(\.value.handler)
        lock.unlock()
        for handler in handlers { handler(changes) }
    }

    /// Observers per store instance (a `Store` is immutable, so they live beside it).
    final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var byStore: [ObjectIdentifier: (store: Weak, observers: ChangeObservers)] = [:]

        struct Weak { weak var store: Store? }

        func observers(for store: Store) -> ChangeObservers {
            lock.lock(); defer { lock.unlock() }
            let key = ObjectIdentifier(store)
            if let entry = byStore[key], entry.store.store === store { return entry.observers }
            byStore = byStore.filter { $0.value.store.store != nil }
            let observers = ChangeObservers()
            byStore[key] = (Weak(store: store), observers)
            return observers
        }
    }

    static let registry = Registry()
}
