import Foundation
import GRDB
import StrataTestSupport

/// A project whose v1 → v2 step needs a mapping file (issue 15): `Order` (an SQL keyword, a sub-entity of
/// `Item`) changes `rating` string → int16 and `total` int64 → decimal, and `Author` is split into `Person`
/// and `Company`, which `Order.author` now points at (Person).
enum MappingProject {
    static let v1 = """
        version: 1
        entities:
          Item:
            attributes:
              name: { type: string, optional: false, default: x }
          Order:
            parent: Item
            attributes:
              rating:  { type: string }
              total:   { type: int64 }
              deleted: { type: bool, optional: false, default: false }
            relationships:
              author: { destination: Author, inverse: orders, deleteRule: nullify }
          Author:
            attributes:
              kind: { type: string }
              name: { type: string }
            relationships:
              orders: { destination: Order, toMany: true, inverse: author, deleteRule: nullify }
        """
    static let v2 = """
        version: 2
        entities:
          Item:
            attributes:
              name: { type: string, optional: false, default: x }
          Order:
            parent: Item
            attributes:
              rating:  { type: int16, min: 0, max: 5, optional: false }
              total:   { type: decimal }
              deleted: { type: bool, optional: false, default: false }
            relationships:
              author: { destination: Person, inverse: orders, deleteRule: nullify }
          Person:
            attributes:
              name: { type: string }
            relationships:
              orders: { destination: Order, toMany: true, inverse: author, deleteRule: nullify }
          Company:
            attributes:
              name: { type: string }
        """
    static let mapping = """
        mapping: { from: 1, to: 2 }
        entities:
          Order:
            filter: "deleted == NO"
            attributes:
              rating: "int16(rating)"
              total: "decimal(total)"
          Person:  { source: Author, filter: "kind == 'person'" }
          Company: { source: Author, filter: "kind == 'company'" }
        """

    /// The project with `files` in `migrations/` and a v1 store: authors 1 Ann (person), 2 Acme (company),
    /// 3 Bob (person); item 1 (a plain Item) and orders 2…5 (`o4` deleted, `o3` rated "x" unless `rateAll`).
    static func make(_ files: [String: String], badRating: Bool = true) throws -> (dir: String, store: String) {
        let (dir, store) = try project(v1: v1, v2: v2, files: files)
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO "Author" ("_pk", "kind", "name") VALUES (1, 'person', 'Ann'), (2, 'company', 'Acme'), (3, 'person', 'Bob');
                INSERT INTO "Item" ("_pk", "_entity", "name", "rating", "total", "deleted", "author") VALUES
                  (1, 'Item', 'plain', NULL, NULL, NULL, NULL), (2, 'Order', 'o2', '4', 10, 0, 1), (3, 'Order', 'o3', ?, 20, 0, 2),
                  (4, 'Order', 'o4', '5', 30, 1, 3), (5, 'Order', 'o5', '2', NULL, 0, 3);
                """, arguments: [badRating ? "x" : "3"])
        }
        try queue.close()
        return (dir, store)
    }

    /// A project with models `v1` and `v2`, `files` in `migrations/` and an empty v1 store `app.sqlite`.
    static func project(v1: String, v2: String, files: [String: String], name: String = "mapping") throws -> (dir: String, store: String) {
        let dir = Temporary.directory(name)
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try v1.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        try v2.write(toFile: dir + "/models/2.yaml", atomically: true, encoding: .utf8)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", "app.sqlite"], in: dir)
        precondition(created.status == 0, created.stderr)
        for (name, text) in files { try text.write(toFile: dir + "/migrations/" + name, atomically: true, encoding: .utf8) }
        return (dir, dir + "/app.sqlite")
    }

    /// Waits until `child` has written `bytes` of `store`'s rollback journal (inside its step), then kills it.
    static func kill(_ child: E2E.Child, whenJournalOf store: String, reaches bytes: Int = 1_000_000) {
        var waited = 0
        while child.process.isRunning, (E2E.fileSize(store + "-journal") ?? 0) < bytes, waited < 60_000 {
            usleep(2_000)
            waited += 2
        }
        child.kill()
    }

    static func version(_ store: String) throws -> String? {
        try ExampleData.query(store, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#)
    }
}
