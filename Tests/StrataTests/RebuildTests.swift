import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct RebuildTests {
    let chef = """
          Chef:
            attributes:
              name: { type: string, indexed: true }
              old: { type: string }
            relationships:
              recipes: { destination: Recipe, toMany: true, inverse: author, deleteRule: cascade }
            uniqueness: [[name]]
          Recipe:
            attributes:
              title: { type: string }
            relationships:
              author: { destination: Chef, inverse: recipes }
        """

    /// The parent table of an inbound ON DELETE CASCADE is rebuilt: no child row may be deleted
    /// (Atlas #3317), and the user's trigger and view keep working.
    @Test func rebuildKeepsChildrenTriggersViewsAndIndexes() throws {
        let v2 = chef.replacingOccurrences(of: "      old: { type: string }\n", with: "")
        let history = try MigrationSupport.history("version: 1\nentities:\n" + chef, "version: 2\nentities:\n" + v2)
        let store = try MigrationSupport.store(history, at: 1, fill: """
            INSERT INTO Chef (_pk, name, old) VALUES (1, 'Ana', 'a'), (2, 'Bo', 'b'), (7, 'Zoë', NULL);
            DELETE FROM Chef WHERE _pk = 7;
            INSERT INTO Recipe (_pk, title, author) VALUES (10, 'Pie', 1), (11, 'Tart', 1), (12, 'Soup', 2);
            CREATE TABLE audit_log (what TEXT);
            CREATE TRIGGER chef_renamed AFTER UPDATE OF name ON Chef BEGIN INSERT INTO audit_log VALUES ('renamed ' || NEW.name); END;
            CREATE VIEW chef_recipes AS SELECT c.name AS chef, r.title AS title FROM Chef c JOIN Recipe r ON r.author = c._pk;
            """)
        let result = try Migrator.migrate(store, history: history)
        let step = result.steps[0].step
        #expect(step.tableActions.map { "\($0.kind.rawValue) \($0.table)" } == ["rebuild Chef"])
        #expect(step.sqlText == [
            "-- save and drop user triggers and views (re-created after the rebuild)",
            #"CREATE TABLE "strata_new_Chef" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT)"#,
            #"INSERT INTO "strata_new_Chef" ("_pk", "name") SELECT "strata_old"."_pk", "strata_old"."name" FROM "Chef" AS "strata_old""#,
            #"DELETE FROM "sqlite_sequence" WHERE "name" = ? -- ["strata_new_Chef"]"#,
            #"INSERT INTO "sqlite_sequence" ("name", "seq") SELECT ?, max(coalesce((SELECT max("seq") FROM "sqlite_sequence" WHERE "name" = ?), 0), coalesce((SELECT max("_pk") FROM "strata_new_Chef"), 0)) -- ["strata_new_Chef", "Chef"]"#,
            #"DROP TABLE "Chef""#,
            #"ALTER TABLE "strata_new_Chef" RENAME TO "Chef""#,
            #"CREATE INDEX "strata_idx_Chef_name" ON "Chef" ("name")"#,
            #"CREATE UNIQUE INDEX "strata_uniq_Chef_name" ON "Chef" ("name")"#,
            "-- re-create user triggers and views",
            "PRAGMA foreign_key_check",
        ])
        #expect(try MigrationSupport.dump(store, "SELECT _pk, title, author FROM Recipe ORDER BY _pk") == ["10|Pie|1", "11|Tart|1", "12|Soup|2"])
        #expect(try MigrationSupport.dump(store, "SELECT chef, title FROM chef_recipes ORDER BY title") == ["Ana|Pie", "Bo|Soup", "Ana|Tart"])
        #expect(try MigrationSupport.indexes(store, "Chef") == ["strata_idx_Chef_name", "strata_uniq_Chef_name"])
        try store.queue.write { db in
            try db.execute(sql: "UPDATE Chef SET name = 'Anna' WHERE _pk = 1")
            // AUTOINCREMENT kept its high-water mark: 7 is never reused.
            try db.execute(sql: "INSERT INTO Chef (name) VALUES ('New')")
        }
        #expect(try MigrationSupport.dump(store, "SELECT what FROM audit_log") == ["renamed Anna"])
        #expect(try MigrationSupport.dump(store, "SELECT _pk FROM Chef WHERE name = 'New'") == ["8"])
        // The cascade still works after the rebuild (foreign keys are back on).
        try store.queue.write { try $0.execute(sql: "DELETE FROM Chef WHERE _pk = 1") }
        #expect(try MigrationSupport.dump(store, "SELECT _pk FROM Recipe ORDER BY _pk") == ["12"])
        #expect(try MigrationSupport.drift(store, history).items == [])
    }

    /// A v1 store reaches v4 with renames in two different versions (the example's shape, with data).
    @Test func multiStepRenames() throws {
        let history = try MigrationSupport.history(
            "version: 1\nentities:\n  Dish:\n    attributes:\n      title: { type: string }\n      servings: { type: int16 }",
            "version: 2\nentities:\n  Recipe:\n    renamedFrom: Dish\n    attributes:\n      title: { type: string }\n      servings: { type: int16 }",
            "version: 3\nentities:\n  Recipe:\n    renamedFrom: Dish\n    attributes:\n      name: { type: string, renamedFrom: title }\n      servings: { type: int32 }",
            "version: 4\nentities:\n  Recipe:\n    renamedFrom: Dish\n    attributes:\n      name: { type: string, renamedFrom: title }\n      portions: { type: int32, renamedFrom: servings }\n      favorite: { type: bool, default: false, optional: false }")
        let store = try MigrationSupport.store(history, at: 1, fill: "INSERT INTO Dish (title, servings) VALUES ('Pie', 4), ('Ragù', NULL), (NULL, 32767);")
        let result = try Migrator.migrate(store, history: history)
        #expect(result.steps.map { "\($0.step.fromVersion)→\($0.step.toVersion)" } == ["1→2", "2→3", "3→4"])
        #expect(try MigrationSupport.dump(store, "SELECT _pk, name, portions, favorite FROM Recipe ORDER BY _pk") == ["1|Pie|4|0", "2|Ragù|NULL|0", "3|NULL|32767|0"])
        #expect(try MigrationSupport.tables(store) == ["Recipe"])
        #expect(try store.queue.read { try HistoryRows.fetch($0) } == ["create 1", "migrate 1→2", "migrate 2→3", "migrate 3→4"])
        #expect(try MigrationSupport.drift(store, history).items == [])
    }

    /// A failure at the end of a step's transaction (after its SQL, metadata and hooks) rolls all of it back.
    @Test func aFailureAtTheEndOfAStepRollsTheWholeStepBack() throws {
        let history = try MigrationSupport.history(
            "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string }",
            "version: 2\nentities:\n  A:\n    attributes:\n      x: { type: string }\n      y: { type: string }")
        let store = try MigrationSupport.store(history, at: 1, fill: "INSERT INTO A (x) VALUES ('a');")
        struct Boom: Error {}
        struct FailAtCommit: StepObserver {
            func stepWillCommit(_ step: VersionStep, in db: Database) throws {
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM pragma_table_info('A') WHERE name = 'y'") == 1)
                #expect(try StoreMetadata.read(db)?.version == 2)
                throw Boom()
            }
        }
        var options = MigrationOptions()
        options.observer = FailAtCommit()
        #expect(throws: Boom.self) { try Migrator.migrate(store, history: history, options: options) }
        #expect(try store.metadata().version == 1)
        #expect(try MigrationSupport.columns(store, "A") == ["_pk", "x"])
    }
}

enum HistoryRows {
    static func fetch(_ db: Database) throws -> [String] {
        try History.entries(db).map { e in e.kind + " " + (e.fromVersion.map { "\($0)→\(e.toVersion)" } ?? String(e.toVersion)) }
    }
}
