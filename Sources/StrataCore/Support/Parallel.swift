import Dispatch
import Foundation

/// Data parallelism for pure work over independent items: model files, which `ModelHistory` parses
/// on every core. Kept because it pays: `strata lint` on a 117-version history of 80 entities
/// (Benchmarks/benchkit/history.py) took 846 ms with parallel loading and 1,355 ms without it on this
/// 2-core machine (median of 9, same run, 2026-11-24). Planning is serial: splitting the change analysis
/// and the table planner across cores saved under 9% of `strata diff 1 2` on 200 × 30 entities.
enum Parallel {
    /// `body(i)` for every `i` in `0..<count`, spread over the machine's cores unless `spread` is false (too
    /// little work to pay for the threads); results in index order.
    static func map<T: Sendable>(_ count: Int, spread: Bool = true, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 1, spread else { return (0..<count).map(body) }
        let results = Slots<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { results.set($0, body($0)) }
        return results.values.map { $0! }
    }

    private final class Slots<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [T?]
        init(count: Int) { storage = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: T) { lock.withLock { storage[index] = value } }
        var values: [T?] { lock.withLock { storage } }
    }
}
