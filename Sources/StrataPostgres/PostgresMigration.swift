import Foundation
import StrataCore
import Strata

/// `strata migrate` on a PostgreSQL store (SPEC §14.2): create at the target version, or run the pending
/// inferred steps, each in one transaction.
///
/// The run holds the session lock `pg_advisory_lock(k)` from start to end; each step starts with
/// `pg_advisory_xact_lock(k)` and re-reads the version, so no step is applied twice even by runs that do
/// not share the session lock. Every step is planned before the first one runs: work this engine cannot do
/// yet stops the run before anything is written.
///
/// ```swift
/// let url = try PostgresStoreURL(parsing: "postgres://app@localhost/shop?schema=app")
/// let report = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(create: true))
/// ```
public enum PostgresMigration {
    public struct Options: Sendable {
        /// The version to reach (default: the newest model).
        public var target: Int?
        /// Create the store at the target when the schema has none.
        public var create: Bool
        /// Seconds to wait for another run's session lock.
        public var lockTimeout: Double
        /// `SET LOCAL lock_timeout` of every step, in seconds.
        public var ddlLockTimeout: Double
        /// `$NOW` of the hooks' predicates: the run's start unless given (`--now`), never the server's `now()`.
        public var now: Date?
        /// `--var NAME=VALUE`: the hooks' `$NAME`s, over their own `variables:`.
        public var variables: [String: String]
        /// Run every pending step and hook in one transaction, then roll it back (SPEC §14.2): exact counts,
        /// nothing written.
        public var dryRun = false
        /// What the audit after each hook checks (SPEC §7): the rows its steps changed (default), the whole
        /// store, or nothing.
        public var audit: AuditMode = .touched
        /// The most sample objects each violated rule keeps in a hook's audit.
        public var maxSamples = 20
        /// List every changed object's ID in the run's change set (`--changes-out`), not only counts.
        public var collectObjectIDs = false
        /// Run the late hooks (their version passed before they appeared) first, each in its own transaction,
        /// against the store's current model, as SQLite's `runLateHooks` does. Late before-hooks stay exit 6.
        public var runLateHooks = false
        /// The Swift stages this binary registers (SPEC §11.2); checked against their declarations before anything runs.
        public var stages = Stages()

        public init(target: Int? = nil, create: Bool = false, lockTimeout: Double = 60, ddlLockTimeout: Double = 5,
                    now: Date? = nil, variables: [String: String] = [:]) {
            self.target = target
            self.create = create
            self.lockTimeout = lockTimeout
            self.ddlLockTimeout = ddlLockTimeout
            self.now = now
            self.variables = variables
        }
    }

    /// What a run did.
    public struct Report: Sendable, Hashable, Encodable {
        public var store: String
        public var created = false
        /// A dry run: what the steps and hooks did, rolled back.
        public var dryRun = false
        public var fromVersion: Int?
        public var toVersion: Int
        /// The steps applied, as `from → to` pairs with their statements.
        public var steps: [Step] = []
        /// The hooks that ran, in run order, with their per-step counts.
        public var hooks: [HookRunResult] = []
        public var nothingToDo = false
        /// What committed despite breaking rules (`onViolation: warn` of a mapping file), one line each.
        public var warnings: [String] = []
        public var storeUUID: String?
        /// `$NOW` of the run's hooks and audits.
        public var now = Date()
        /// Each step as SQLite's runs report it (``StepReport``): changes, table actions, counts, SQL, duration.
        public var stepReports: [StepReport] = []
        /// What the hooks changed, per entity (object IDs with ``Options/collectObjectIDs``).
        public var changes = ChangeSet()
        /// Hooks recorded as not needed when the store was created.
        public var notNeededHooks: [String] = []
        /// Whether another run held the store's lock when this one started (it waited).
        public var waitedForLock = false

        public struct Step: Sendable, Hashable, Encodable {
            public var fromVersion: Int
            public var toVersion: Int
            public var statements: [String]
            /// What the step's mapping file carried and dropped, per destination entity (nil without one).
            public var mapping: [MappingEntityReport]?
        }
    }

    /// Migrates (or creates) the store at `url`.
    /// - Throws: `PostgresStoreError` (missing store 2, not yet supported 2, busy 5, violations 3, server 1),
    ///   `MappingError` (exit 4) for a step that cannot be inferred, a `Diagnostic` for an unknown target.
    public static func run(_ url: PostgresStoreURL, models: ModelHistory, hooks: HookSet, options: Options) async throws -> Report {
        var options = options
        options.now = options.now ?? Date()   // $NOW: the run's start unless given, fixed for every hook and audit
        do {
            return try await reporting(url, models: models, hooks: hooks, options: options)
        } catch let stopped as Stopped {
            throw stopped.underlying
        }
    }

    /// A run that stopped in a step, with the report of what ran until then (that step and its hooks not committed).
    struct Stopped: Error {
        var underlying: any Error
        var report: Report
    }

    /// `run`, throwing ``Stopped`` for a step that fails. `options.now` is set: `$NOW` is fixed for every hook and audit.
    static func reporting(_ url: PostgresStoreURL, models: ModelHistory, hooks: HookSet, options: Options) async throws -> Report {
        let now = options.now ?? Date()
        let target = try targetModel(models, options.target)
        let registrationProblems = options.stages.check(against: hooks)
        if !registrationProblems.isEmpty { throw StageError.registration(registrationProblems) }
        let store: PostgresStore
        do {
            store = try await PostgresStore.open(url)
        } catch {
            guard case .missingStore = error, options.create else { throw error }
            if options.dryRun { return try await dryRunCreate(url, model: target, hooks: hooks, options: options) }
            return try await create(url, model: target, hooks: hooks, options: options)
        }
        let lock = PostgresSessionLock(session: store.session, url: url)
        do {
            try await PostgresPrivileges.checkUsage(store.session)
            let waited = try await lock.acquire(timeout: options.lockTimeout)
            var report = options.dryRun
                ? try await dryRun(store, to: target, models: models, hooks: hooks, options: options)
                : try await migrate(store, to: target, models: models, hooks: hooks, options: options)
            report.now = now
            report.waitedForLock = waited
            try await lock.release()
            await store.close()
            return report
        } catch {
            await store.close()   // ends the session: the server releases its lock
            throw error
        }
    }

    /// `--create` of a schema without a store: the store at the target version, its hooks recorded as not needed.
    static func create(_ url: PostgresStoreURL, model: Model, hooks: HookSet, options: Options) async throws -> Report {
        let (created, didCreate) = try await PostgresStore.create(url, model: model, hooks: hooks, lockTimeout: options.ddlLockTimeout)
        var report = Report(store: url.description, created: didCreate, fromVersion: nil, toVersion: model.version,
                            nothingToDo: !didCreate)
        report.now = options.now ?? Date()
        if didCreate {
            report.storeUUID = try? await created.metadata().storeUUID
            report.notNeededHooks = hooks.hooks.filter { $0.after <= model.version }.map(\.id)
        }
        await created.close()
        return report
    }

    /// The target model: `--to` or the newest.
    static func targetModel(_ models: ModelHistory, _ version: Int?) throws -> Model {
        guard let latest = models.latest else { throw Diagnostic.error("no model files", hint: "add models/1.yaml") }
        guard let version else { return latest }
        guard let model = models.models.first(where: { $0.version == version }) else {
            throw MigrationError.unknownVersion(version, available: models.models.map(\.version))
        }
        return model
    }
}
