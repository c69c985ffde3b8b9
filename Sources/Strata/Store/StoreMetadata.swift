import Foundation
import GRDB

/// What a store records about itself (SPEC §3), in the `strata_metadata` key/value table.
///
/// System keys start with `strata.`; any other key is a user key (`strata meta set KEY VALUE`).
public struct StoreMetadata: Sendable, Hashable {
    public static let table = "strata_metadata"

    public var storeUUID: String
    public var version: Int
    public var modelHash: String
    public var entityHashes: [String: String]
    /// The YAML of the model the store is at.
    public var modelYAML: String
    /// The recorded storage layout (column names are assigned once and carried forward).
    public var layout: StoreLayout
    /// The version the store was created (or adopted) at: hooks with `after` ≤ this are not needed.
    public var createdAtVersion: Int

    public init(storeUUID: String, version: Int, modelHash: String, entityHashes: [String: String],
                modelYAML: String, layout: StoreLayout, createdAtVersion: Int) {
        self.storeUUID = storeUUID
        self.version = version
        self.modelHash = modelHash
        self.entityHashes = entityHashes
        self.modelYAML = modelYAML
        self.layout = layout
        self.createdAtVersion = createdAtVersion
    }

    /// Metadata for a store at `model`'s version with `layout`.
    public init(storeUUID: String, model: Model, layout: StoreLayout, createdAtVersion: Int) {
        let hashes = VersionHash.entityHashes(of: model)
        self.init(storeUUID: storeUUID, version: model.version, modelHash: VersionHash.modelHash(fromEntityHashes: hashes),
                  entityHashes: hashes, modelYAML: model.source, layout: layout, createdAtVersion: createdAtVersion)
    }

    enum Key {
        static let uuid = "strata.uuid"
        static let version = "strata.version"
        static let modelHash = "strata.modelHash"
        static let entityHashes = "strata.entityHashes"
        static let modelYAML = "strata.modelYAML"
        static let layout = "strata.layout"
        static let createdAtVersion = "strata.createdAtVersion"
    }

