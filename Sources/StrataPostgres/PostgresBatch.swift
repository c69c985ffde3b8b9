import Foundation
import StrataCore
import Strata

/// `strata batch update|delete` on a PostgreSQL store (SPEC §8, §14.2): one request, planned by the shared
/// `BatchPlanner` against the store's recorded layout and model, run in one transaction under the store's
/// locks, as a hook's step would run.
///
/// ```swift
/// let request = BatchUpdateRequest(entity: "Recipe", predicate: "rating > 3", propertiesToUpdate: ["favorite": .literal("true")])
/// let result = try await PostgresBatch.run(url, models: history, update: request, context: PredicateContext(now: now))
/// ```
public enum PostgresBatch {
    /// One planned request.
    enum Planned: Sendable {
        case update(BatchUpdatePlan, BatchUpdateRequest)
        case delete(BatchDeletePlan, BatchDeleteRequest)
    }

    /// Runs a batch update.
    /// - Throws: `BatchError` (invalid 2, denied 3), `PostgresRenderError` (2), `PostgresStoreError` (busy 5, server 1).
    public static func run(_ url: PostgresStoreURL, models: ModelHistory, update request: BatchUpdateRequest,
                           context: PredicateContext, lockTimeout: Double = 60, ddlLockTimeout: Double = 5) async throws -> BatchResult {
        try await run(url, models: models, lockTimeout: lockTimeout, ddlLockTimeout: ddlLockTimeout) { model, layout in
            var context = context
            context.arguments = request.arguments
            return .update(try BatchPlanner(model: model, layout: layout).planUpdate(request, context: context), request)
        }
    }

    /// Runs a batch delete with the model's delete rules.
    /// - Throws: as for updates; `BatchError.denied` (exit 3) when a deny rule blocks it.
    public static func run(_ url: PostgresStoreURL, models: ModelHistory, delete request: BatchDeleteRequest,
                           context: PredicateContext, lockTimeout: Double = 60, ddlLockTimeout: Double = 5) async throws -> BatchResult {
        try await run(url, models: models, lockTimeout: lockTimeout, ddlLockTimeout: ddlLockTimeout) { model, layout in
            var context = context
            context.arguments = request.arguments
            return .delete(try BatchPlanner(model: model, layout: layout).planDelete(request, context: context), request)
        }
    }

    static func run(_ url: PostgresStoreURL, models: ModelHistory, lockTimeout: Double, ddlLockTimeout: Double,
                    plan: (Model, StoreLayout) throws -> Planned) async throws -> BatchResult {
        let store = try await PostgresStore.open(url)
        do {
            let lock = PostgresSessionLock(session: store.session, url: url)
            try await lock.acquire(timeout: lockTimeout)
            let metadata = try await store.metadata()
            guard let model = models.models.first(where: { $0.version == metadata.version }) else {
                throw PostgresStoreError.version(message: "the store is at version \(metadata.version), which no model file has")
            }
            if VersionHash.modelHash(of: model) != metadata.modelHash {
                throw PostgresStoreError.drift(store: url.description,
                                               detail: "its recorded model hash differs from version \(metadata.version)'s model file")
            }
            let planned = try plan(model, metadata.layout)
            let statement: SQLText
            switch planned {
            case .update(let update, _): statement = update.update(returning: true)
            case .delete(let delete, _): statement = delete.seed
            }
            let renderer = try await PostgresServerFeatures.renderer(for: try PostgresRenderer().rendering(statement).requirements,
                                                                     session: store.session)
            let runner = PostgresHookRunner(store: store, renderer: renderer, storeUUID: metadata.storeUUID)
            let result = try await store.session.transaction(lockTimeout: ddlLockTimeout) {
                try await store.session.execute("SELECT pg_advisory_xact_lock(\(PostgresNames.advisoryLockKey(schema: url.schema)))")
                try await store.session.execute("SET CONSTRAINTS ALL DEFERRED")
                switch planned {
                case .update(let update, let request): return try await runner.run(update, request)
                case .delete(let delete, let request): return try await runner.run(delete, request, layout: metadata.layout)
                }
            }
            try await lock.release()
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}
