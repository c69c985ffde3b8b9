import Foundation
import GRDB
import Testing
@testable import Strata

/// Relationships that are their own inverse, as Core Data allows: a one-to-one `spouse` ↔ `spouse` and a
/// many-to-many `friends` ↔ `friends`.
@Suite struct SelfInverseRelationshipTests {
    /// Version 1 of a `Person` with a name and one relationship, declared by `relationship`.
    static func person(_ relationship: String) -> String {
        "version: 1\nentities:\n  Person:\n    attributes:\n      name: { type: string }\n    relationships:\n      \(relationship)\n"
    }

    static let people = person("spouse: { destination: Person, inverse: spouse }") + """
          Employee:
            parent: Person
            attributes:
              salary: { type: int64 }
          Student:
            parent: Person
            attributes:
              school: { type: string }
        """

    /// The one-to-one has one side, so the key is in its own column, for the sub-entities too (the layout put
    /// it "on the other side", itself, and created no column: the links could not be stored).
    @Test func oneToOneKeepsItsKeyInItsOwnColumn() throws {
        let history = try MigrationSupport.history(Self.people)
        let layout = LayoutBuilder.layout(for: try #require(history.model(version: 1)))
        for entity in ["Person", "Employee", "Student"] {
            #expect(layout.storage(of: entity)?.relationships["spouse"] == RelationshipStorage(
                kind: .foreignKey, destination: "Person", isToMany: false, table: "Person", column: "spouse"))
        }
        let store = try MigrationSupport.store(history, at: 1, fill: """
            INSERT INTO Person (_pk, _entity, name, spouse) VALUES (1, 'Employee', 'Al', 2), (2, 'Student', 'Bo', 1), (3, 'Person', 'Cy', NULL);
            DELETE FROM Person WHERE _pk = 1;
            """)
        #expect(try MigrationSupport.columns(store, "Person") == ["_pk", "_entity", "name", "spouse", "salary", "school"])
        // Deleting one side nullifies the other (its delete rule, the default nullify).
        #expect(try MigrationSupport.dump(store, "SELECT _pk, name, spouse FROM Person ORDER BY _pk") == ["2|Bo|NULL", "3|Cy|NULL"])
    }

    /// Each change of a step that copies or renames the join table of `friends` ↔ `friends` keeps every link
    /// as it was (that side holds `target`; the planner took the table for a new one and dropped the links).
    @Test(arguments: [
        ("the entity renamed", """
          Human:
            renamedFrom: Person
            attributes:
              name: { type: string }
            relationships:
              friends: { destination: Human, inverse: friends, toMany: true }
        """, "_Human_friends", ["1|2", "1|3", "2|1", "3|2"]),
        ("the relationship renamed", """
          Person:
            attributes:
              name: { type: string }
            relationships:
              pals: { destination: Person, inverse: pals, toMany: true, renamedFrom: friends }
        """, "_Person_pals", ["1|2", "1|3", "2|1", "3|2"]),
        ("the relationship made ordered", """
          Person:
            attributes:
              name: { type: string }
            relationships:
              friends: { destination: Person, inverse: friends, toMany: true, ordered: true }
        """, "_Person_friends", ["1|2|1", "1|3|1", "2|1|1", "3|2|2"]),
    ])
    func manyToManyKeepsItsLinks(change: String, entities: String, table: String, rows: [String]) throws {
        let v1 = Self.person("friends: { destination: Person, inverse: friends, toMany: true }")
        let history = try MigrationSupport.history(v1, "version: 2\nentities:\n" + entities)
        let store = try MigrationSupport.store(history, at: 1, fill: """
            INSERT INTO Person (_pk, name) VALUES (1, 'a'), (2, 'b'), (3, 'c');
            INSERT INTO _Person_friends (source, target) VALUES (1, 2), (2, 1), (1, 3), (3, 2);
            """)
        _ = try Migrator.migrate(store, history: history)
        let order = rows[0].split(separator: "|").count == 3 ? ", target_order" : ""
        #expect(try MigrationSupport.dump(store, "SELECT source, target\(order) FROM \(table) ORDER BY 1, 2") == rows)
    }

    /// What a store created before the fix holds: no column for the key, said to be on the other side.
    static func makeLegacy(_ store: Store) throws {
        try store.queue.write { db in
            try db.execute(sql: #"DROP INDEX "strata_fk_Person_spouse"; ALTER TABLE "Person" DROP COLUMN "spouse""#)
            let text = try #require(try String.fetchOne(db, sql: #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.layout'"#))
            var layout = try JSONDecoder().decode(StoreLayout.self, from: Data(text.utf8))
            for entity in ["Person", "Employee", "Student"] {
                layout.entities[entity]?.relationships["spouse"]?.kind = .inverseForeignKey
            }
            let person = try #require(layout.tables.firstIndex { $0.name == "Person" })
            layout.tables[person].columns.removeAll { $0.name == "spouse" }
            layout.tables[person].indexes.removeAll { $0.columns == ["spouse"] }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try db.execute(sql: #"UPDATE "strata_metadata" SET "value" = ? WHERE "key" = 'strata.layout'"#,
                           arguments: [String(decoding: try encoder.encode(layout), as: UTF8.self)])
        }
    }

    /// Such a store migrates: the next step adds the column, empty (the copy looked for the missing column
    /// and failed, exit 1).
    @Test func aStoreWithoutTheKeyColumnGetsIt() throws {
        let v2 = Self.people.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "      school: { type: string }", with: "      school: { type: string }\n      year: { type: int16 }")
        let history = try MigrationSupport.history(Self.people, v2)
        let store = try MigrationSupport.store(history, at: 1, fill: "INSERT INTO Person (_pk, _entity, name) VALUES (1, 'Student', 'Bo');")
        try Self.makeLegacy(store)
        _ = try Migrator.migrate(store, history: history)
        let columns = try MigrationSupport.columns(store, "Person")
        #expect(columns == ["_pk", "_entity", "name", "salary", "school", "spouse", "year"])
        #expect(try MigrationSupport.dump(store, "SELECT _pk, name, spouse FROM Person") == ["1|Bo|NULL"])
        #expect(try store.metadata().layout.storage(of: "Student")?.relationships["spouse"]?.kind == .foreignKey)
    }

    /// Such a store's audit of a mandatory `spouse` finds every object without one (its SQL named the
    /// missing column: a SQLite error, exit 1).
    @Test func aStoreWithoutTheKeyColumnIsAudited() throws {
        let mandatory = Self.people.replacingOccurrences(of: "inverse: spouse }", with: "inverse: spouse, optional: false }")
        let history = try MigrationSupport.history(mandatory)
        let store = try MigrationSupport.store(history, at: 1, fill: "INSERT INTO Person (_pk, _entity, name) VALUES (1, 'Student', 'Bo'), (2, 'Person', 'Cy');")
        try Self.makeLegacy(store)
        let model = try #require(history.model(version: 1))
        let layout = try store.metadata().layout
        let result = try store.queue.read { db in try Auditor(model: model, layout: layout, storeUUID: "u").run(in: db, scope: .full) }
        #expect(result.violated.map { "\($0.entity).\($0.rule) \($0.count)" } == ["Person.optional 2"])
    }
}
