import Foundation
import GRDB
@testable import Strata
import StrataTestSupport

/// Test helpers for migrations: model histories from YAML strings, stores created at a version.
enum MigrationSupport {
    static func temporaryPath(_ name: String = "store") -> String {
        Temporary.directory("migration") + "/\(name).sqlite"
    }

    /// Loads each YAML (it must declare its `version:`).
    static func history(_ yamls: String...) throws -> ModelHistory { try history(yamls) }

    static func history(_ yamls: [String]) throws -> ModelHistory {
        ModelHistory(models: try yamls.enumerated().map { i, yaml in
            do { return try ModelLoader.load(yaml: yaml, file: "models/\(i + 1).yaml") } catch { throw error }
        })
    }

    /// A store created at `version`, with `sql` run afterwards (to fill it).
    static func store(_ history: ModelHistory, at version: Int, fill sql: String = "") throws -> Store {
        let store = try StoreCreator.create(at: temporaryPath(), model: history.model(version: version)!)
        if !sql.isEmpty { try store.queue.write { try $0.execute(sql: sql) } }
        return store
    }

    static func rows(_ store: Store, _ sql: String) throws -> [[DatabaseValue]] {
        try store.queue.read { db in try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { $0 } } }
    }

    /// Rows as readable strings, e.g. `["1|Pie|NULL"]`.
    static func dump(_ store: Store, _ sql: String) throws -> [String] {
        try rows(store, sql).map { $0.map(Self.text).joined(separator: "|") }
    }

    static func text(_ v: DatabaseValue) -> String {
        switch v.storage {
        case .null: return "NULL"
        case .int64(let i): return String(i)
        case .double(let d): return "\(d)"
        case .string(let s): return s
        case .blob(let d): return "x'" + d.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }

    /// Column names of a table, in order.
    static func columns(_ store: Store, _ table: String) throws -> [String] {
        try store.queue.read { db in try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(table)))").map { $0["name"] as String } }
    }

    static func indexes(_ store: Store, _ table: String) throws -> [String] {
        try store.queue.read { db in
            try Row.fetchAll(db, sql: "PRAGMA index_list(\(quoted(table)))").map { $0["name"] as String }
                .filter { $0.hasPrefix("strata_") }.sorted()
        }
    }

    static func tables(_ store: Store) throws -> [String] {
        try store.queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'strata_%' ORDER BY name")
        }
    }

    static func fileBytes(_ store: Store) -> Data { FileManager.default.contents(atPath: store.path) ?? Data() }

    /// Drift must be empty after every migration.
    static func drift(_ store: Store, _ history: ModelHistory) throws -> DriftReport {
        let metadata = try store.metadata()
        return try store.queue.read { try DriftDetector.check($0, metadata: metadata, model: history.model(version: metadata.version)) }
    }
}
