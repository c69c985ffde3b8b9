import Foundation

/// Where progress is drawn: the `strata` CLI's terminal bar draws on stderr; tests record states.
public protocol ProgressSink: AnyObject, Sendable {
    /// A new state of a running task (already throttled by the counter).
    func draw(_ state: ProgressState)
    /// The task ended (successfully or not); `state` is its last state.
    func end(_ state: ProgressState)
}

/// One moment of a long task: rows done out of a total, with rate and ETA.
public struct ProgressState: Sendable, Hashable {
    /// What is running, e.g. `copying Recipe`.
    public var label: String
    /// The unit counted, e.g. `rows` or `pages`.
    public var unit: String
    public var done: Int
    /// nil when unknown.
    public var total: Int?
    /// Seconds since the task started.
    public var elapsed: TimeInterval
    /// Whether `done` is an estimate (SQLite's progress handler during one statement).
    public var isEstimate: Bool

    public init(label: String, unit: String, done: Int, total: Int?, elapsed: TimeInterval, isEstimate: Bool = false) {
        self.label = label
        self.unit = unit
        self.done = done
        self.total = total
        self.elapsed = elapsed
        self.isEstimate = isEstimate
    }

    /// Units per second, or nil before any time has passed.
    public var rate: Double? { elapsed > 0 && done > 0 ? Double(done) / elapsed : nil }

    /// Estimated seconds left, or nil when the total or the rate is unknown.
    public var eta: TimeInterval? {
        guard let total, let rate, rate > 0 else { return nil }
        return Double(max(0, total - done)) / rate
    }

    /// Fraction done in 0...1, or nil without a total.
    public var fraction: Double? {
        guard let total else { return nil }
        return total == 0 ? 1 : min(1, Double(done) / Double(total))
    }

    /// One line: `copying Recipe [#########-----------]  45,000/100,000 rows  45%  12.3k rows/s  ETA 0:04`.
    public func rendered(barWidth: Int = 24) -> String {
        var parts = [label]
        let approx = isEstimate ? "~" : ""
        if let fraction, let total {
            let filled = Int((fraction * Double(barWidth)).rounded(.down))
            parts.append("[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "]")
            parts.append("\(approx)\(Self.grouped(done))/\(Self.grouped(total)) \(unit)")
            parts.append("\(Int((fraction * 100).rounded(.down)))%")
        } else {
            parts.append("\(approx)\(Self.grouped(done)) \(unit)")
        }
        if let rate { parts.append("\(Self.compact(rate)) \(unit)/s") }
        if let eta { parts.append("ETA \(Self.clock(eta))") } else if total == nil || fraction == 1 { parts.append(Self.clock(elapsed)) }
        return parts.joined(separator: "  ")
    }

    /// `1234567` → `1,234,567`.
    static func grouped(_ n: Int) -> String {
        NumberText.grouped(n)
    }

    /// `950`, `12.3k`, `4.5M`.
    static func compact(_ x: Double) -> String {
        switch x {
        case ..<1_000: return String(Int(x.rounded()))
        case ..<1_000_000: return String(format: "%.1fk", x / 1_000)
        default: return String(format: "%.1fM", x / 1_000_000)
        }
    }

    /// `0:04`, `12:30`, `1:02:03`.
    static func clock(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded(.up))
        let (h, m, sec) = (s / 3600, (s % 3600) / 60, s % 60)
        let two = { (v: Int) in v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(sec))" : "\(m):\(two(sec))"
    }
}

/// Counts the progress of one long task and forwards it, throttled, to a sink.
///
/// Thread-safe: SQLite's progress handler may call it from the database's thread.
/// Without a sink it only counts, so library code can always take a counter.
/// ```swift
/// let progress = ProgressCounter(label: "snapshot", total: 4_096, unit: "pages",
///                                sink: bar)   // any ProgressSink, e.g. the CLI's terminal bar
/// progress.update(done: 1_024)
/// progress.finish()
/// ```
public final class ProgressCounter: @unchecked Sendable {
    public let label: String
    public let unit: String
    /// The sink, or nil to count silently.
    public let sink: ProgressSink?
    /// Seconds between two draws (the last state is always drawn by ``finish()``).
    public let minimumInterval: TimeInterval

    private let mutex = NSLock()
    private let now: @Sendable () -> TimeInterval
    private let start: TimeInterval
    private var lastDraw: TimeInterval?
    private var state: ProgressState
    private var finished = false

    /// - Parameters:
    ///   - label: what runs (`copying Recipe`, `snapshot`, `hook mark-favorites`).
    ///   - total: the expected count, or nil when unknown.
    ///   - unit: what is counted (`rows`, `pages`).
    ///   - sink: where to draw; nil draws nothing.
    ///   - minimumInterval: throttle between draws, in seconds.
    ///   - clock: seconds on a monotonic clock (tests inject one).
    public init(label: String, total: Int?, unit: String = "rows", sink: ProgressSink?, minimumInterval: TimeInterval = 0.1,
                clock: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }) {
        self.label = label
        self.unit = unit
        self.sink = sink
        self.minimumInterval = minimumInterval
        self.now = clock
        self.start = clock()
        self.state = ProgressState(label: label, unit: unit, done: 0, total: total, elapsed: 0)
    }

    /// The current state.
    public var current: ProgressState {
        mutex.lock()
        defer { mutex.unlock() }
        var s = state
        s.elapsed = now() - start
        return s
    }

    /// Sets the count done; `estimate` marks it as approximate (progress handler).
    public func update(done: Int, estimate: Bool = false) { update { $0.done = done; $0.isEstimate = estimate } }

    /// Changes the expected total (e.g. once a count is known).
    public func setTotal(_ total: Int?) { update { $0.total = total } }

    /// Ends the task and draws its last state once (idempotent).
    public func finish() {
        mutex.lock()
        guard !finished else { mutex.unlock(); return }
        finished = true
        state.elapsed = now() - start
        let last = state
        mutex.unlock()
        sink?.end(last)
    }

    private func update(_ change: (inout ProgressState) -> Void) {
        mutex.lock()
        change(&state)
        let t = now()
        state.elapsed = t - start
        var toDraw: ProgressState?
        if !finished, sink != nil, lastDraw.map({ t - $0 >= minimumInterval }) ?? true {
            lastDraw = t
            toDraw = state
        }
        mutex.unlock()
        if let toDraw { sink?.draw(toDraw) }
    }
}
