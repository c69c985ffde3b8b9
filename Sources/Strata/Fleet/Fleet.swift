import Foundation

/// Runs one command over many stores (SPEC §14.1): `jobs` stores at once, each through the same library
/// call as a single store (its own lock, transactions and connection), one summary row per store.
///
/// Model, hook and mapping files are loaded and checked by the caller, once, before ``migrate(models:hooks:options:backupDirectory:)``
/// (or ``status(history:hooks:check:stages:)``, ``audit(history:scope:failOn:maxSamples:variables:now:)``) starts any
/// store. By default the first failed store (its own exit code is not 0) stops new stores from starting;
/// the ones running finish, the others are listed as not run. Memory stays flat in the number of stores:
/// a store's full report is dropped once its row is made. With `jobs` above 1, call
/// ``SQLiteMemoryStatistics/disable()`` before the process opens its first database, as `strata` does: SQLite's
/// memory count takes one process-wide mutex at each allocation, which the workers otherwise queue on.
/// ```swift
/// var fleet = Fleet(stores: try FleetStores.matching("tenants/*.sqlite"), jobs: 2)
/// fleet.continueOnError = true
/// let summary = try fleet.migrate(models: history, hooks: hooks, options: MigrationRun.Options(now: now))
/// exit(summary.exitCode.rawValue)
/// ```
public struct Fleet: Sendable {
    /// The stores, in the order their rows are listed.
    public var stores: [String]
    /// Stores run at once (1 or more).
    public var jobs: Int
    /// Go on past a failed store (default: stop starting new stores after the first failure).
    public var continueOnError = false
    /// Where progress goes (stores done out of the total, with an ETA); nil draws nothing.
    public var progressSink: ProgressSink?
    /// Called as each store ends, with its row and its error (nil when it succeeded) and warnings; calls
    /// come from the workers' threads, one at a time.
    public var onStoreEnd: (@Sendable (FleetStoreResult, StrataError?, [String]) -> Void)?
    /// Called when a store's lock is taken by another run and its worker starts waiting.
    public var onLockWait: (@Sendable (String, LockHolder?) -> Void)?

    /// - Parameters:
    ///   - stores: the store paths (``FleetStores``).
    ///   - jobs: stores run at once; at least 1.
    public init(stores: [String], jobs: Int = 1) {
        precondition(jobs >= 1, "a fleet runs at least one store at a time")
        self.stores = stores
        self.jobs = jobs
    }

    /// What a store's work returns: its row, its error and its warnings.
    public typealias Outcome = (row: FleetStoreResult, error: StrataError?, warnings: [String])

    /// Runs `work` on every store, `jobs` at once on threads of their own (the work blocks on SQLite and
    /// on locks), and returns the rows in store order, durations filled in. Another engine's module runs its
    /// stores through it (StrataPostgres: `Fleet.migrateAcrossEngines`).
    public func run(command: String, dryRun: Bool = false, _ work: @escaping @Sendable (String) -> Outcome) -> FleetReport {
        let started = Date()
        let state = FleetState(stores: stores, stopsOnFailure: !continueOnError)
        let progress = progressSink.map { ProgressCounter(label: command, total: stores.count, unit: "stores", sink: $0) }
        let onStoreEnd = onStoreEnd
        let group = DispatchGroup()
        for _ in 0..<min(jobs, stores.count) {
            group.enter()
            let worker = Thread {
                defer { group.leave() }
                while let index = state.take() {
                    let began = Date()
                    var outcome = work(state.stores[index])
                    outcome.row.duration = Date().timeIntervalSince(began)
                    // Drawn under the state's lock: two workers finishing together draw their counts in order.
                    state.finish(index, outcome.row) { progress?.update(done: $0) }
                    state.report { onStoreEnd?(outcome.row, outcome.error, outcome.warnings) }
                }
            }
            worker.stackSize = 8 << 20   // a store's run parses and plans as the main thread does
            worker.start()
        }
        group.wait()
        progress?.finish()
        return FleetReport(command: command, dryRun: dryRun, jobs: jobs, stopsOnFailure: !continueOnError,
                           duration: Date().timeIntervalSince(started), stores: state.rows())
    }

    /// Runs `body`, turning what it throws into a failed row (a Swift error that is not a `StrataError`
    /// is a runtime failure, exit 1).
    public static func attempt(_ path: String, _ body: () throws -> Outcome) -> Outcome {
        do {
            return try body()
        } catch let error as StrataError {
            return (failed(path, error), error, [])
        } catch {
            let wrapped = StoreError.other("\(error)")
            return (failed(path, wrapped), wrapped, [])
        }
    }

    /// The row of a store that stopped with `error`.
    static func failed(_ path: String, _ error: StrataError, from: Int? = nil, to: Int? = nil) -> FleetStoreResult {
        FleetStoreResult(path: path, outcome: .failed, exitCode: error.exitCode, fromVersion: from, toVersion: to,
                         message: message(error))
    }
}

/// The workers' shared state: the next store to start, whether to stop, the rows so far.
private final class FleetState: @unchecked Sendable {
    let stores: [String]
    private let stopsOnFailure: Bool
    private let lock = NSLock()
    private let reporting = NSLock()
    private var next = 0
    private var done = 0
    private var stopped = false
    private var results: [FleetStoreResult?]

    init(stores: [String], stopsOnFailure: Bool) {
        self.stores = stores
        self.stopsOnFailure = stopsOnFailure
        results = Array(repeating: nil, count: stores.count)
    }

    /// The next store to start, or nil when all started or a failure stopped the fleet.
    func take() -> Int? {
        lock.withLock {
            guard !stopped, next < stores.count else { return nil }
            next += 1
            return next - 1
        }
    }

    /// Records a store's row and passes how many stores are done to `counted`, in the lock.
    func finish(_ index: Int, _ row: FleetStoreResult, counted: (Int) -> Void) {
        lock.withLock {
            results[index] = row
            if row.failed && stopsOnFailure { stopped = true }
            done += 1
            counted(done)
        }
    }

    /// Runs `body` while no other worker runs its own (callbacks come one at a time).
    func report(_ body: () -> Void) { reporting.withLock(body) }

    /// Every store's row; stores that never started are not run.
    func rows() -> [FleetStoreResult] {
        lock.withLock { zip(stores, results).map { path, row in row ?? .notRun(path) } }
    }
}
