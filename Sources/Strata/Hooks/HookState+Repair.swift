import Foundation
import GRDB

extension HookState {
    /// `strata repair`: re-records the checksums of applied hooks whose files were edited (after a person
    /// checked the edit), clearing that drift. Returns the repaired ids.
    public static func repair(_ store: Store, hooks: HookSet) throws -> [EditedHook] {
        try store.wrap {
            try store.queue.inDatabase { db in
                var repaired: [EditedHook] = []
                try db.inTransaction(.immediate) {
                    guard let metadata = try StoreMetadata.read(db) else { throw StoreError.notAdopted(path: store.path) }
                    let state = try HookState.read(db, metadata: metadata, hooks: hooks)
                    for edited in state.edited {
                        try db.execute(sql: #"UPDATE "strata_hooks" SET "checksum" = ? WHERE "id" = ?"#,
                                       arguments: [edited.fileChecksum, edited.id])
                    }
                    repaired = state.edited
                    return .commit
                }
                return repaired
            }
        }
    }

    /// `strata repair --skip ID…`: records late hooks as skipped (a late before-hook can never run). Returns the
    /// ids recorded.
    /// - Throws: `DiagnosticList` (exit 2, nothing written) when an id is not a late hook of this store.
    public static func skip(_ ids: [String], store: Store, hooks: HookSet) throws -> [String] {
        try store.wrap {
            try store.queue.inDatabase { db in
                try db.inTransaction(.immediate) {
                    guard let metadata = try StoreMetadata.read(db) else { throw StoreError.notAdopted(path: store.path) }
                    let state = try HookState.read(db, metadata: metadata, hooks: hooks)
                    try state.checkSkippable(ids)
                    for id in ids {
                        guard let hook = hooks.hook(id: id) else { continue }
                        let model = hook.timing == .before ? hook.modelVersion : metadata.version
                        try History.recordHook(db, HookRecord(id: id, checksum: hook.checksum, afterVersion: hook.after, modelVersion: model,
                                                              status: "skipped", rowsAffected: 0, finished: History.timestamp(Date()),
                                                              results: nil))
                    }
                    return .commit
                }
                return ids
            }
        }
    }

    /// Refuses (exit 2) the ids that are not late hooks of the store: only those can be recorded as skipped.
    package func checkSkippable(_ ids: [String]) throws(DiagnosticList) {
        let refused = ids.filter { !late.contains($0) }.map { id in
            Diagnostic.error("'\(id)' is not a late hook of this store", hint: late.isEmpty
                ? "only a late hook (its version passed before it appeared) can be skipped; this store has none"
                : "late hooks: \(late.joined(separator: ", "))")
        }
        if !refused.isEmpty { throw DiagnosticList(refused) }
    }
}
