import Foundation
import StrataCore
import Strata

extension PostgresMigration {
    /// The run under the session lock: checks, every step planned, then each step in its transaction.
    static func migrate(_ store: PostgresStore, to target: Model, models: ModelHistory, hooks: HookSet,
                        options: Options) async throws -> Report {
        let metadata = try await store.metadata()
        var report = Report(store: store.url.description, fromVersion: metadata.version, toVersion: metadata.version)
        // $NOW: `--now`, else the run's start, fixed for the mapping files and every hook of the run.
        var options = options
        options.now = options.now ?? Date()
        report.now = options.now!
        guard let current = models.models.first(where: { $0.version == metadata.version }) else {
            throw PostgresStoreError.version(message: "the store is at version \(metadata.version), which no model file has")
        }
        // Drift (SPEC §10), as on SQLite: the hashes, the live catalog against the layout, edited hook files.
        let drift = try await PostgresDriftDetector.check(store, metadata: metadata, model: current).items
            + store.hookState(hooks, metadata: metadata).driftItems + store.mappingDriftItems(models.mappings, version: metadata.version)
        if !drift.isEmpty { throw MigrationError.drift(DriftReport(storeVersion: metadata.version, items: drift)) }
        guard target.version >= metadata.version else {
            throw MigrationError.targetBelowCurrent(current: metadata.version, target: target.version)
        }
        let records = try await store.hookRecords()
        let steps = try MappingInference.plan(models: models.models, from: metadata.version, to: target.version,
                                              sourceLayout: metadata.layout, mappings: models.mappings,
                                              context: PredicateContext(variables: options.variables, now: report.now.timeIntervalSince1970))
        let byVersion = Dictionary(models.models.map { ($0.version, $0) }, uniquingKeysWith: { a, _ in a })
        // Every step is planned before the first runs: a step this engine cannot do stops the run here.
        var plans: [(plan: PostgresStepPlan, model: Model)] = []
        for step in steps {
            var plan = try PostgresStepPlanner.plan(step, source: byVersion[step.fromVersion]!, destination: byVersion[step.toVersion]!)
            plan.mappingFile = step.mappingFile
            plans.append((plan, byVersion[step.toVersion]!))
        }
        // SPEC §14.2: a missing privilege is exit 1 before any change (issue 18, operations).
        if !plans.isEmpty { try await PostgresPrivileges.checkMigrate(store.session, tables: metadata.layout.tables.map(\.name)) }
        let schedule = try await scheduleHooks(hooks, steps: plans, models: models, metadata: metadata, records: records,
                                               target: target.version, store: store, options: options)
        report.storeUUID = metadata.storeUUID
        var reached = metadata.version
        // Late hooks asked for run first, each in its own transaction on the current model (as on SQLite).
        for plan in schedule.late {
            do {
                if let outcome = try await runLate(plan, store: store, metadata: metadata, renderer: schedule.renderer, options: options) {
                    report.hooks.append(outcome.result)
                    report.changes.merge(outcome.changes)
                }
            } catch {
                throw Stopped(underlying: error, report: report)
            }
        }
        for (plan, model) in plans {
            let started = Date()
            var progress = StepProgress()
            let ran: (hooks: [HookRunResult], mapping: [MappingEntityReport]?)?
            do {
                ran = try await apply(plan, model: model, store: store, metadata: metadata, options: options, hooks: schedule,
                                      progress: &progress)
            } catch {
                // The whole step rolled back: its report and the hooks that ran in it are not committed (as on SQLite).
                if var step = progress.step {
                    step.committed = false
                    report.stepReports.append(step)
                }
                report.hooks += progress.ran.map { var result = $0.result; result.committed = false; return result }
                report.toVersion = reached
                throw Stopped(underlying: error, report: report)
            }
            guard let ran else { continue }
            reached = plan.toVersion
            report.hooks += ran.hooks
            report.steps.append(Report.Step(fromVersion: plan.fromVersion, toVersion: plan.toVersion, statements: plan.sqlText,
                                            mapping: ran.mapping))
            if var step = progress.step {
                step.duration = Date().timeIntervalSince(started)
                step.committed = true
                report.stepReports.append(step)
            }
            // The objects the step gave new IDs, then what its hooks changed.
            report.changes.merge(progress.remapped)
            for (_, changes) in progress.ran { report.changes.merge(changes) }
        }
        report.toVersion = try await store.metadata().version
        report.nothingToDo = report.steps.isEmpty && report.hooks.isEmpty
        if report.nothingToDo { report.fromVersion = report.toVersion }
        return report
    }

    /// What a step's transaction did so far: kept when it fails, for the report of the run that stopped.
    struct StepProgress {
        var step: StepReport?
        var ran: [(result: HookRunResult, changes: ChangeSet)] = []
        /// The objects the step gave new IDs (`remapped`, with their IDs when collected).
        var remapped = ChangeSet()
        /// A mapping file's violations committed under `onViolation: warn`, in the step's report.
        var warnings: [String] = []
    }

