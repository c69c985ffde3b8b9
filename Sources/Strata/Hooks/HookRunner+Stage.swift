import Foundation
import GRDB

extension HookRunner {
    /// Runs a Swift stage's registered closure inside the step's transaction (SPEC §11.2).
    /// - Throws: `StageError.notRegistered` (exit 7) when this binary does not register it, `StageError.threw`
    ///   (exit 1) when the closure throws something that is not a Strata error; the caller's transaction rolls back.
    static func runStage(_ hook: Hook, in db: Database, model: Model, layout: StoreLayout, storeUUID: String,
                         context: PredicateContext, options: Options) throws -> (HookStepResult, ChangeSet) {
        guard let registration = options.stages.registration(hook.id) else { throw StageError.notRegistered(ids: [hook.id]) }
        let started = Date()
        let stage = StageContext(id: hook.id, model: model, layout: layout, storeUUID: storeUUID, context: context,
                                 isDryRun: options.isDryRun, recordTouched: options.audit == .touched,
                                 collectObjectIDs: options.collectObjectIDs, database: db)
        do {
            try registration.body(stage)
        } catch let error as StrataError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR {
            throw error   // out of space or I/O: reported as such
        } catch {
            throw StageError.threw(stage: hook.id, message: "\(error)")
        }
        let writes = hook.swiftStage?.writes ?? []
        let step = HookStepResult(kind: "swift", entity: writes.joined(separator: ", "), count: stage.rowsAffected, objectIDs: nil,
                                  updatedCounts: stage.changes.updatedCounts, deletedCounts: stage.changes.deletedCounts,
                                  duration: Date().timeIntervalSince(started))
        return (step, stage.changes)
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
