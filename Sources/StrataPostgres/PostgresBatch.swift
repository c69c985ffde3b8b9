import Foundation
import StrataCore
import Strata

/// `strata batch update|delete` on a PostgreSQL store (SPEC §8, §14.2), and the library's requests (inserts and
/// links too, `PostgresStore.execute`): one request, planned by the shared planners against the store's recorded
/// layout and model, run in one transaction under the store's locks by the hooks' runner, as a hook's step of
/// that kind runs: the rows it changes recorded in `pg_temp."strata_touched"`, then the audit before commit
/// (SPEC §8), as on SQLite.
///
/// ```swift
/// let request = BatchUpdateRequest(entity: "Recipe", predicate: "rating > 3", propertiesToUpdate: ["favorite": .literal("true")])
/// let result = try await PostgresBatch.run(url, models: history, update: request, context: PredicateContext(now: now))
/// ```
public enum PostgresBatch {
    /// What the audit before commit checks and does with violations, as `Store.execute` on SQLite.
    public struct Audit: Sendable {
        /// `.touched` (default): the changed rows and the entity-wide rules of their entities; `.full`; `.none`.
        public var mode: AuditMode
        /// `.rollback` (default) throws `BatchViolationError` (exit 3), nothing written; `.warn` commits and reports.
        public var onViolation: ViolationPolicy
        public var maxSamples: Int

        public init(mode: AuditMode = .touched, onViolation: ViolationPolicy = .rollback, maxSamples: Int = 20) {
            self.mode = mode
            self.onViolation = onViolation
            self.maxSamples = maxSamples
        }
    }

    /// Runs a batch update.
    /// - Throws: `BatchError` (invalid 2, denied 3), `BatchViolationError` (3), `PostgresRenderError` (2),
    ///   `PostgresStoreError` (busy 5, server 1).
    public static func run(_ url: PostgresStoreURL, models: ModelHistory, update request: BatchUpdateRequest,
                           context: PredicateContext, lockTimeout: Double = 60, ddlLockTimeout: Double = 5,
                           audit: Audit = Audit()) async throws -> BatchResult {
        try await run(url, models: models, lockTimeout: lockTimeout, ddlLockTimeout: ddlLockTimeout, context: context,
                      audit: audit) { model, layout in
            try .planned(request, model: model, layout: layout, context: context)
        }
    }

    /// Runs a batch delete with the model's delete rules.
    /// - Throws: as for updates; `BatchError.denied` (exit 3) when a deny rule blocks it.
    public static func run(_ url: PostgresStoreURL, models: ModelHistory, delete request: BatchDeleteRequest,
                           context: PredicateContext, lockTimeout: Double = 60, ddlLockTimeout: Double = 5,
                           audit: Audit = Audit()) async throws -> BatchResult {
        try await run(url, models: models, lockTimeout: lockTimeout, ddlLockTimeout: ddlLockTimeout, context: context,
                      audit: audit) { model, layout in
            try .planned(request, model: model, layout: layout, context: context)
        }
    }

