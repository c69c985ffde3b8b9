import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

extension Database {
    /// Runs `body` (typically one set-based UPDATE or DELETE) while SQLite's progress handler reports an
    /// estimate of the rows done to `progress` (SPEC §10: a single statement reports an estimate).
    ///
    /// Every `instructions` virtual-machine steps, the handler reads the running statement's counters:
    /// rows stepped over by full scans (`SQLITE_STMTSTATUS_FULLSCAN_STEP`), or, for indexed plans,
    /// VM steps divided by `stepsPerRow`. The estimate is capped below the total until `body` returns;
    /// then the reporter gets the exact total and finishes. Set `progress`'s total to the rows the
    /// statement visits (for a full scan, the table's row count). The reporter is finished when `body`
    /// returns or throws.
    /// - Parameters:
    ///   - progress: the reporter; nil runs `body` without a handler.
    ///   - instructions: VM steps between two handler calls.
    ///   - stepsPerRow: the fallback's guess of VM steps per row.
    /// - Throws: what `body` throws.
    func reportingEstimatedProgress<T>(_ progress: ProgressCounter?, instructions: Int32 = 4_000,
                                       stepsPerRow: Int = 24, _ body: () throws -> T) throws -> T {
        guard let progress, let connection = sqliteConnection else { return try body() }
        let context = ProgressHandlerContext(connection: connection, progress: progress, stepsPerRow: max(1, stepsPerRow))
        let unmanaged = Unmanaged.passRetained(context)
        sqlite3_progress_handler(connection, max(1, instructions), { pointer in
            guard let pointer else { return 0 }
            Unmanaged<ProgressHandlerContext>.fromOpaque(pointer).takeUnretainedValue().tick()
            return 0 // never interrupt
        }, unmanaged.toOpaque())
        defer {
            sqlite3_progress_handler(connection, 0, nil, nil)
            unmanaged.release()
            progress.finish()
        }
        let result = try body()
        if let total = progress.current.total { progress.update(done: total) }
        return result
    }
}

/// State shared with the C progress callback.
private final class ProgressHandlerContext {
    let connection: OpaquePointer
    let progress: ProgressCounter
    let stepsPerRow: Int
    private var best = 0

    init(connection: OpaquePointer, progress: ProgressCounter, stepsPerRow: Int) {
        self.connection = connection
        self.progress = progress
        self.stepsPerRow = stepsPerRow
    }

    /// Reads the busy statements' counters and reports the largest estimate so far.
    func tick() {
        var scanned = 0
        var steps = 0
        var statement = sqlite3_next_stmt(connection, nil)
        while let s = statement {
            if sqlite3_stmt_busy(s) != 0 {
                scanned = max(scanned, Int(sqlite3_stmt_status(s, SQLITE_STMTSTATUS_FULLSCAN_STEP, 0)))
                steps = max(steps, Int(sqlite3_stmt_status(s, SQLITE_STMTSTATUS_VM_STEP, 0)))
            }
            statement = sqlite3_next_stmt(connection, s)
        }
        var estimate = scanned > 0 ? scanned : steps / stepsPerRow
        if let total = progress.current.total { estimate = min(estimate, max(0, total - 1)) }
        guard estimate > best else { return }
        best = estimate
        progress.update(done: estimate, estimate: true)
    }
}
