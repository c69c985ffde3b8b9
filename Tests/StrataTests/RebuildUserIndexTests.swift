import Foundation
import GRDB
import Testing
@testable import Strata

/// The user's own indexes on a table the step rebuilds: the old table is dropped, and its indexes with it,
/// so they are made again on the new table (they were lost before).
@Suite struct RebuildUserIndexTests {
    static let v1 = """
        version: 1
        entities:
          Recipe:
            attributes:
              name: { type: string }
              rating: { type: int16 }
              notes: { type: string }
              kind: { type: string, indexed: true }
          Chef:
            attributes:
              name: { type: string }
        """
    /// `name` becomes mandatory with a default (a rebuild), `notes` goes, `kind` loses its index.
    static let v2 = """
        version: 2
        entities:
          Recipe:
            attributes:
              name: { type: string, optional: false, default: "Untitled" }
              rating: { type: int16 }
              kind: { type: string }
          Chef:
            attributes:
              name: { type: string }
        """

    static func userIndexes(_ store: Store) throws -> [String] {
        try MigrationSupport.dump(store, """
            SELECT name, tbl_name, sql FROM sqlite_master
            WHERE type = 'index' AND sql IS NOT NULL AND name NOT LIKE 'strata\\_%' ESCAPE '\\' ORDER BY name
            """)
    }

    @Test func userIndexesOfARebuiltTableAreMadeAgain() throws {
        let history = try MigrationSupport.history([Self.v1, Self.v2])
        let store = try MigrationSupport.store(history, at: 1, fill: """
            INSERT INTO Recipe (_pk, name, rating, notes, kind) VALUES (1, 'Pie', 3, 'n', 'sweet'), (2, NULL, 5, NULL, 'salty');
            INSERT INTO Chef (_pk, name) VALUES (1, 'Ana');
            CREATE INDEX my_rating ON Recipe (rating DESC);
            CREATE UNIQUE INDEX my_name_lower ON Recipe (lower(name)) WHERE rating > 4;
            CREATE INDEX my_notes ON Recipe (notes);
            CREATE INDEX my_chef ON Chef (name);
            """)
        let result = try Migrator.migrate(store, history: history)
        #expect(result.steps.map(\.warnings) == [["index my_notes was not re-created: no such column: notes"]])
        #expect(try Self.userIndexes(store) == [
            "my_chef|Chef|CREATE INDEX my_chef ON Chef (name)",
            "my_name_lower|Recipe|CREATE UNIQUE INDEX my_name_lower ON Recipe (lower(name)) WHERE rating > 4",
            "my_rating|Recipe|CREATE INDEX my_rating ON Recipe (rating DESC)",
        ])
        // The model's index on `kind` was dropped by the step and stays dropped; no drift.
        #expect(try MigrationSupport.indexes(store, "Recipe") == [])
        #expect(try MigrationSupport.drift(store, history).items == [])
        // The unique index still holds: a second 'untitled' rated above 4 is refused.
        #expect(throws: DatabaseError.self) {
            try store.queue.write { try $0.execute(sql: "INSERT INTO Recipe (name, rating, kind) VALUES ('UNTITLED', 6, 'x')") }
        }
    }

    /// A unique index of the user's that the step's own writes break (two NULL names both become the
    /// default) rolls the step back instead of being dropped: the store stays at v1 with the index.
    @Test func aUserUniqueIndexTheStepBreaksRollsTheStepBack() throws {
        let history = try MigrationSupport.history([Self.v1, Self.v2])
        let store = try MigrationSupport.store(history, at: 1, fill: """
            INSERT INTO Recipe (_pk, name, rating) VALUES (1, NULL, 3), (2, NULL, 5);
            CREATE UNIQUE INDEX my_name ON Recipe (name);
            """)
        let error = #expect(throws: MigrationError.self) { try Migrator.migrate(store, history: history) }
        #expect(error?.description == """
            error: v1 → v2: your unique index my_name does not hold for the rows after the rebuild (UNIQUE constraint failed: Recipe.name)
            hint: the step was rolled back and the index kept; make the rows unique in a hook of an earlier version, or drop the index
            """)
        #expect(error?.exitCode == .validationViolations)
        #expect(try store.metadata().version == 1)
        #expect(try MigrationSupport.columns(store, "Recipe") == ["_pk", "name", "rating", "notes", "kind"])
        #expect(try Self.userIndexes(store) == ["my_name|Recipe|CREATE UNIQUE INDEX my_name ON Recipe (name)"])
    }

    /// A step that renames a column and the table (the entity) and rebuilds it: the user's view, index and
    /// trigger follow the new names, as SQLite's in-place renames make them (before, the view and index
    /// were left out with warnings and the trigger, `UPDATE OF name`, was made again but never fired).
    @Test func userObjectsFollowRenamesInsideARebuild() throws {
        let history = try MigrationSupport.history([
            """
            version: 1
            entities:
              Dish:
                attributes:
                  name: { type: string }
                  junk: { type: string }
            """,
            """
            version: 2
            entities:
              Recipe:
                renamedFrom: Dish
                attributes:
                  title: { type: string, renamedFrom: name }
            """,
        ])
        let store = try MigrationSupport.store(history, at: 1, fill: """
            INSERT INTO Dish (_pk, name) VALUES (1, 'Pie');
            CREATE TABLE log (what TEXT);
            CREATE VIEW names AS SELECT name FROM Dish;
            CREATE INDEX my_name ON Dish (name);
            CREATE TRIGGER renamed AFTER UPDATE OF name ON Dish BEGIN INSERT INTO log VALUES (new.name); END;
            """)
        let result = try Migrator.migrate(store, history: history)
        #expect(result.steps.map(\.step.rebuiltTables) == [["Recipe"]])
        #expect(result.steps.map(\.warnings) == [[]])
        #expect(try MigrationSupport.dump(store, "SELECT type, name, sql FROM sqlite_master WHERE name IN ('names', 'my_name', 'renamed') ORDER BY name") == [
            #"index|my_name|CREATE INDEX my_name ON "Recipe" ("title")"#,
            #"view|names|CREATE VIEW names AS SELECT "title" FROM "Recipe""#,
            #"trigger|renamed|CREATE TRIGGER renamed AFTER UPDATE OF "title" ON "Recipe" BEGIN INSERT INTO log VALUES (new."title"); END"#,
        ])
        try store.queue.write { try $0.execute(sql: "UPDATE Recipe SET title = 'Tart'") }
        #expect(try MigrationSupport.dump(store, "SELECT what FROM log") == ["Tart"])
        #expect(try MigrationSupport.dump(store, "SELECT * FROM names") == ["Tart"])
    }
}