    static func run(_ url: PostgresStoreURL, models: ModelHistory, lockTimeout: Double, ddlLockTimeout: Double,
                    context: PredicateContext, audit: Audit,
                    plan: (Model, StoreLayout) throws -> PostgresHookPlan.Step) async throws -> BatchResult {
        let store = try await PostgresStore.open(url)
        do {
            let result = try await run(on: store, models: models, lockTimeout: lockTimeout, ddlLockTimeout: ddlLockTimeout,
                                       context: context, audit: audit, plan: plan)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }

    /// One request on an open store, under its session lock, in one transaction with its audit.
    /// - Parameters:
    ///   - models: the model files, whose version of the store must match its recorded hash; nil plans against
    ///     the model the store recorded (the library's calls, as `Store.execute` on SQLite).
    ///   - collectObjectIDs: list every changed object's ID in the change set, not only counts.
    static func run(on store: PostgresStore, models: ModelHistory?, lockTimeout: Double, ddlLockTimeout: Double,
                    context: PredicateContext, audit: Audit, collectObjectIDs: Bool = false,
                    plan: (Model, StoreLayout) throws -> PostgresHookPlan.Step) async throws -> BatchResult {
        let url = store.url
        let lock = PostgresSessionLock(session: store.session, url: url)
        _ = try await lock.acquire(timeout: lockTimeout)
        do {
            let metadata = try await store.metadata()
            let model: Model
            if let models {
                guard let file = models.models.first(where: { $0.version == metadata.version }) else {
                    throw PostgresStoreError.version(message: "the store is at version \(metadata.version), which no model file has")
                }
                if VersionHash.modelHash(of: file) != metadata.modelHash {
                    throw PostgresStoreError.drift(store: url.description,
                                                   detail: "its recorded model hash differs from version \(metadata.version)'s model file")
                }
                model = file
            } else {
                model = try Store.recordedModel(metadata, path: url.description)
            }
            let planned = try plan(model, metadata.layout)
            var requirements: Set<PostgresRenderer.Requirement> = []
            for statement in planned.statements { requirements.formUnion(try PostgresRenderer().rendering(statement).requirements) }
            var auditor = Auditor(model: model, layout: metadata.layout, storeUUID: metadata.storeUUID, now: context.now)
            auditor.variables = context.variables
            let scope: AuditScope = audit.mode == .full ? .full : .touched
            let rules = audit.mode == .none ? []
                : try AuditPlanner(model: model, layout: metadata.layout, now: context.now, variables: context.variables).rules(for: scope)
            requirements.formUnion(try Auditor.requirements(of: rules))
            let renderer = try await PostgresServerFeatures.renderer(for: requirements, session: store.session)
            var runner = PostgresHookRunner(store: store, renderer: renderer, storeUUID: metadata.storeUUID)
            runner.options.audit = audit.mode
            runner.options.maxSamples = audit.maxSamples
            runner.options.collectObjectIDs = collectObjectIDs
            let layout = metadata.layout
            let result = try await PostgresBatch.violations(layout: layout) { try await store.session.transaction(lockTimeout: ddlLockTimeout) {
                try await store.session.execute("SELECT pg_advisory_xact_lock(\(PostgresNames.advisoryLockKey(schema: url.schema)))")
                try await store.session.execute("SET CONSTRAINTS ALL DEFERRED")
                if runner.recordsTouched { try await runner.prepareTouched() }
                var result = try await runner.run(planned, model: model, layout: metadata.layout, hook: nil)
                if audit.mode != .none {
                    result.audit = try await auditor.run(rules, scope: scope, maxSamples: audit.maxSamples, session: store.session,
                                                         renderer: renderer)
                }
                // Thrown inside the transaction, so nothing of the batch is committed.
                if audit.onViolation == .rollback, (result.audit?.totalViolations ?? 0) > 0 { throw BatchViolationError(result: result) }
                return result
            } }
            try await lock.release()
            return result
        } catch {
            try? await lock.release()   // the library's store stays open: its session lock must not outlive the request
            throw error
        }
    }

    /// Runs `body` (the request's transaction), turning a constraint failure the server reported into the
    /// `BatchError` SQLite's `Store.execute` gives, with SQLite's words: a unique constraint or index of
    /// `layout` as `UNIQUE constraint failed: Table.column, …` (1551), a foreign key as `FOREIGN KEY constraint
    /// failed` (1700). The transaction has rolled back: nothing was written.
    static func violations<T>(layout: StoreLayout, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PostgresStoreError {
            throw violation(error, layout: layout) ?? error
        }
    }

    /// The `BatchError` for a server's constraint failure (nil for other errors).
    static func violation(_ error: PostgresStoreError, layout: StoreLayout) -> BatchError? {
        guard case .server(let message, let state?, _, let constraint) = error else { return nil }
        switch state {
        case "23505":
            for table in layout.tables {
                guard let index = table.indexes.first(where: { $0.isUnique && ($0.name == constraint || PostgresNames.shortened($0.name) == constraint) })
                else { continue }
                return .uniqueness("UNIQUE constraint failed: " + index.columns.map { "\(table.name).\($0)" }.joined(separator: ", "))
            }
            return .uniqueness(message)   // an index of the user's own
        case "23503": return .danglingReference("FOREIGN KEY constraint failed")
        default: return nil
        }
    }
}
