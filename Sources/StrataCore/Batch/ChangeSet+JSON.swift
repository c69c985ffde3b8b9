import Foundation

extension ChangeSet {
    /// `{"updated": {"Entity": [objectID…]}, "deleted": {…}}` (SPEC §8 `--changes-out`), plus `"inserted"` when a batch insert ran: exactly the shape
    /// an application merges (object IDs as URIs). The CLI always collects IDs when it writes this file.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(updated: updated.mapValues { $0.map(\.uri) }, deleted: deleted.mapValues { $0.map(\.uri) },
                                inserted: inserted.isEmpty ? nil : inserted.mapValues { $0.map(\.uri) },
                                invalidated: invalidated.isEmpty ? nil : invalidated)
        return try encoder.encode(document)
    }

    /// `inserted` (batch inserts) and `invalidated` (entities an `sql:` step wrote) only when there are some,
    /// so files without them keep their shape.
    private struct Document: Encodable {
        var updated: [String: [String]]
        var deleted: [String: [String]]
        var inserted: [String: [String]]?
        var invalidated: [String]?
    }
}
