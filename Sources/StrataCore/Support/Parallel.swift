import Dispatch
import Foundation

/// Data parallelism for pure work over independent items (model files, entities, tables).
enum Parallel {
    /// One range only: the serial result, which tests compare the parallel one against.
    @TaskLocal static var isSerial = false

    /// `body(i)` for every `i` in `0..<count`, spread over the machine's cores; results in index order.
    static func map<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 1 else { return (0..<count).map(body) }
        let results = Slots<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { results.set($0, body($0)) }
        return results.values.map { $0! }
    }

    /// `0..<count` cut into consecutive ranges for `map`: one range when the work is small, otherwise a
    /// few per core (so an uneven range does not leave a core idle).
    static func ranges(_ count: Int, minimumPerRange: Int) -> [Range<Int>] {
        if isSerial { return count == 0 ? [] : [0..<count] }
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount * 2, count / max(1, minimumPerRange)))
        return (0..<parts).map { p in (count * p / parts)..<(count * (p + 1) / parts) }
    }

    private final class Slots<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [T?]
        init(count: Int) { storage = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: T) { lock.withLock { storage[index] = value } }
        var values: [T?] { lock.withLock { storage } }
    }
}
