import Foundation

/// The change sets a store publishes, in commit order (``Store/changes(includingObjectIDs:)``).
public struct StoreChanges: AsyncSequence, Sendable {
    public typealias Element = ChangeSet

    let subscription: Subscription

    /// The change sets `observers` publish from now on (both engines' stores keep their observers so).
    package init(observers: ChangeObservers, wantsObjectIDs: Bool) {
        subscription = Subscription(observers: observers, wantsObjectIDs: wantsObjectIDs)
    }

    public func makeAsyncIterator() -> Iterator { Iterator(subscription: subscription) }

    public struct Iterator: AsyncIteratorProtocol {
        let subscription: Subscription

        /// The next change set; nil once the consuming task is cancelled.
        public mutating func next() async -> ChangeSet? { await subscription.next() }
    }

    /// One observer of the store and what it has received but not yet handed out. The store's observers hold
    /// it weakly: when the sequence and its iterators are gone, it unsubscribes.
    final class Subscription: @unchecked Sendable {
        private let lock = NSLock()
        private var buffer: [ChangeSet] = []
        private var waiter: CheckedContinuation<ChangeSet?, Never>?
        private var finished = false
        private let observers: ChangeObservers
        private var token: ChangeObservers.Token?

        init(observers: ChangeObservers, wantsObjectIDs: Bool) {
            self.observers = observers
            token = observers.add(wantsObjectIDs: wantsObjectIDs) { [weak self] changes in self?.receive(changes) }
        }

        deinit { finish() }

        private func receive(_ changes: ChangeSet) {
            lock.lock()
            if finished {
                lock.unlock()
            } else if let waiter {
                self.waiter = nil
                lock.unlock()
                waiter.resume(returning: changes)
            } else {
                buffer.append(changes)
                lock.unlock()
            }
        }

        func next() async -> ChangeSet? {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<ChangeSet?, Never>) in
                    lock.lock()
                    if finished || Task.isCancelled {
                        lock.unlock()
                        continuation.resume(returning: nil)
                    } else if !buffer.isEmpty {
                        let first = buffer.removeFirst()
                        lock.unlock()
                        continuation.resume(returning: first)
                    } else {
                        waiter = continuation
                        lock.unlock()
                    }
                }
            } onCancel: {
                finish()
            }
        }

        /// Unsubscribes, drops the buffer and ends a pending `next()`.
        private func finish() {
            lock.lock()
            let waiter = self.waiter
            let token = self.token
            self.waiter = nil
            self.token = nil
            finished = true
            buffer = []
            lock.unlock()
            if let token { observers.remove(token) }
            waiter?.resume(returning: nil)
        }
    }
}
