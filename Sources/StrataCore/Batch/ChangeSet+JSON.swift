import Foundation

extension ChangeSet {
    /// `{"updated": {"Entity": [objectID…]}, "deleted": {…}}` (SPEC §8 `--changes-out`), with counts per
    /// entity under `updatedCounts`/`deletedCounts` (the only content when IDs were not collected).
    public func jsonData() throws -> Data {
        struct File: Encodable {
            var updated: [String: [String]]
            var deleted: [String: [String]]
            var updatedCounts: [String: Int]
            var deletedCounts: [String: Int]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(File(updated: updated.mapValues { $0.map(\.uri) }, deleted: deleted.mapValues { $0.map(\.uri) },
                                       updatedCounts: updatedCounts, deletedCounts: deletedCounts))
    }
}
