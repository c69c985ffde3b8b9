/// What one command did over a fleet of stores (`--stores GLOB`, `--stores-from FILE`, SPEC §14.1):
/// one row per store, in the order the stores were listed, and the run's exit code.
///
/// Rows are small (no plans, hooks or audit samples), so a summary of thousands of stores stays small;
/// each store's full report is dropped once its row is made.
/// ```swift
/// let report = Report(title: "Strata migrate (fleet)", fleet: fleet)
/// print(report.render(as: .junit))   // one test case per store
/// ```
public struct FleetReport: Sendable, Hashable, Codable {
    /// `migrate`, `status` or `audit`.
    public var command: String
    public var dryRun: Bool
    /// Stores run at once (`--jobs`).
    public var jobs: Int
    /// Whether a failed store stopped new stores from starting (false with `--continue-on-error`).
    public var stopsOnFailure: Bool
    /// Seconds, first store started to last store finished.
    public var duration: Double
    public var stores: [FleetStoreResult]

    public init(command: String, dryRun: Bool = false, jobs: Int, stopsOnFailure: Bool, duration: Double = 0,
                stores: [FleetStoreResult]) {
        self.command = command
        self.dryRun = dryRun
        self.jobs = jobs
        self.stopsOnFailure = stopsOnFailure
        self.duration = duration
        self.stores = stores
    }

    /// The exit codes in the order that decides a fleet's code: the first present wins (SPEC §14.1).
    /// A runtime failure (1) comes first: it may hide anything; success (0) is last.
    public static let exitCodeOrder: [ExitStatus] = [
        .runtimeFailure, .drift, .notInferable, .validationViolations, .invalidInput, .storeBusy, .pendingWork,
    ]

    /// The fleet's exit code from its stores' own codes: the first of ``exitCodeOrder`` present, else 0.
    public static func exitCode<Codes: Sequence<ExitStatus>>(of codes: Codes) -> ExitStatus {
        let present = Set(codes)
        return exitCodeOrder.first(where: present.contains) ?? .success
    }

    /// The run's exit code (stores that did not run count for nothing).
    public var exitCode: ExitStatus { Self.exitCode(of: stores.lazy.compactMap(\.exitCode)) }

    /// How many stores ended with each outcome, in ``FleetStoreResult/Outcome`` order.
    public var outcomeCounts: [(outcome: FleetStoreResult.Outcome, count: Int)] {
        var counts: [FleetStoreResult.Outcome: Int] = [:]
        for store in stores { counts[store.outcome, default: 0] += 1 }
        return FleetStoreResult.Outcome.allCases.compactMap { outcome in counts[outcome].map { (outcome, $0) } }
    }

    /// Stores whose own exit code is not 0.
    public var failedCount: Int { stores.count { ($0.exitCode ?? .success) != .success } }
}

/// One store's row in a ``FleetReport``.
public struct FleetStoreResult: Sendable, Hashable, Codable {
    /// How the store ended. Success outcomes exit 0; `failed`, `drift` and `violations` carry the store's code;
    /// `pending` is 0 for `status` and 7 for `status --check`.
    public enum Outcome: String, Sendable, Codable, CaseIterable {
        /// migrate: steps or hooks ran (a dry run: they would).
        case migrated
        /// migrate --create: a missing store was created at the target version.
        case created
        /// migrate, status: nothing to do.
        case upToDate = "up-to-date"
        /// status: versions or hooks pending.
        case pending
        /// audit: no failing violation.
        case passed
        /// audit: failing violations (3); status: drift (6).
        case violations
        case drift
        /// The command stopped on this store with an error.
        case failed
        /// Not started: an earlier store failed and `--continue-on-error` was not given.
        case notRun = "not-run"
    }

    /// The store as listed (the glob's match or the line of `--stores-from`).
    public var path: String
    public var outcome: Outcome
    /// The store's own exit code; nil when it did not run.
    public var exitCode: ExitStatus?
    /// The version the store was at (status and audit: its version).
    public var fromVersion: Int?
    /// The version it reached (a dry run: would reach; status: the newest model).
    public var toVersion: Int?
    /// Hooks run (status: hooks pending).
    public var hooks: Int?
    /// Violations found: by hooks' audits (migrate) or by the audit.
    public var violations: Int?
    /// Seconds spent on this store.
    public var duration: Double
    /// The first error's message, or a short note (`2 drift items`).
    public var message: String?
    /// The backup written before the first change (`--backup-dir`).
    public var backup: String?

    public init(path: String, outcome: Outcome, exitCode: ExitStatus?, fromVersion: Int? = nil, toVersion: Int? = nil,
                hooks: Int? = nil, violations: Int? = nil, duration: Double = 0, message: String? = nil, backup: String? = nil) {
        self.path = path
        self.outcome = outcome
        self.exitCode = exitCode
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.hooks = hooks
        self.violations = violations
        self.duration = duration
        self.message = message
        self.backup = backup
    }

    /// A store that did not start.
    public static func notRun(_ path: String) -> FleetStoreResult {
        FleetStoreResult(path: path, outcome: .notRun, exitCode: nil, message: "not started: an earlier store failed")
    }

    /// Whether this store failed (its own exit code is not 0).
    public var failed: Bool { (exitCode ?? .success) != .success }
}
