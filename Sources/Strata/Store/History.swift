import Foundation
import GRDB

/// One row of `strata_history`: a store creation, adoption or one version step.
public struct HistoryEntry: Sendable, Hashable, Codable {
    public var id: Int64
    /// `create`, `adopt` or `migrate`.
    public var kind: String
    public var fromVersion: Int?
    public var toVersion: Int
    public var started: String
    public var finished: String
    /// Seconds.
    public var duration: Double
    public var toolVersion: String
    public var details: String?
}

/// One row of `strata_hooks`: a hook that ran (or was recorded as not needed).
public struct HookRecord: Sendable, Hashable, Codable {
    public var id: String
    public var checksum: String
    public var afterVersion: Int
    public var modelVersion: Int
    /// `applied`, `notNeeded` or `skipped` (a late hook, `strata repair --skip`).
    public var status: String
    public var rowsAffected: Int
    public var finished: String
    /// JSON of the per-step results.
    public var results: String?

    /// `before` for a `before: N` hook: its record names the model below N, which no after-hook's does
    /// (an after-hook runs on N or, late, on a later version).
    public var timing: HookTiming { modelVersion < afterVersion ? .before : .after }
}

public enum History {
    /// ISO 8601 with milliseconds, UTC.
    public static func timestamp(_ date: Date) -> String {
        DateText.utc(date.timeIntervalSince1970, milliseconds: true)
    }

    /// Appends a history row (inside the caller's transaction).
    static func record(_ db: Database, kind: String, from: Int?, to: Int, started: Date, finished: Date,
                       details: String? = nil) throws {
        try db.execute(sql: """
            INSERT INTO "strata_history" ("kind", "fromVersion", "toVersion", "started", "finished", "duration", "toolVersion", "details")
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [kind, from, to, timestamp(started), timestamp(finished),
                             finished.timeIntervalSince(started), StrataVersion.current, details])
    }

    /// The history rows in time order (ties by version, then insertion).
    static func entries(_ db: Database) throws -> [HistoryEntry] {
        try Row.fetchAll(db, sql: #"SELECT * FROM "strata_history" ORDER BY "started", "finished", "toVersion", "id""#).map { row in
            func column<V: DatabaseValueConvertible>(_ name: String) throws -> V { try row.bookkeeping(name, of: "strata_history", in: db) }
            return HistoryEntry(id: try column("id"), kind: try column("kind"), fromVersion: try column("fromVersion"),
                                toVersion: try column("toVersion"), started: try column("started"), finished: try column("finished"),
                                duration: try column("duration"), toolVersion: try column("toolVersion"), details: try column("details"))
        }
    }

    /// The hook records in time order (ties by version, then id).
    static func hooks(_ db: Database) throws -> [HookRecord] {
        try Row.fetchAll(db, sql: #"SELECT * FROM "strata_hooks" ORDER BY "finished", "afterVersion", "id""#).map { row in
            func column<V: DatabaseValueConvertible>(_ name: String) throws -> V { try row.bookkeeping(name, of: "strata_hooks", in: db) }
            return HookRecord(id: try column("id"), checksum: try column("checksum"), afterVersion: try column("afterVersion"),
                              modelVersion: try column("modelVersion"), status: try column("status"),
                              rowsAffected: try column("rowsAffected"), finished: try column("finished"), results: try column("results"))
        }
    }

    /// Records a hook as applied or not needed (inside the caller's transaction).
    static func recordHook(_ db: Database, _ record: HookRecord) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO "strata_hooks" ("id", "checksum", "afterVersion", "modelVersion", "status", "rowsAffected", "finished", "results")
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [record.id, record.checksum, record.afterVersion, record.modelVersion, record.status,
                             record.rowsAffected, record.finished, record.results])
    }
}
