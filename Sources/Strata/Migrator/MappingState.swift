import Foundation
import GRDB

/// The checksums of mapping files recorded with their steps (SPEC §11.3): a mapping file edited after the
/// store passed its step is drift (exit 6) until `strata repair` re-records it after review.
///
/// The SHA-256 is kept in the step's history row (`details` ends with `; mapping FILE sha256 HEX`).
public enum MappingState {
    static let marker = " sha256 "

    /// The history details suffix recording `file` (both engines write it).
    public static func detailsSuffix(_ file: MappingFile) -> String { "; mapping \(file.file)\(marker)\(file.checksum)" }

    /// The checksum recorded in a history row's details, if any.
    public static func recordedChecksum(_ details: String?) -> String? {
        guard let details, let range = details.range(of: marker, options: .backwards) else { return nil }
        let hex = details[range.upperBound...]
        return hex.count == 64 ? String(hex) : nil
    }

    /// One mapping file that no longer matches the step the store ran: its history row id, what was recorded
    /// (nil: the step ran without a mapping file) and the file.
    struct Edited {
        var historyID: Int64
        var recorded: String?
        var file: MappingFile
    }

    static func edited(_ db: Database, mappings: [Int: MappingFile], version: Int) throws -> [Edited] {
        var result: [Edited] = []
        for (to, file) in mappings.sorted(by: { $0.key < $1.key }) where to <= version {
            // The store migrated through this step (a store created at or after `to` never ran it).
            guard let row = try Row.fetchOne(db, sql: """
                SELECT "id", "details" FROM "strata_history" WHERE "kind" = 'migrate' AND "toVersion" = ? ORDER BY "id" DESC LIMIT 1
                """, arguments: [to]) else { continue }
            let recorded = recordedChecksum(try row.bookkeeping("details", of: "strata_history", in: db))
            if recorded != file.checksum { result.append(Edited(historyID: try row.bookkeeping("id", of: "strata_history", in: db), recorded: recorded, file: file)) }
        }
        return result
    }

    /// Drift items for edited mapping files.
    public static func driftItems(_ db: Database, mappings: [Int: MappingFile], version: Int) throws -> [DriftReport.Item] {
        try edited(db, mappings: mappings, version: version).map { driftItem($0.file, recorded: $0.recorded) }
    }

    /// The drift item of a mapping file whose checksum is not the one recorded with its step (nil: none was).
    public static func driftItem(_ file: MappingFile, recorded: String?) -> DriftReport.Item {
        DriftReport.Item(.editedMapping, table: "mapping \(file.file)",
                         expected: recorded.map { "sha256 \($0) (as the step ran)" } ?? "no mapping file (the step ran without one)",
                         found: "sha256 \(file.checksum)")
    }

    /// The details of a step's history row with `file` recorded in place of any mapping recorded before.
    public static func details(_ details: String?, recording file: MappingFile) -> String {
        let details = details ?? ""
        let kept = details.range(of: "; mapping ", options: .backwards).map { String(details[..<$0.lowerBound]) } ?? details
        return kept + detailsSuffix(file)
    }

    /// `strata repair`: re-records the checksums of edited mapping files (after a person reviewed the edit).
    /// Returns the files re-recorded.
    public static func repair(_ store: Store, mappings: [Int: MappingFile]) throws -> [String] {
        try store.wrap {
            try store.queue.inDatabase { db in
                var repaired: [String] = []
                try db.inTransaction(.immediate) {
                    guard let metadata = try StoreMetadata.read(db) else { throw StoreError.notAdopted(path: store.path) }
                    for e in try edited(db, mappings: mappings, version: metadata.version) {
                        let details = try String.fetchOne(db, sql: #"SELECT "details" FROM "strata_history" WHERE "id" = ?"#, arguments: [e.historyID])
                        try db.execute(sql: #"UPDATE "strata_history" SET "details" = ? WHERE "id" = ?"#,
                                       arguments: [Self.details(details, recording: e.file), e.historyID])
                        repaired.append(e.file.file)
                    }
                    return .commit
                }
                return repaired
            }
        }
    }
}
