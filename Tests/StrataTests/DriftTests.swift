import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct DriftTests {
    let v1 = "version: 1\nentities:\n  Recipe:\n    attributes:\n      name: { type: string, indexed: true }\n      rating: { type: int16 }"
    let v2 = "version: 2\nentities:\n  Recipe:\n    attributes:\n      name: { type: string, indexed: true }\n      rating: { type: int16 }\n      notes: { type: string }"

    @Test func handEditedSchemaIsDriftWithPreciseItems() throws {
        let history = try MigrationSupport.history(v1, v2)
        let store = try MigrationSupport.store(history, at: 1, fill: """
            ALTER TABLE Recipe ADD COLUMN extra TEXT;
            DROP INDEX strata_idx_Recipe_name;
            CREATE TABLE user_table (x);
            CREATE VIEW user_view AS SELECT name FROM Recipe;
            """)
        let before = MigrationSupport.fileBytes(store)
        #expect {
            try Migrator.migrate(store, history: history)
        } throws: { error in
            guard case MigrationError.drift(let report) = error else { return false }
            #expect(report.items.map(\.description) == [
                "Recipe.extra: extraColumn: expected no column, found TEXT",
                "Recipe.strata_idx_Recipe_name: missingIndex: expected (name), found no index",
            ])
            return (error as! MigrationError).exitCode == .drift
        }
        #expect(MigrationSupport.fileBytes(store) == before)
    }

    @Test func editedModelFileIsDrift() throws {
        let history = try MigrationSupport.history(v1, v2)
        let store = try MigrationSupport.store(history, at: 1)
        let edited = try MigrationSupport.history(v1.replacingOccurrences(of: "rating: { type: int16 }", with: "rating: { type: int32 }"), v2)
        #expect {
            try Migrator.migrate(store, history: edited)
        } throws: { error in
            guard case MigrationError.drift(let report) = error else { return false }
            return report.items.map(\.kind) == [.entityHash] && report.items[0].table == "Recipe"
        }
        #expect(try store.metadata().version == 1)
    }

    @Test func defaultClausesAndUserObjectsAreNotDrift() throws {
        let history = try MigrationSupport.history(v1, v2.replacingOccurrences(of: "notes: { type: string }", with: "notes: { type: string, default: x }"))
        let store = try MigrationSupport.store(history, at: 1, fill: "CREATE TABLE mine (a); CREATE TRIGGER t AFTER INSERT ON Recipe BEGIN SELECT 1; END;")
        try Migrator.migrate(store, history: history)
        #expect(try MigrationSupport.drift(store, history).items == [])
    }
}
