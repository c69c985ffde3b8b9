import Foundation

extension ChangeSet {
    /// `{"updated": {"Entity": [objectID…]}, "deleted": {…}}` (SPEC §8 `--changes-out`), plus `"inserted"` when a batch insert ran: exactly the shape
    /// an application merges (object IDs as URIs). The CLI always collects IDs when it writes this file.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var document = ["updated": updated.mapValues { $0.map(\.uri) }, "deleted": deleted.mapValues { $0.map(\.uri) }]
        if !inserted.isEmpty { document["inserted"] = inserted.mapValues { $0.map(\.uri) } }   // batch inserts only
        return try encoder.encode(document)
    }
}
