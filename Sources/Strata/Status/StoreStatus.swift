import Foundation
import GRDB

/// One difference between what a store records and what it should be (SPEC §2 "drift").
public struct DriftItem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `modelHash`, `entityHash`, `missingModel`, `table`, `column`, `index`, `foreignKey`, `hook`, …
    public var kind: String
    /// What it concerns: an entity, a table, `table.column`, a hook id.
    public var subject: String
    public var expected: String?
    public var found: String?

    public init(kind: String, subject: String, expected: String? = nil, found: String? = nil) {
        self.kind = kind
        self.subject = subject
        self.expected = expected
        self.found = found
    }

    public var description: String {
        var text = "\(kind) \(subject)"
        if let expected { text += ": expected \(expected)" }
        if let found { text += (expected == nil ? ": " : ", ") + "found \(found)" }
        return text
    }
}

/// Drift in a store: exit 6.
public struct DriftError: StrataError, Sendable {
    public var path: String
    public var items: [DriftItem]
    public init(path: String, items: [DriftItem]) { self.path = path; self.items = items }
    public var exitCode: ExitStatus { .drift }
    public var diagnostics: [Diagnostic] {
        [.error("the store '\(path)' has drifted from its recorded model:\n" + items.map { "  - \($0)" }.joined(separator: "\n"),
                hint: "find who changed the schema or the model file; Strata never migrates a drifted store")]
    }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// A store's state against the model files: what `strata status` reports.
public struct StoreStatus: Sendable, Codable, Hashable {
    public var path: String
    public var storeUUID: String
    public var version: Int
    public var createdAtVersion: Int
    public var modelHash: String
    public var latestVersion: Int?
    public var pendingVersions: [Int]
    public var pendingHooks: [String]
    public var drift: [DriftItem]
    public var userMetadata: [String: String]

    public var isConsistent: Bool { drift.isEmpty }
    public var hasPendingWork: Bool { !pendingVersions.isEmpty || !pendingHooks.isEmpty }

    /// Hash drift: the recorded hashes against the model of the recorded version.
    public static func hashDrift(_ metadata: StoreMetadata, history: ModelHistory) -> [DriftItem] {
        guard let model = history.model(version: metadata.version) else {
            return [DriftItem(kind: "missingModel", subject: "version \(metadata.version)",
                              expected: "a model file with version \(metadata.version)", found: "none")]
        }
        var items: [DriftItem] = []
        let expected = VersionHash.entityHashes(of: model)
        for name in Set(expected.keys).union(metadata.entityHashes.keys).sorted() {
            let e = expected[name], f = metadata.entityHashes[name]
            if e != f {
                items.append(DriftItem(kind: "entityHash", subject: name, expected: e.map { String($0.prefix(12)) } ?? "absent",
                                       found: f.map { String($0.prefix(12)) } ?? "absent"))
            }
        }
        let modelHash = VersionHash.modelHash(fromEntityHashes: expected)
        if items.isEmpty && modelHash != metadata.modelHash {
            items.append(DriftItem(kind: "modelHash", subject: "version \(metadata.version)", expected: modelHash, found: metadata.modelHash))
        }
        return items
    }

    /// Reads a store's status.
    /// - Parameters:
    ///   - schemaDrift: live-schema checks to add (table/column/index drift), run on the same connection.
    public static func read(store: Store, history: ModelHistory,
                            schemaDrift: (Database, StoreMetadata) throws -> [DriftItem] = { _, _ in [] },
                            pendingHooks: (Database, StoreMetadata) throws -> [String] = { _, _ in [] }) throws -> StoreStatus {
        try store.wrap {
            try store.queue.read { db in
                guard let metadata = try StoreMetadata.read(db) else { throw StoreError.notAdopted(path: store.path) }
                var drift = hashDrift(metadata, history: history)
                if drift.isEmpty { drift += try schemaDrift(db, metadata) }
                let user = Dictionary(try StoreMetadata.userValues(db).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
                return StoreStatus(
                    path: store.path, storeUUID: metadata.storeUUID, version: metadata.version,
                    createdAtVersion: metadata.createdAtVersion, modelHash: metadata.modelHash,
                    latestVersion: history.latest?.version,
                    pendingVersions: history.versions.filter { $0 > metadata.version },
                    pendingHooks: try pendingHooks(db, metadata), drift: drift, userMetadata: user)
            }
        }
    }
}
