import Foundation
import GRDB
import Testing
@testable import Strata

/// Records what a reporter draws.
final class RecordingSink: ProgressSink, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var drawn: [ProgressState] = []
    private(set) var ended: [ProgressState] = []
    func draw(_ state: ProgressState) { lock.lock(); drawn.append(state); lock.unlock() }
    func end(_ state: ProgressState) { lock.lock(); ended.append(state); lock.unlock() }
}

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var t: TimeInterval = 0
    var now: TimeInterval { lock.lock(); defer { lock.unlock() }; return t }
    func advance(_ dt: TimeInterval) { lock.lock(); t += dt; lock.unlock() }
}

@Suite struct PipelineProgressTests {
    @Test func renderingShowsRowsRateAndETA() {
        let state = ProgressState(label: "copying Recipe", unit: "rows", done: 45_000, total: 100_000, elapsed: 3.6)
        #expect(state.rendered(barWidth: 20) == "copying Recipe  [#########-----------]  45,000/100,000 rows  45%  12.5k rows/s  ETA 0:05")
        let unknown = ProgressState(label: "scan", unit: "rows", done: 1_234_567, total: nil, elapsed: 61)
        #expect(unknown.rendered() == "scan  1,234,567 rows  20.2k rows/s  1:01")
        let estimate = ProgressState(label: "update Recipe", unit: "rows", done: 500, total: 1_000, elapsed: 0.5, isEstimate: true)
        #expect(estimate.rendered(barWidth: 4) == "update Recipe  [##--]  ~500/1,000 rows  50%  1.0k rows/s  ETA 0:01")
        let done = ProgressState(label: "snapshot", unit: "pages", done: 10, total: 10, elapsed: 3_725)
        #expect(done.rendered(barWidth: 2) == "snapshot  [##]  10/10 pages  100%  0 pages/s  ETA 0:00")
        #expect(ProgressState(label: "x", unit: "rows", done: 0, total: 0, elapsed: 0).fraction == 1)
        #expect(ProgressState.clock(3_725) == "1:02:05")
        #expect(ProgressState.compact(4_500_000) == "4.5M")
    }

    @Test func reporterThrottlesDrawsAndAlwaysDrawsTheEnd() {
        let clock = ManualClock()
        let sink = RecordingSink()
        let progress = ProgressCounter(label: "copy", total: 100, sink: sink, minimumInterval: 0.1, clock: { clock.now })
        for i in 1...10 {
            progress.update(done: 5 * i)  // 5 updates within one interval: one draw
            clock.advance(0.02)
        }
        #expect(sink.drawn.map(\.done) == [5, 30])
        clock.advance(1)
        progress.update(done: 100)
        progress.finish()
        progress.finish()
        #expect(sink.drawn.map(\.done) == [5, 30, 100])
        #expect(sink.ended.count == 1)
        #expect(sink.ended.first?.done == 100)
        #expect(sink.ended.first?.elapsed == clock.now)
        progress.update(done: 101) // after the end: counted, not drawn
        #expect(sink.drawn.count == 3)
    }

    /// A rebuild copies with one `INSERT … SELECT` (Docs/operations.md, "Progress"): its line counts the source
    /// rows SQLite has read, marked as an estimate, rising and never past the table's rows.
    @Test func aRebuildCopyReportsTheRowsReadAsAnEstimate() throws {
        let v2 = PipelineSupport.yaml.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "\n      n:    { type: int64 }", with: "")
        let history = try MigrationSupport.history(PipelineSupport.yaml, v2)
        let store = try Store.open(path: try PipelineSupport.makeStore(rows: 50_000))
        let sink = RecordingSink()
        var options = MigrationOptions()
        options.progressSink = sink
        let result = try Migrator.migrate(store, history: history, options: options)
        #expect(result.steps.map { $0.step.tableActions.map(\.kind) } == [[.rebuild]])
        let copy = sink.drawn.filter { $0.label == "v1→v2 copy" }
        #expect(!copy.isEmpty)
        #expect(copy.allSatisfy { $0.isEstimate && $0.total == nil && $0.done > 0 && $0.done <= 50_000 })
        #expect(copy.map(\.done) == copy.map(\.done).sorted())
        #expect(sink.ended.contains { $0.label == "v1→v2 copy" && $0.done > 0 && $0.done <= 50_000 })
        // Only the copy reports: the plan marks it (`.copy`), not the statement's first words, so the
        // `sqlite_sequence` bookkeeping INSERT after it draws no second line.
        #expect(sink.ended.filter { $0.label == "v1→v2 copy" }.count == 1)
        #expect(result.steps[0].step.operations.filter { if case .copy = $0 { true } else { false } }.count == 1)
        #expect(try store.queue.read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Item""#) } == 50_000)
    }

    @Test func singleStatementReportsAnEstimateThroughTheProgressHandler() throws {
        let store = try Store.open(path: try PipelineSupport.makeStore(rows: 50_000))
        let sink = RecordingSink()
        let progress = ProgressCounter(label: "update Item", total: 50_000, sink: sink, minimumInterval: 0)
        let changed = try store.write { db in
            try db.reportingEstimatedProgress(progress) {
                try db.execute(sql: #"UPDATE "Item" SET "n" = "n" + 1 WHERE "name" LIKE 'item-%'"#)
                return db.changesCount
            }
        }
        #expect(changed == 50_000)
        let estimates = sink.drawn.filter(\.isEstimate).map(\.done)
        #expect(estimates.count > 10)
        #expect(estimates == estimates.sorted())
        #expect(estimates.allSatisfy { $0 < 50_000 })
        #expect(sink.drawn.last?.done == 50_000 && sink.drawn.last?.isEstimate == false)
        #expect(sink.ended.map(\.done) == [50_000])
        // The handler is removed afterwards.
        let drawn = sink.drawn.count
        try store.queue.read { db in _ = try Int.fetchOne(db, sql: #"SELECT sum(length("name")) FROM "Item""#) }
        #expect(sink.drawn.count == drawn)
    }
}
