import Foundation
import StrataCore
import Strata

/// Batch requests and their change sets on an open PostgreSQL store, as ``Store`` gives them on SQLite:
/// one request (an update, a delete, an insert, a link) in one transaction under the store's locks, run by the
/// hooks' runner, audited before commit, its change set published to ``changes(includingObjectIDs:)`` once
/// committed.
extension PostgresStore {
    /// Executes a batch update against the store's recorded model, audits it before commit, then publishes
    /// its change set.
    ///
    /// ```swift
    /// var request = BatchUpdateRequest(entity: "Recipe", predicate: "lastUsed >= $NOW - 30 days",
    ///                                  propertiesToUpdate: ["favorite": .literal("true")])
    /// request.resultType = .updatedObjectIDs
    /// let result = try await store.execute(request)
    /// ```
    /// - Parameters:
    ///   - context: `$NOW` and `$VARIABLES` (default: now, no variables).
    ///   - audit: `.touched` (default) audits the changed rows and the entity-wide rules of their entities;
    ///     `.full` the whole store; `.none` runs the bare SQL.
    ///   - onViolation: `.rollback` (default) throws `BatchViolationError` and nothing is written; `.warn` commits
    ///     and returns the violations in `result.audit`.
    ///   - lockTimeout: seconds to wait for another run's session lock.
    /// - Throws: `BatchError`, `BatchViolationError`, `PostgresRenderError`, `PostgresStoreError` (busy, server).
    public func execute(_ request: BatchUpdateRequest, context: PredicateContext? = nil, audit: AuditMode = .touched,
                        onViolation: ViolationPolicy = .rollback, maxSamples: Int = 20, lockTimeout: Double = 60) async throws -> BatchResult {
        let context = context ?? PredicateContext(now: Date().timeIntervalSince1970)
        return try await publishing(context: context, audit: audit, onViolation: onViolation, maxSamples: maxSamples,
                                    lockTimeout: lockTimeout) { model, layout in
            try .planned(request, model: model, layout: layout, context: context)
        }
    }

    /// Executes a batch delete (the model's delete rules applied), audited and published as an update is.
    /// - Throws: as for updates; `BatchError.denied` listing the blockers when a deny rule forbids it.
    public func execute(_ request: BatchDeleteRequest, context: PredicateContext? = nil, audit: AuditMode = .touched,
                        onViolation: ViolationPolicy = .rollback, maxSamples: Int = 20, lockTimeout: Double = 60) async throws -> BatchResult {
        let context = context ?? PredicateContext(now: Date().timeIntervalSince1970)
        return try await publishing(context: context, audit: audit, onViolation: onViolation, maxSamples: maxSamples,
                                    lockTimeout: lockTimeout) { model, layout in
            try .planned(request, model: model, layout: layout, context: context)
        }
    }

    /// Executes a batch insert (literal rows, handler rows, or `from:` one row per source object), audits the
    /// inserted rows before commit, then publishes its change set (`inserted`; `updated` for the rows an
    /// `onConflict: .update` changed), as `Store.execute` does on SQLite: the same new `_pk`s, IDs and counts.
    ///
    /// ```swift
    /// var request = BatchInsertRequest(entity: "Recipe", objects: [["name": .literal("Soup")]])
    /// request.resultType = .objectIDs
    /// let result = try await store.execute(request)
    /// ```
    /// A `dictionaryHandler`'s rows are asked for and planned (one `INSERT` each) before the transaction begins.
    /// - Throws: as for updates; `BatchError.invalid` (nothing written), `BatchError.violation` 1551 for a
    ///   uniqueness conflict without `onConflict`, `BatchError.violation` 1700 for a to-one key that
    ///   names no object, as on SQLite. With `onConflict: .update` into a table with several uniqueness constraints, a `from:`
    ///   insert runs row by row on the server, as SQLite runs it (`BatchInsertPlan.rowByRow`).
    public func execute(_ request: BatchInsertRequest, context: PredicateContext? = nil, audit: AuditMode = .touched,
                        onViolation: ViolationPolicy = .rollback, maxSamples: Int = 20, lockTimeout: Double = 60) async throws -> BatchResult {
        let context = context ?? PredicateContext(now: Date().timeIntervalSince1970)
        return try await publishing(context: context, audit: audit, onViolation: onViolation, maxSamples: maxSamples,
                                    lockTimeout: lockTimeout) { model, layout in
            try .planned(request, model: model, layout: layout, context: context)
        }
    }

    /// Links objects by equal attribute values (a `setRelationship` step), audited before commit and published
    /// (`updated`) as an update is.
    /// - Throws: as for updates; `RelationshipAmbiguityError` (nothing linked) when an object matches several.
    public func execute(_ request: SetRelationshipRequest, context: PredicateContext? = nil, audit: AuditMode = .touched,
                        onViolation: ViolationPolicy = .rollback, maxSamples: Int = 20, lockTimeout: Double = 60) async throws -> BatchResult {
        let context = context ?? PredicateContext(now: Date().timeIntervalSince1970)
        return try await publishing(context: context, audit: audit, onViolation: onViolation, maxSamples: maxSamples,
                                    lockTimeout: lockTimeout) { model, layout in
            try .planned(request, model: model, layout: layout, context: context)
        }
    }

    /// The change sets of this open store, as an `AsyncSequence`: every batch request it executes publishes
    /// what it changed, after its transaction committed (``StoreChanges``, as ``Store`` gives on SQLite).
    /// Changes made by other connections (another process, `strata migrate`) are not seen.
    /// - Parameter includingObjectIDs: change sets carry the changed objects' IDs (default); false keeps counts.
    public func changes(includingObjectIDs: Bool = true) -> StoreChanges {
        StoreChanges(observers: changeObservers, wantsObjectIDs: includingObjectIDs)
    }

    private func publishing(context: PredicateContext, audit: AuditMode, onViolation: ViolationPolicy, maxSamples: Int,
                            lockTimeout: Double,
                            plan: (Model, StoreLayout) throws -> PostgresHookPlan.Step) async throws -> BatchResult {
        let result = try await PostgresBatch.run(on: self, models: nil, lockTimeout: lockTimeout, ddlLockTimeout: 5, context: context,
                                                 audit: PostgresBatch.Audit(mode: audit, onViolation: onViolation, maxSamples: maxSamples),
                                                 collectObjectIDs: changeObservers.wantsObjectIDs, plan: plan)
        changeObservers.publish(result.changes)
        return result
    }
}
