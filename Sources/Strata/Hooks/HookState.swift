import GRDB

/// How each hook file stands against a store's `strata_hooks` records (SPEC §5, §10 "Hook lifecycle").
public struct HookState: Sendable, Hashable, Codable {
    /// Will run when the store passes its version.
    public var pending: [String]
    /// Its version was passed by migrating before the hook appeared: `migrate` refuses (exit 6) unless `--run-late-hooks`.
    public var late: [String]
    /// At or below the version the store was created at: never runs.
    public var notNeeded: [String]
    public var applied: [String]
    /// Applied, but the file changed since: drift (exit 6).
    public var edited: [EditedHook]
    /// Applied hooks whose file is gone (a warning).
    public var deleted: [String]
    /// Late hooks recorded as skipped (`strata repair --skip`): never run.
    public var skipped: [String] = []

    public struct EditedHook: Sendable, Hashable, Codable {
        public var id: String
        public var recordedChecksum: String
        public var fileChecksum: String
    }

    /// Compares the hooks with the store's records.
    static func read(_ db: Database, metadata: StoreMetadata, hooks: HookSet) throws -> HookState {
        let records = Dictionary(try History.hooks(db).map { ($0.id, (status: $0.status, checksum: $0.checksum)) }, uniquingKeysWith: { a, _ in a })
        return HookState(hooks: hooks, records: records, metadata: metadata)
    }

    /// Drift items for edited hooks.
    public var driftItems: [DriftReport.Item] {
        edited.map { DriftReport.Item(.editedHook, table: "hook \($0.id)", expected: "checksum \($0.recordedChecksum) (as applied)",
                                      found: "file checksum \($0.fileChecksum)") }
    }

    /// Records the hooks with `after` (or `before`) ≤ the creation version as not needed (inside the creation transaction).
    static func recordNotNeeded(_ db: Database, hooks: HookSet, createdAt version: Int) throws {
        for hook in hooks.hooks where hook.after <= version {
            // A before-hook's record names the model it is checked against (the version below), as when it runs.
            let model = hook.timing == .before ? hook.modelVersion : version
            try History.recordHook(db, HookRecord(id: hook.id, checksum: hook.checksum, afterVersion: hook.after, modelVersion: model,
                                                  status: "notNeeded", rowsAffected: 0, finished: History.timestamp(.init()), results: nil))
        }
    }
}

extension HookState {
    /// Compares the hooks with a store's records (id → status and checksum in `strata_hooks`), whatever its engine.
    public init(hooks: HookSet, records: [String: (status: String, checksum: String)], metadata: StoreMetadata) {
        var state = HookState(pending: [], late: [], notNeeded: [], applied: [], edited: [], deleted: [])
        for hook in hooks.hooks {
            if let record = records[hook.id] {
                if record.status == "notNeeded" {
                    state.notNeeded.append(hook.id)
                } else if record.status == "skipped" {
                    state.skipped.append(hook.id)
                } else if record.checksum != hook.checksum {
                    state.edited.append(EditedHook(id: hook.id, recordedChecksum: record.checksum, fileChecksum: hook.checksum))
                } else {
                    state.applied.append(hook.id)
                }
            } else if hook.after <= metadata.createdAtVersion {
                state.notNeeded.append(hook.id)
            } else if hook.after <= metadata.version {
                state.late.append(hook.id)
            } else {
                state.pending.append(hook.id)
            }
        }
        let known = Set(hooks.hooks.map(\.id))
        state.deleted = records.filter { $0.value.status == "applied" && !known.contains($0.key) }.map(\.key).sorted()
        self = state
    }
}
