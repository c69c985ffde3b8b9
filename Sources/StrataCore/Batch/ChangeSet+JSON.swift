import Foundation

extension ChangeSet {
    /// `{"updated": {"Entity": [objectID…]}, "deleted": {…}}` (SPEC §8 `--changes-out`), plus `"inserted"` when a batch insert ran: exactly the shape
    /// an application merges (object IDs as URIs). The CLI always collects IDs when it writes this file.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(updated: updated.mapValues { $0.map(\.uri) }, deleted: deleted.mapValues { $0.map(\.uri) },
                                inserted: inserted.isEmpty ? nil : inserted.mapValues { $0.map(\.uri) },
                                invalidated: invalidated.isEmpty ? nil : invalidated,
                                remapped: remappedCounts.isEmpty ? nil : remappedDocument)
        return try encoder.encode(document)
    }

    /// `inserted` (batch inserts), `invalidated` (entities an `sql:` step wrote) and `remapped` (objects a
    /// mapping step gave new IDs: entity → old ID → new ID) only when there are some,
    /// so files without them keep their shape.
    private struct Document: Encodable {
        var updated: [String: [String]]
        var deleted: [String: [String]]
        var inserted: [String: [String]]?
        var invalidated: [String]?
        var remapped: [String: [String: String]]?
    }

    /// `{"Entity": {"old ID": "new ID", …}}`: per destination entity, the translation of a step that gave
    /// objects new IDs (SPEC §11.3 "IDs").
    var remappedDocument: [String: [String: String]] {
        remapped.mapValues { list in Dictionary(list.map { ($0.old.uri, $0.new.uri) }, uniquingKeysWith: { a, _ in a }) }
    }
}
