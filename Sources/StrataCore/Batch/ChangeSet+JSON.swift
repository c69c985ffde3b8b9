import Foundation

extension ChangeSet {
    /// `{"updated": {"Entity": [objectID…]}, "deleted": {…}}` (SPEC §8 `--changes-out`): exactly the shape
    /// an application merges (object IDs as URIs). The CLI always collects IDs when it writes this file.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(["updated": updated.mapValues { $0.map(\.uri) }, "deleted": deleted.mapValues { $0.map(\.uri) }])
    }
}
