import Foundation
import GRDB
import StrataTestSupport

/// A small project whose v1 → v2 step drops `Item.legacyCode` and widens `note`, for the before-hook and Swift
/// stage tests: before-hooks can still read the column, after-hooks cannot.
enum StageProject {
    static let v1 = """
        version: 1
        entities:
          Item:
            attributes:
              name:       { type: string, optional: false, default: x }
              legacyCode: { type: string }
              note:       { type: string, maxLength: 20 }
              saved:      { type: string, maxLength: 20 }
              count:      { type: int64, optional: false, default: 0 }
        """
    static let v2 = """
        version: 2
        entities:
          Item:
            attributes:
              name:  { type: string, optional: false, default: x }
              note:  { type: string, maxLength: 40 }
              saved: { type: string, maxLength: 20 }
              count: { type: int64, optional: false, default: 0 }
        """
    /// Saves the codes the step drops, and counts its runs on each row (exactly once: 1).
    static let keepCodes = """
        id: keep-codes
        before: 2
        description: Keep the legacy codes before v2 drops them.
        steps:
          - batchUpdate:
              entity: Item
              predicate: "legacyCode != nil"
              propertiesToUpdate: { saved: { expression: "legacyCode" }, count: { expression: "count + 1" } }
              resultType: updatedObjectsCount
        """
    /// The declarations of the fixture binary's stages (Tests/StagesFixture/main.swift).
    static let copyCodes = "id: copy-codes\nbefore: 2\nswift: true\nrevision: \"1\"\nwrites: [Item]\n"
    static let markNotes = "id: mark-notes\nafter: 2\nswift: true\nrevision: \"1\"\nwrites: [Item]\n"

    /// A project directory with the two models and `hooks` (file name → text), and a v1 store holding `rows`
    /// items, every third without a code: `item1`/`C1`, `item2`/`C2`, `item3`/nil…
    /// The store is created by the stock `strata` (an application's own binary refuses registrations without declarations).
    static func make(hooks: [String: String], rows: Int = 30) throws -> (dir: String, store: String) {
        let dir = Temporary.directory("stages")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try v1.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        try v2.write(toFile: dir + "/models/2.yaml", atomically: true, encoding: .utf8)
        for (name, text) in hooks { try text.write(toFile: dir + "/migrations/" + name, atomically: true, encoding: .utf8) }
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", "app.sqlite"], in: dir)
        guard created.status == 0 else { throw CreationFailed(message: created.stderr) }
        let store = dir + "/app.sqlite"
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO "Item" ("name", "legacyCode", "count") SELECT 'item' || i, CASE WHEN i % 3 = 0 THEN NULL ELSE 'C' || i END, 0 FROM n
                """, arguments: [rows])
        }
        try queue.close()
        return (dir, store)
    }

    struct CreationFailed: Error { var message: String }

    /// Rows with a code among the first `rows`.
    static func coded(_ rows: Int) -> Int { (1...rows).filter { $0 % 3 != 0 }.count }

    static func version(_ store: String) throws -> String? {
        try ExampleData.query(store, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#)
    }
}