    /// One step in one transaction: the advisory transaction lock, the version re-read, the before-hooks, the
    /// step's report (counted before it runs), the statements and checks with foreign keys deferred, the
    /// metadata and a history row, then the after-hooks, each with its audit.
    /// - Returns: the hooks that ran and the mapping file's counts, or nil when another run had applied the step already.
    static func apply(_ plan: PostgresStepPlan, model: Model, store: PostgresStore, metadata: StoreMetadata, options: Options,
                      hooks: HookSchedule = HookSchedule()) async throws -> (hooks: [HookRunResult], mapping: [MappingEntityReport]?)? {
        var progress = StepProgress()
        return try await apply(plan, model: model, store: store, metadata: metadata, options: options, hooks: hooks, progress: &progress)
    }

    static func apply(_ plan: PostgresStepPlan, model: Model, store: PostgresStore, metadata: StoreMetadata, options: Options,
                      hooks: HookSchedule, progress: inout StepProgress) async throws -> (hooks: [HookRunResult], mapping: [MappingEntityReport]?)? {
        let session = store.session
        return try await session.transaction(lockTimeout: options.ddlLockTimeout) {
            let started = Date()
            try await session.execute("SELECT pg_advisory_xact_lock(\(PostgresNames.advisoryLockKey(schema: store.url.schema)))")
            guard let version = try await store.version() else {
                throw StoreError.corrupt(path: store.url.description, detail: "metadata key 'strata.version' is missing")
            }
            if version >= plan.toVersion { return nil }
            guard version == plan.fromVersion else {
                throw PostgresStoreError.version(message: "the store moved to version \(version) during the run; run again")
            }
            try requireRegistered(hooks.hooks(.before, plan.toVersion) + hooks.hooks(.after, plan.toVersion), options: options)
            try await session.execute("SET CONSTRAINTS ALL DEFERRED")
            try await runHooks(hooks.hooks(.before, plan.toVersion), store: store, renderer: hooks.renderer,
                               storeUUID: metadata.storeUUID, options: options, into: &progress.ran)
            progress.step = try await PostgresStepReport.make(plan, session: session)
            let mapping = try await PostgresMappingReport.make(plan, session: session, storeUUID: metadata.storeUUID, maxSamples: options.maxSamples)
            progress.step?.mapping = mapping
            for operation in plan.operations {
                switch operation {
                case .execute(let statement):
                    try await session.execute(statement)
                case .remapped(let list, let counts):
                    try await collectRemapped(list: list, counts: counts, session: session, storeUUID: metadata.storeUUID,
                                              ids: options.collectObjectIDs, into: &progress.remapped)
                case .dependents(let targets):
                    try await PostgresDependents.check(targets, session: session, fromVersion: plan.fromVersion, toVersion: plan.toVersion)
                case .check(let check):
                    if let violation = try await Self.run(check, session: session, storeUUID: metadata.storeUUID) {
                        throw MigrationError.violations(fromVersion: plan.fromVersion, toVersion: plan.toVersion, [violation])
                    }
                }
            }
            if let audit = try await auditMapping(plan.step, model: model, store: store, storeUUID: metadata.storeUUID, options: options,
                                                  warnings: &progress.warnings) {
                progress.step?.mappingAudit = audit
            }
            // In the step's block (stdout, the step's JSON), as SQLite's `stepReport.warnings`; not the run's (stderr).
            progress.step?.warnings = progress.warnings
            try await store.write(StoreMetadata(storeUUID: metadata.storeUUID, model: model, layout: plan.destinationLayout,
                                                createdAtVersion: metadata.createdAtVersion))
            try await store.recordHistory(kind: "migrate", from: plan.fromVersion, to: plan.toVersion, started: started, finished: Date(),
                                          details: plan.mappingFile.map(MappingState.detailsSuffix))
            try await runHooks(hooks.hooks(.after, plan.toVersion), store: store, renderer: hooks.renderer,
                               storeUUID: metadata.storeUUID, options: options, into: &progress.ran)
            return (progress.ran.map(\.result), mapping)
        }
    }

    /// Runs a step's data condition; rows are `(_pk, entity, values…)`, as on SQLite.
    static func run(_ check: MigrationCheck, session: PostgresSession, storeUUID: String) async throws -> MigrationViolation? {
        let statement = check.statement
        let rows = try await session.rows(statement).map { row -> MigrationViolation.Row in
            let values = check.kind == .duplicates ? try (2..<row.count).map { try PostgresCellValue.value(row[$0], statement: statement) } : []
            return (try PostgresSession.decode(row[0], as: Int64.self, statement: statement),
                    try PostgresSession.decode(row[1], as: String.self, statement: statement), values)
        }
        return MigrationViolation(check, rows: rows, storeUUID: storeUUID)
    }
}
