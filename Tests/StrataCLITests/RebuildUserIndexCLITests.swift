import Foundation
import GRDB
import Strata
import Testing

/// End-to-end: the user's indexes on a table `strata migrate` rebuilds.
@Suite struct RebuildUserIndexCLITests {
    static let models = [
        "1.yaml": """
            version: 1
            entities:
              Recipe:
                attributes:
                  name: { type: string }
                  notes: { type: string }
            """,
        "2.yaml": """
            version: 2
            entities:
              Recipe:
                attributes:
                  name: { type: string, optional: false, default: "Untitled" }
            """,
    ]

    /// A v1 store with two unnamed recipes and `sql` run on it.
    static func project(_ sql: String) throws -> String {
        let dir = try CLI.project("rebuild-index", models: models)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", "app.sqlite", "--quiet"], in: dir).status == 0)
        let store = try Store.open(path: dir + "/app.sqlite")
        try store.write { db in
            try db.execute(sql: "INSERT INTO Recipe (name, notes) VALUES (NULL, 'a'), (NULL, 'b');" + sql)
        }
        return dir
    }

    static func indexes(_ dir: String) throws -> [String] {
        let queue = try DatabaseQueue(path: dir + "/app.sqlite")
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'my%' ORDER BY name")
        }
    }

    @Test func anIndexOnARemovedColumnIsAWarningTheOthersAreMadeAgain() throws {
        let dir = try Self.project("CREATE INDEX my_name ON Recipe (name); CREATE INDEX my_notes ON Recipe (notes, name);")
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout.contains("\n  warning: index my_notes was not re-created: no such column: notes\n"))
        #expect(try Self.indexes(dir) == ["my_name"])
    }

    @Test func aUniqueIndexTheRowsNoLongerFitIsExit3AndTheStoreUnchanged() throws {
        let dir = try Self.project("CREATE UNIQUE INDEX my_name ON Recipe (name);")
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/app.sqlite"))
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--quiet"], in: dir)
        #expect(r.status == 3)
        #expect(r.stderr == """
            error: v1 → v2: your unique index my_name does not hold for the rows after the rebuild (UNIQUE constraint failed: Recipe.name)
            hint: the step was rolled back and the index kept; make the rows unique in a hook of an earlier version, or drop the index

            """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/app.sqlite")) == before)
        #expect(try Self.indexes(dir) == ["my_name"])
        // A dry run finds it too, on its snapshot.
        #expect(try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run", "--quiet"], in: dir).status == 3)
    }
}
