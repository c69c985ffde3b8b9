import Foundation
import GRDB

extension HookRunner {
    /// Runs a Swift stage's registered closure inside the step's transaction (SPEC §11.2).
    /// - Returns: its step result, its change set (batch requests' changes; entities its SQL wrote invalidated),
    ///   and the entities it wrote: those its SQL wrote, by the authorizer, and those its declaration lists.
    /// - Throws: `StageError.notRegistered` (exit 7) when this binary does not register it, `StageError.threw`
    ///   (exit 1) when the closure throws something that is not a Strata error; the caller's transaction rolls back.
    static func runStage(_ hook: Hook, in db: Database, model: Model, layout: StoreLayout, storeUUID: String,
                         context: PredicateContext, options: Options) throws -> (HookStepResult, ChangeSet, written: [String]) {
        guard let registration = options.stages.registration(hook.id) else { throw StageError.notRegistered(ids: [hook.id]) }
        let started = Date()
        // The stage's own SQL runs under the authorizer of `sql:` steps (SPEC §11.2, §11.4): the same refusals,
        // and the tables it writes (trigger programs included) recorded for the audit and the change set.
        let authorizer = SQLAuthorizer.install(on: db, layout: layout)
        authorizer.resetWrites()
        authorizer.reset()
        let stage = StageContext(id: hook.id, model: model, layout: layout, storeUUID: storeUUID, context: context,
                                 isDryRun: options.isDryRun, recordTouched: options.audit == .touched,
                                 collectObjectIDs: options.collectObjectIDs, database: db, authorizer: authorizer)
        do {
            authorizer.armed = true
            defer { authorizer.armed = false }
            try registration.body(stage)
        } catch let error as StrataError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR {
            throw error   // out of space or I/O: reported as such
        } catch {
            throw StageError.threw(stage: hook.id, message: authorizer.refusal.map { "refused: \($0)" } ?? "\(error)")
        }
        try SQLStepRunner.checkForeignKeys(of: hook, writes: authorizer.writes, in: db)
        let written = SQLStepRunner.entities(writtenIn: authorizer.writtenTables, layout: layout)
        var changes = stage.changes
        changes.invalidate(written)
        let entities = Array(Set(written).union(hook.swiftStage?.writes ?? [])).sorted()
        let step = HookStepResult(kind: "swift", entity: entities.joined(separator: ", "), count: stage.rowsAffected, objectIDs: nil,
                                  updatedCounts: stage.changes.updatedCounts, deletedCounts: stage.changes.deletedCounts,
                                  duration: Date().timeIntervalSince(started))
        return (step, changes, entities)
    }
}

extension HookRunner {
    /// Throws `StageError.notRegistered` (exit 7) naming the Swift stages among `hooks` that have no marker yet
    /// and that `stages` does not register: the caller's step stops before doing anything.
    static func requireRegistered(_ hooks: [Hook], in db: Database, stages: Stages) throws {
        var missing: [String] = []
        for id in stages.unregistered(in: hooks) where try !isRecorded(id, in: db) { missing.append(id) }
        if !missing.isEmpty { throw StageError.notRegistered(ids: missing) }
    }
}