    /// Creates Strata's bookkeeping tables when missing.
    static func createTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS "strata_metadata" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS "strata_history" (
              "id" INTEGER PRIMARY KEY AUTOINCREMENT, "kind" TEXT NOT NULL, "fromVersion" INTEGER, "toVersion" INTEGER NOT NULL,
              "started" TEXT NOT NULL, "finished" TEXT NOT NULL, "duration" REAL NOT NULL, "toolVersion" TEXT NOT NULL,
              "details" TEXT);
            CREATE TABLE IF NOT EXISTS "strata_hooks" (
              "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "afterVersion" INTEGER NOT NULL,
              "modelVersion" INTEGER NOT NULL, "status" TEXT NOT NULL, "rowsAffected" INTEGER NOT NULL,
              "finished" TEXT NOT NULL, "results" TEXT);
            """)
    }

    /// Whether the file holds a store: false without `strata_metadata`. With it, Strata's other tables must be
    /// there too: a store whose `strata_history` or `strata_hooks` was dropped would read as consistent and then
    /// fail on SQLite's "no such table" at the first write.
    /// - Throws: `StoreError.corrupt` naming the missing table.
    static func exists(_ db: Database) throws -> Bool {
        guard try db.tableExists(table) else { return false }
        for other in ["strata_history", "strata_hooks"] where try !db.tableExists(other) {
            throw StoreError.corrupt(path: db.description, detail: "Strata's table '\(other)' is missing")
        }
        return true
    }

    /// Reads the metadata, or nil when the file has no Strata tables.
    /// - Throws: `StoreError.corrupt` when a key, a value or one of Strata's tables is missing or unreadable.
    static func read(_ db: Database) throws -> StoreMetadata? {
        guard try exists(db) else { return nil }
        let rows = try Row.fetchAll(db, sql: #"SELECT "key", "value" FROM "strata_metadata" WHERE "key" LIKE 'strata.%'"#)
        var values: [String: String] = [:]
        for row in rows { values[try row.bookkeeping("key", of: table, in: db)] = try row.bookkeeping("value", of: table, in: db) }
        return try StoreMetadata(systemValues: values, store: db.description)
    }

    /// The recorded version alone (one row, no JSON to decode), or nil when the file has no Strata tables: what a
    /// run re-reads under the write lock before each step, and after its last.
    /// - Throws: `StoreError.corrupt` when the version or one of Strata's tables is missing, or the version is not a number.
    static func version(_ db: Database) throws -> Int? {
        guard try exists(db) else { return nil }
        guard let text = try value(db, key: Key.version) else {
            throw StoreError.corrupt(path: db.description, detail: "metadata key '\(Key.version)' is missing")
        }
        guard let version = Int(text), version >= 1 else {
            throw StoreError.corrupt(path: db.description, detail: "metadata key '\(Key.version)' does not hold a version number")
        }
        return version
    }

    /// The metadata from its `strata.*` key/value rows, as either engine stores them.
    /// - Parameters:
    ///   - values: the rows of `strata_metadata` whose key starts with `strata.`.
    ///   - store: the store's name, for messages.
    /// - Throws: `StoreError.corrupt` when a key is missing or a value cannot be read.
    public init(systemValues values: [String: String], store: String) throws {
        func require(_ key: String) throws -> String {
            guard let v = values[key] else { throw StoreError.corrupt(path: store, detail: "metadata key '\(key)' is missing") }
            return v
        }
        func unreadable(_ key: String, _ what: String) -> StoreError {
            StoreError.corrupt(path: store, detail: "metadata key '\(key)' does not hold \(what)")
        }
        // Model versions start at 1: a 0 or -1 typed by hand is damage, not drift to a version no file can have.
        guard let version = Int(try require(Key.version)), version >= 1 else { throw unreadable(Key.version, "a version number") }
        guard let createdAt = Int(try require(Key.createdAtVersion)) else { throw unreadable(Key.createdAtVersion, "a version number") }
        guard let hashes = try? LayoutJSON.strings(from: try require(Key.entityHashes)) else {
            throw unreadable(Key.entityHashes, "entity hashes (JSON)")
        }
        guard let layout = try? LayoutJSON.layout(from: try require(Key.layout)) else {
            throw unreadable(Key.layout, "a storage layout (JSON)")
        }
        self.init(storeUUID: try require(Key.uuid), version: version, modelHash: try require(Key.modelHash),
                  entityHashes: hashes, modelYAML: try require(Key.modelYAML), layout: layout, createdAtVersion: createdAt)
    }

    /// Every system key and its value, as both engines store them (JSON with sorted keys for the hashes and layout,
    /// as `JSONEncoder` with `.sortedKeys` writes it).
    public var systemValues: [(key: String, value: String)] {
        [
            (Key.uuid, storeUUID), (Key.version, String(version)), (Key.modelHash, modelHash),
            (Key.entityHashes, LayoutJSON.text(of: entityHashes)),
            (Key.modelYAML, modelYAML),
            (Key.layout, LayoutJSON.text(of: layout)),
            (Key.createdAtVersion, String(createdAtVersion)),
        ]
    }

    /// Writes every system key (inside the caller's transaction).
    func write(_ db: Database) throws {
        for (key, value) in systemValues {
            try db.execute(sql: #"INSERT OR REPLACE INTO "strata_metadata" ("key", "value") VALUES (?, ?)"#, arguments: [key, value])
        }
    }

    /// User keys (everything not starting with `strata.`).
    static func userValues(_ db: Database) throws -> [(key: String, value: String)] {
        try Row.fetchAll(db, sql: #"SELECT "key", "value" FROM "strata_metadata" WHERE "key" NOT LIKE 'strata.%' ORDER BY "key""#)
            .map { (try $0.bookkeeping("key", of: table, in: db), try $0.bookkeeping("value", of: table, in: db)) }
    }

    /// Any key's value (system keys included), or nil.
    static func value(_ db: Database, key: String) throws -> String? {
        try Row.fetchOne(db, sql: #"SELECT "value" FROM "strata_metadata" WHERE "key" = ?"#, arguments: [key])
            .flatMap { try $0.bookkeeping("value", of: table, in: db) }
    }

    /// Sets a user key. System keys (`strata.` prefix) cannot be set.
    static func setUserValue(_ db: Database, key: String, value: String) throws {
        guard !key.lowercased().hasPrefix("strata."), !key.isEmpty else {
            throw Diagnostic.error("'\(key)' is not a user key", hint: "keys starting with 'strata.' are Strata's own")
        }
        try db.execute(sql: #"INSERT OR REPLACE INTO "strata_metadata" ("key", "value") VALUES (?, ?)"#, arguments: [key, value])
    }
}
