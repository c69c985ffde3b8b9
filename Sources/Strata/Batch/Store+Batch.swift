import Foundation
import GRDB

extension Store {
    /// Executes a batch update in its own transaction, off the caller's thread, audits the rows it
    /// touched before commit, then publishes its change set to the store's observers.
    ///
    /// ```swift
    /// var request = BatchUpdateRequest(entity: "Recipe", predicate: "lastUsed >= $NOW - 30 days",
    ///                                  propertiesToUpdate: ["favorite": .literal("true")])
    /// request.resultType = .updatedObjectIDs
    /// let result = try await store.execute(request)
    /// ```
    /// - Parameters:
    ///   - context: `$NOW` and `$VARIABLES` (default: now, no variables).
    ///   - model: the store's model; read from the store's metadata when nil.
    ///   - audit: `.touched` (default) audits the changed rows and the entity-wide rules of their entities
    ///     before commit, as SPEC §8 does for `strata batch`; `.full` audits the whole store; `.none` runs
    ///     the bare SQL (Core Data's behaviour: batch requests bypass validation).
    ///   - onViolation: `.rollback` (default) throws `BatchViolationError` and nothing is written; `.warn`
    ///     commits and returns the violations in `result.audit`.
    /// - Throws: `BatchError` or `BatchViolationError` (the transaction is rolled back).
    public func execute(_ request: BatchUpdateRequest, context: PredicateContext? = nil, model: Model? = nil,
                        audit: AuditMode = .touched, onViolation: ViolationPolicy = .rollback, maxSamples: Int = 20) async throws -> BatchResult {
        try await run(model: model, context: context, audit: audit, onViolation: onViolation, maxSamples: maxSamples,
                      keysOf: request.entity) { db, model, metadata, context, wantsIDs in
            try BatchExecutor.execute(request, in: db, model: model, layout: metadata.layout, storeUUID: metadata.storeUUID,
                                      context: context, recordTouched: audit == .touched, collectObjectIDs: wantsIDs,
                                      keepKeys: audit == .touched)
        }
    }

    /// Executes a batch delete (delete rules applied) in its own transaction, audits what it changed
    /// (nullified relationships, counts of related objects) before commit, then publishes its change set.
    /// - Throws: `BatchError.denied` listing the blockers when a deny rule forbids it (nothing is deleted),
    ///   `BatchViolationError` on violations under `.rollback`.
    public func execute(_ request: BatchDeleteRequest, context: PredicateContext? = nil, model: Model? = nil,
                        audit: AuditMode = .touched, onViolation: ViolationPolicy = .rollback, maxSamples: Int = 20) async throws -> BatchResult {
        try await run(model: model, context: context, audit: audit, onViolation: onViolation, maxSamples: maxSamples) {
            db, model, metadata, context, wantsIDs in
            try BatchExecutor.execute(request, in: db, model: model, layout: metadata.layout, storeUUID: metadata.storeUUID,
                                      context: context, recordTouched: audit == .touched, collectObjectIDs: wantsIDs)
        }
    }

    /// Executes a batch insert (literal rows, handler rows, or `from:` one row per source object) in its
    /// own transaction, audits the inserted rows before commit, then publishes its change set (`inserted`).
    /// - Throws: `BatchError` (invalid: nothing written; a uniqueness conflict without `onConflict`: 1551),
    ///   `BatchViolationError` on violations under `.rollback`.
    public func execute(_ request: BatchInsertRequest, context: PredicateContext? = nil, model: Model? = nil,
                        audit: AuditMode = .touched, onViolation: ViolationPolicy = .rollback, maxSamples: Int = 20) async throws -> BatchResult {
        try await run(model: model, context: context, audit: audit, onViolation: onViolation, maxSamples: maxSamples) {
            db, model, metadata, context, wantsIDs in
            try BatchExecutor.execute(request, in: db, model: model, layout: metadata.layout, storeUUID: metadata.storeUUID,
                                      context: context, recordTouched: audit == .touched, collectObjectIDs: wantsIDs)
        }
    }

    /// Links objects by equal attribute values (a `setRelationship` step) in its own transaction, audited
    /// before commit.
    /// - Throws: `BatchError`, `RelationshipAmbiguityError` (nothing linked), `BatchViolationError`.
    public func execute(_ request: SetRelationshipRequest, context: PredicateContext? = nil, model: Model? = nil,
                        audit: AuditMode = .touched, onViolation: ViolationPolicy = .rollback, maxSamples: Int = 20) async throws -> BatchResult {
        try await run(model: model, context: context, audit: audit, onViolation: onViolation, maxSamples: maxSamples) {
            db, model, metadata, context, wantsIDs in
            try BatchExecutor.execute(request, in: db, model: model, layout: metadata.layout, storeUUID: metadata.storeUUID,
                                      context: context, recordTouched: audit == .touched, collectObjectIDs: wantsIDs)
        }
    }

    /// - Parameter keysOf: the entity of a batch update that leaves its keys in `temp.strata_batch_keys`
    ///   (`keepKeys`): the touched audit reads them there, then they are cleared.
    private func run(model: Model?, context: PredicateContext?, audit: AuditMode, onViolation: ViolationPolicy, maxSamples: Int,
                     keysOf entity: String? = nil, _ body: @escaping @Sendable (Database, Model, StoreMetadata, PredicateContext, Bool) throws -> BatchResult) async throws -> BatchResult {
        let context = context ?? PredicateContext(now: Date().timeIntervalSince1970)
        let wantsIDs = changeObservers.wantsObjectIDs
        let path = self.path
        let given = model
        let result: BatchResult
        do {
            // BEGIN IMMEDIATE, then the metadata and layout: a migration that committed before this
            // transaction began is seen, and none can commit while it runs.
            result = try await queue.writeWithoutTransaction { db in try db.withBatchPageCache {
                var outcome: BatchResult?
                try db.inTransaction(.immediate) {
                    let (model, metadata) = try Self.batchModel(given, db: db, path: path)
                    if audit == .touched { try Auditor.prepareTouched(db) }
                    var result = try body(db, model, metadata, context, wantsIDs)
                    let keyedTable = audit == .touched ? entity.flatMap { metadata.layout.storage(of: $0)?.table } : nil
                    result.audit = try Auditor.afterBatch(in: db, mode: audit, model: model, layout: metadata.layout,
                                                          storeUUID: metadata.storeUUID, context: context, maxSamples: maxSamples,
                                                          batchKeysOf: keyedTable)
                    if keyedTable != nil { try db.execute("DELETE FROM \(BatchPlanner.keysTable)") }
                    if onViolation == .rollback, (result.audit?.totalViolations ?? 0) > 0 { throw BatchViolationError(result: result) }
                    outcome = result
                    return .commit
                }
                return outcome!
            } }
        } catch let error as DatabaseError {
            throw PipelineError.mapWriteError(error, path: path)
        } catch let error as BatchError {
            throw PipelineError.mapWriteError(error, path: path)
        }
        changeObservers.publish(result.changes)
        return result
    }

    /// The store's metadata and model (`model` when given, else the recorded copy), read on `db`.
    static func batchModel(_ model: Model?, db: Database, path: String) throws -> (Model, StoreMetadata) {
        guard let metadata = try StoreMetadata.read(db) else { throw StoreError.notAdopted(path: path) }
        if let model { return (model, metadata) }
        do {
            return (try ModelLoader.load(yaml: metadata.modelYAML, file: "\(path) (recorded model)"), metadata)
        } catch {
            throw StoreError.other("the store's recorded model cannot be read: \(error)")
        }
    }
}
