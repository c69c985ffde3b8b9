import Foundation
import StrataCore
import Strata

extension PostgresMigration {
    /// The hooks a run will apply, planned before its first step (SPEC §5, §11.4): each on the model and
    /// layout of the version it runs on, so that a predicate PostgreSQL cannot run, or a server without what
    /// `[c]`/`[d]` need, stops the run before anything is written.
    struct HookSchedule: Sendable {
        var plans: [PostgresHookPlan] = []
        /// Late hooks asked for (`runLateHooks`), planned on the store's current model and layout; they run
        /// first, each in its own transaction, as on SQLite.
        var late: [PostgresHookPlan] = []
        var renderer = PostgresRenderer()

        /// The plans of the hooks running in the step that reaches `version`, at `timing`, in id order.
        func hooks(_ timing: HookTiming, _ version: Int) -> [PostgresHookPlan] {
            plans.filter { $0.hook.after == version && $0.hook.timing == timing }.sorted { $0.hook.id < $1.hook.id }
        }
    }

    /// Plans the waiting hooks of `steps` and checks the server for what their SQL needs.
    /// - Throws: `LateHooksError` (exit 6) for hooks of versions the store passed by migrating (after-hooks only
    ///   without `runLateHooks`; before-hooks always, as on SQLite: what they read is gone); `BatchError`,
    ///   `PostgresRenderError` (exit 2) for hooks that do not check or that PostgreSQL cannot run.
    static func scheduleHooks(_ hooks: HookSet, steps: [(plan: PostgresStepPlan, model: Model)], models: ModelHistory,
                              metadata: StoreMetadata, records: [String: String], target: Int, store: PostgresStore,
                              options: Options) async throws -> HookSchedule {
        let waiting = hooks.hooks.filter { records[$0.id] == nil && $0.after > metadata.createdAtVersion && $0.after <= target }
        let lateBefore = waiting.filter { $0.timing == .before && $0.after <= metadata.version }.map(\.id).sorted()
        if !lateBefore.isEmpty { throw LateHooksError(ids: lateBefore, version: metadata.version, before: true) }
        let late = waiting.filter { $0.after <= metadata.version }.sorted { $0.id < $1.id }
        if !late.isEmpty && !options.runLateHooks { throw LateHooksError(ids: late.map(\.id), version: metadata.version) }
        // $NOW: `--now`, else the run's start (taken here, before the first step), fixed for every hook of the run.
        let context = PredicateContext(variables: options.variables, now: (options.now ?? Date()).timeIntervalSince1970)
        var schedule = HookSchedule()
        if !late.isEmpty {
            guard let current = models.models.first(where: { $0.version == metadata.version }) else {
                throw PostgresStoreError.version(message: "the store is at version \(metadata.version), which no model file has")
            }
            schedule.late = try late.map {
                try PostgresHookPlan.plan($0, model: current, layout: metadata.layout, context: context, schema: store.url.schema)
            }
        }
        var layout = metadata.layout
        for (plan, model) in steps {
            guard let source = models.models.first(where: { $0.version == plan.fromVersion }) else { continue }
            for hook in hooks.hooks(before: plan.toVersion) where waiting.contains(hook) {
                schedule.plans.append(try PostgresHookPlan.plan(hook, model: source, layout: layout, context: context,
                                                                schema: store.url.schema))
            }
            for hook in hooks.hooks(after: plan.toVersion) where waiting.contains(hook) {
                schedule.plans.append(try PostgresHookPlan.plan(hook, model: model, layout: plan.destinationLayout, context: context,
                                                                schema: store.url.schema))
            }
            layout = plan.destinationLayout
        }
        var requirements = (schedule.late + schedule.plans).reduce(into: Set<PostgresRenderer.Requirement>()) { $0.formUnion($1.requirements) }
        if options.audit != .none {
            // The audit after each hook: its rules' needs are checked with the hooks', before the first step.
            for plan in schedule.late + schedule.plans {
                let planner = AuditPlanner(model: plan.model, layout: plan.layout, now: plan.context.now, variables: plan.context.variables)
                requirements.formUnion(try Auditor.requirements(of: try planner.rules(for: .full)))
            }
        }
        schedule.renderer = try await PostgresServerFeatures.renderer(for: requirements, session: store.session)
        return schedule
    }

    /// A late hook in its own transaction on the store's current version (SPEC §5, `--run-late-hooks`): the
    /// advisory transaction lock, the version re-read (the store must still be at `metadata`'s version), the hook
    /// and its audit.
    /// - Returns: its result marked late and its change set, or nil when another run applied it meanwhile.
    /// - Throws: `PostgresStoreError.version` when the store moved since the hook was planned; the hook's errors
    ///   (`HookViolationError` for violations under `onViolation: rollback`: the hook is rolled back).
    static func runLate(_ plan: PostgresHookPlan, store: PostgresStore, metadata: StoreMetadata, renderer: PostgresRenderer,
                        options: Options) async throws -> (result: HookRunResult, changes: ChangeSet)? {
        try await store.session.transaction(lockTimeout: options.ddlLockTimeout) {
            try await store.session.execute("SELECT pg_advisory_xact_lock(\(PostgresNames.advisoryLockKey(schema: store.url.schema)))")
            let version = try await store.version()
            guard version == metadata.version else {
                throw PostgresStoreError.version(message: "the store moved to version \(version.map(String.init) ?? "none") during the run; run again")
            }
            var ran: [(result: HookRunResult, changes: ChangeSet)] = []
            try await runHooks([plan], store: store, renderer: renderer, storeUUID: metadata.storeUUID, options: options, into: &ran)
            guard var outcome = ran.first else { return nil }
            outcome.result.late = true
            return outcome
        }
    }

    /// Throws `StageError.notRegistered` (exit 7) naming the Swift stages among `plans` that this binary does
    /// not register, before any of them runs (as on SQLite, before the step that would run them).
    static func requireRegistered(_ plans: [PostgresHookPlan], options: Options) throws {
        let missing = options.stages.unregistered(in: plans.map(\.hook))
        if !missing.isEmpty { throw StageError.notRegistered(ids: missing) }
    }

    /// Runs `plans` inside the caller's step transaction, each hook exactly once, each with its audit.
    /// - Parameter ran: gets each hook's result and change set, also the result of a hook whose violations
    ///   roll it back (then `HookViolationError` is thrown, exit 3).
    static func runHooks(_ plans: [PostgresHookPlan], store: PostgresStore, renderer: PostgresRenderer, storeUUID: String,
                         options: Options, into ran: inout [(result: HookRunResult, changes: ChangeSet)]) async throws {
        var runner = PostgresHookRunner(store: store, renderer: renderer, storeUUID: storeUUID)
        runner.options = .init(audit: options.audit, maxSamples: options.maxSamples, collectObjectIDs: options.collectObjectIDs,
                               stages: options.stages, isDryRun: options.dryRun)
        try requireRegistered(plans, options: options)
        for plan in plans {
            do {
                if let outcome = try await runner.run(plan) { ran.append(outcome) }
            } catch let error as HookViolationError {
                ran.append((error.result, ChangeSet()))
                throw error
            }
        }
    }
}
