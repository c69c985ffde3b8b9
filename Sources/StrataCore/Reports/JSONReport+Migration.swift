import Foundation

extension JSONReport {
    /// The whole `MigrationRunReport` in its `Codable` form, with the JSON report's conventions:
    /// absent values are `null` (not missing), a hook's `audit` has the shape of the top-level
    /// `"audit"`, and change sets list object ID URIs as `--changes-out` does.
    ///
    /// ```json
    /// "migration": { "store": "app.sqlite", "storeUUID": "…", "dryRun": true, "created": false, "nothingToDo": false,
    ///   "waitedForLock": false, "fromVersion": 1, "toVersion": 3, "targetVersion": 3, "now": "2024-06-01T12:00:00Z",
    ///   "backup": null, "notNeededHooks": [], "warnings": [],
    ///   "steps": [ { "fromVersion": 1, "toVersion": 2, "metadataOnly": false, "changes": ["addAttribute Recipe.favorite: new bool"],
    ///                "tables": [ { "table": "Ingredient", "sourceTable": "Ingredient", "kind": "rebuild", "reasons": ["column notes dropped"] } ],
    ///                "rowsCopied": { "Ingredient": 1204 },
    ///                "destructive": [ { "change": "removeAttribute Ingredient.notes: removed with its values [destructive]",
    ///                                   "count": 312, "sampleValues": ["\"fresh\""] } ],
    ///                "sql": ["CREATE TABLE …"], "duration": 0.42, "committed": true, "warnings": [] } ],
    ///   "hooks": [ { "id": "favorite-recent-recipes", "after": 2, "file": "migrations/favorite.yaml", "checksum": "…",
    ///                "onViolation": "rollback", "late": false, "committed": true, "outcome": "committed", "rowsAffected": 83,
    ///                "violations": 0,
    ///                "steps": [ { "kind": "batchUpdate", "entity": "Recipe", "count": 83, "objectIDs": null,
    ///                             "updatedCounts": { "Recipe": 83 }, "deletedCounts": {}, "duration": 0.01 } ],
    ///                "audit": { "storeUUID": "…", "scope": "touched", "rules": [ … ], … } } ],
    ///   "changes": { "hasObjectIDs": false, "updated": {}, "deleted": {}, "updatedCounts": { "Recipe": 83 }, "deletedCounts": {} } }
    /// ```
    /// `outcome` is `committed`, `warned` (committed with violations, `onViolation: warn`) or `rolledBack`;
    /// `violations` is the hook audit's total (0 without an audit, whose `audit` is null); `duration`s are seconds,
    /// null when unknown; `rowsCopied` is keyed by the rebuilt table's name before the step.
    func migrationSection(_ migration: MigrationRunReport, _ report: Report) -> [String: Any] {
        var section = Self.object(migration)
        for (key, value) in [("storeUUID", migration.storeUUID), ("backup", migration.backup)] { section[key] = value ?? NSNull() }
        section["fromVersion"] = migration.fromVersion ?? NSNull()
        section["toVersion"] = migration.toVersion ?? NSNull()
        section["steps"] = migration.steps.map(step)
        section["hooks"] = migration.hooks.map { hook($0, report) }
        section["changes"] = changes(migration.changes)
        return section
    }

    func step(_ step: StepReport) -> [String: Any] {
        var object = Self.object(step)
        object["duration"] = step.duration ?? NSNull()
        object["tables"] = step.tables.map { action -> [String: Any] in
            var table = Self.object(action)
            table["sourceTable"] = action.sourceTable ?? NSNull()
            return table
        }
        return object
    }

    func hook(_ hook: HookRunResult, _ report: Report) -> [String: Any] {
        var object = Self.object(hook)
        object["outcome"] = hook.outcome.rawValue
        object["violations"] = hook.violationCount
        object["audit"] = hook.audit.map { auditSection($0, report) } ?? NSNull()
        object["steps"] = hook.steps.map { step -> [String: Any] in
            var result = Self.object(step)
            result["objectIDs"] = step.objectIDs?.map(\.uri) ?? NSNull()
            return result
        }
        return object
    }

    func changes(_ changes: ChangeSet) -> [String: Any] {
        var section: [String: Any] = [
            "hasObjectIDs": changes.hasObjectIDs,
            "updated": changes.updated.mapValues { $0.map(\.uri) },
            "deleted": changes.deleted.mapValues { $0.map(\.uri) },
            "updatedCounts": changes.updatedCounts,
            "deletedCounts": changes.deletedCounts,
        ]
        if !changes.invalidated.isEmpty { section["invalidated"] = changes.invalidated }   // entities sql: steps wrote
        if !changes.remappedCounts.isEmpty {   // mapping steps that gave objects new IDs
            section["remapped"] = changes.remappedDocument
            section["remappedCounts"] = changes.remappedCounts
        }
        if !changes.insertedCounts.isEmpty {   // batch inserts only
            section["inserted"] = changes.inserted.mapValues { $0.map(\.uri) }
            section["insertedCounts"] = changes.insertedCounts
        }
        return section
    }

    /// A value's `Codable` form as a JSON object (absent optionals are missing: callers add the nulls).
    static func object<T: Encodable>(_ value: T) -> [String: Any] {
        let data = try! JSONEncoder().encode(value)
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }
}
