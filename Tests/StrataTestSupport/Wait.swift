import Foundation

/// Waiting for an event another process makes visible (a file, its content, a process ending), never
/// for a duration: the timeout only bounds a broken run, so it is generous.
public enum Wait {
    /// An awaited event did not happen within its timeout.
    public struct Timeout: Error, CustomStringConvertible {
        public var event: String
        public var description: String { "timed out waiting for \(event)" }
        public init(event: String) { self.event = event }
    }

    /// Polls `condition` every 10 ms until it holds (true) or `timeout` seconds have passed (false).
    @discardableResult
    public static func until(timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
