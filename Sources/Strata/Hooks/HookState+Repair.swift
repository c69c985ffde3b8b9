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
}
