import Foundation
import StrataCore
import Strata

extension PostgresMigration {
    /// The run under the session lock: checks, every step planned, then each step in its transaction.
    static func migrate(_ store: PostgresStore, to target: Model, models: ModelHistory, hooks: HookSet,
                        options: Options) async throws -> Report {
        let metadata = try await store.metadata()
        var report = Report(store: store.url.description, fromVersion: metadata.version, toVersion: metadata.version)
        guard let current = models.models.first(where: { $0.version == metadata.version }) else {
            throw PostgresStoreError.version(message: "the store is at version \(metadata.version), which no model file has")
        }
        // Drift (SPEC §10), as on SQLite: the hashes, the live catalog against the layout, edited hook files.
        let drift = try await PostgresDriftDetector.check(store, metadata: metadata, model: current).items
            + store.hookState(hooks, metadata: metadata).driftItems + store.mappingDriftItems(models.mappings, version: metadata.version)
        if !drift.isEmpty { throw MigrationError.drift(DriftReport(storeVersion: metadata.version, items: drift)) }
        guard target.version >= metadata.version else {
            throw PostgresStoreError.version(message: "--to \(target.version) is below the store's version \(metadata.version)")
        }
        let records = try await store.hookRecords()
        let steps = try MappingInference.plan(models: models.models, from: metadata.version, to: target.version,
                                              sourceLayout: metadata.layout, mappings: models.mappings)
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
        // Late hooks asked for run first, each in its own transaction on the current model (as on SQLite).
        for plan in schedule.late {
            if let result = try await runLate(plan, store: store, metadata: metadata, renderer: schedule.renderer, options: options) {
                report.hooks.append(result)
            }
        }
        for (plan, model) in plans {
            guard let ran = try await apply(plan, model: model, store: store, metadata: metadata, options: options,
                                            hooks: schedule) else { continue }
            report.hooks += ran.hooks
            report.steps.append(Report.Step(fromVersion: plan.fromVersion, toVersion: plan.toVersion, statements: plan.sqlText,
                                            mapping: ran.mapping))
        }
        report.toVersion = try await store.metadata().version
        report.nothingToDo = report.steps.isEmpty && report.hooks.isEmpty
        if report.nothingToDo { report.fromVersion = report.toVersion }
        return report
    }

    /// One step in one transaction: the advisory transaction lock, the version re-read, the statements and
    /// checks with foreign keys deferred, the metadata and a history row.
    /// - Returns: the hooks that ran and the mapping file's counts, or nil when another run had applied the step already.
    static func apply(_ plan: PostgresStepPlan, model: Model, store: PostgresStore, metadata: StoreMetadata, options: Options,
                      hooks: HookSchedule = HookSchedule()) async throws -> (hooks: [HookRunResult], mapping: [MappingEntityReport]?)? {
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
            try await session.execute("SET CONSTRAINTS ALL DEFERRED")
            var ran = try await runHooks(hooks.hooks(.before, plan.toVersion), store: store, renderer: hooks.renderer,
                                         storeUUID: metadata.storeUUID)
            let mapping = try await PostgresMappingReport.make(plan, session: session)
            for operation in plan.operations {
                switch operation {
                case .execute(let statement):
                    try await session.execute(statement)
                case .dependents(let targets):
                    try await PostgresDependents.check(targets, session: session, fromVersion: plan.fromVersion, toVersion: plan.toVersion)
                case .check(let statement, let message):
                    let rows = try await session.rows(statement + " LIMIT 20")
                    guard rows.isEmpty else {
                        var objects: [String] = []
                        for row in rows {
                            let pk = try PostgresSession.decode(row[0], as: Int64.self, statement: statement)
                            let entity = try PostgresSession.decode(row[1], as: String.self, statement: statement)
                            objects.append(ObjectID(storeUUID: metadata.storeUUID, entity: entity, primaryKey: pk).uri)
                        }
                        throw PostgresStoreError.violations(
                            message: "version \(plan.fromVersion) → \(plan.toVersion) needs \(message)", objects: objects)
                    }
                }
            }
            try await store.write(StoreMetadata(storeUUID: metadata.storeUUID, model: model, layout: plan.destinationLayout,
                                                createdAtVersion: metadata.createdAtVersion))
            try await store.recordHistory(kind: "migrate", from: plan.fromVersion, to: plan.toVersion, started: started, finished: Date(),
                                          details: plan.mappingFile.map(MappingState.detailsSuffix))
            ran += try await runHooks(hooks.hooks(.after, plan.toVersion), store: store, renderer: hooks.renderer,
                                      storeUUID: metadata.storeUUID)
            return (ran, mapping)
        }
    }
}
