import Foundation
import GRDB
import Testing
@testable import Strata

private func models(_ v1: String, _ v2: String) throws -> ModelHistory {
    try MigrationSupport.history("version: 1\nentities:\n" + v1, "version: 2\nentities:\n" + v2)
}

private struct Injected: Error {}

@Suite struct MigrationFailureTests {
    let recipe = "  Recipe:\n    attributes:\n      name: { type: string }\n      rating: { type: int16 }\n      gone: { type: string }"
    let fill = "INSERT INTO Recipe (name, rating, gone) VALUES ('Pie', 5, 'x'), (NULL, NULL, NULL), ('Pie', 2, 'y');"

    @Test func nullsWithoutDefaultFailWithObjectIDsAndLeaveTheStore() throws {
        let history = try models(recipe, "  Recipe:\n    attributes:\n      name: { type: string }\n      rating: { type: int16, optional: false }\n      gone: { type: string }")
        let store = try MigrationSupport.store(history, at: 1, fill: fill)
        let before = MigrationSupport.fileBytes(store)
        let uuid = try store.metadata().storeUUID
        #expect {
            try Migrator.migrate(store, history: history)
        } throws: { error in
            guard case MigrationError.violations(1, 2, let v) = error else { return false }
            return v.map(\.objects) == [[ObjectID(storeUUID: uuid, entity: "Recipe", primaryKey: 2)]] && v[0].code == 1570
                && (error as! MigrationError).exitCode == .validationViolations
        }
        #expect(MigrationSupport.fileBytes(store) == before)
        #expect(try store.metadata().version == 1)
    }

    @Test func duplicatesForNewUniquenessAreListedInGroups() throws {
        let history = try models(recipe, recipe + "\n    uniqueness: [[name]]")
        let store = try MigrationSupport.store(history, at: 1, fill: fill)
        let uuid = try store.metadata().storeUUID
        #expect {
            try Migrator.migrate(store, history: history)
        } throws: { error in
            guard case MigrationError.violations(_, _, let v) = error else { return false }
            return v[0].groups == [.init(values: [.text("Pie")], objects: [1, 3].map { ObjectID(storeUUID: uuid, entity: "Recipe", primaryKey: $0) })]
                && v[0].code == 1551 && v[0].properties == ["name"]
        }
        #expect(try store.metadata().version == 1)
        #expect(try MigrationSupport.indexes(store, "Recipe") == [])
    }

    @Test func newMandatoryAttributeWithoutDefaultNeedsAnEmptyTable() throws {
        let history = try models(recipe, recipe + "\n      code: { type: int32, optional: false }")
        let store = try MigrationSupport.store(history, at: 1, fill: fill)
        #expect {
            try Migrator.migrate(store, history: history)
        } throws: { error in
            guard case MigrationError.violations(_, _, let v) = error else { return false }
            return v[0].check == .rowsForNewMandatoryAttribute && v[0].objects.map(\.primaryKey) == [1, 2, 3]
        }
        #expect(try MigrationSupport.columns(store, "Recipe") == ["_pk", "name", "rating", "gone"])
    }

    @Test func injectedFailureAfterTheCopyLeavesTheOldVersionIntact() throws {
        let history = try models(recipe, "  Recipe:\n    attributes:\n      name: { type: string }\n      rating: { type: int16 }")
        let store = try MigrationSupport.store(history, at: 1, fill: fill)
        let before = try MigrationSupport.dump(store, "SELECT * FROM Recipe ORDER BY _pk")
        let options = MigrationOptions(afterOperation: { op in
            if case .copy = op { throw Injected() }
        })
        #expect(throws: Injected.self) { try Migrator.migrate(store, history: history, options: options) }
        #expect(try store.metadata().version == 1)
        #expect(try MigrationSupport.dump(store, "SELECT * FROM Recipe ORDER BY _pk") == before)
        #expect(try MigrationSupport.tables(store) == ["Recipe"])
        #expect(try store.queue.read { try Int.fetchOne($0, sql: "PRAGMA foreign_keys") } == 1)
        #expect(try MigrationSupport.drift(store, history).items == [])
        // And it completes on rerun.
        try Migrator.migrate(store, history: history)
        #expect(try MigrationSupport.columns(store, "Recipe") == ["_pk", "name", "rating"])
    }

    @Test func goingBackwardsIsAnError() throws {
        let history = try models(recipe, recipe)
        let store = try MigrationSupport.store(history, at: 2)
        #expect(throws: MigrationError.self) { try Migrator.migrate(store, history: history, options: MigrationOptions(target: 1)) }
    }
}

/// Every refusal kind: a located, actionable error, before the store is touched.
struct RefusalCase: CustomTestStringConvertible, Sendable {
    var name: String
    var v1: String
    var v2: String
    var message: String
    var testDescription: String { name }
}

let refusalCases: [RefusalCase] = [
    RefusalCase(name: "type change", v1: "  A:\n    attributes:\n      x: { type: string }", v2: "  A:\n    attributes:\n      x: { type: int16 }",
                message: "models/2.yaml:5:7: error: v1 → v2: A.x: type changes from string to int16, which Strata cannot infer"),
    RefusalCase(name: "narrowing", v1: "  A:\n    attributes:\n      x: { type: int64 }", v2: "  A:\n    attributes:\n      x: { type: int16 }",
                message: "models/2.yaml:5:7: error: v1 → v2: A.x: type changes from int64 to int16, which Strata cannot infer"),
    RefusalCase(name: "renamedFrom names nothing", v1: "  A:\n    attributes:\n      x: { type: string }",
                v2: "  A:\n    attributes:\n      y: { type: string, renamedFrom: z }",
                message: "models/2.yaml:5:7: error: v1 → v2: A.y: renamedFrom 'z' names no attribute of any earlier version, which Strata cannot infer"),
    RefusalCase(name: "entity renamedFrom names nothing", v1: "  A:\n    attributes:\n      x: { type: string }",
                v2: "  B:\n    renamedFrom: Q\n    attributes:\n      x: { type: string }",
                message: "models/2.yaml:3:3: error: v1 → v2: B: renamedFrom 'Q' names no entity of any earlier version, which Strata cannot infer"),
    RefusalCase(name: "to-many to to-one",
                v1: "  A:\n    relationships:\n      bs: { destination: B, toMany: true }\n  B:\n    attributes:\n      x: { type: string }",
                v2: "  A:\n    relationships:\n      bs: { destination: B }\n  B:\n    attributes:\n      x: { type: string }",
                message: "models/2.yaml:5:7: error: v1 → v2: A.bs: becomes to-one (it was to-many), which Strata cannot infer"),
    RefusalCase(name: "destination change",
                v1: "  A:\n    relationships:\n      b: { destination: B }\n  B:\n    attributes:\n      x: { type: string }\n  C:\n    attributes:\n      x: { type: string }",
                v2: "  A:\n    relationships:\n      b: { destination: C }\n  B:\n    attributes:\n      x: { type: string }\n  C:\n    attributes:\n      x: { type: string }",
                message: "models/2.yaml:5:7: error: v1 → v2: A.b: destination changes from B to C, which Strata cannot infer"),
    RefusalCase(name: "merging root hierarchies",
                v1: "  A:\n    attributes:\n      x: { type: string }\n  B:\n    attributes:\n      y: { type: string }",
                v2: "  A:\n    attributes:\n      x: { type: string }\n  B:\n    parent: A\n    attributes:\n      y: { type: string }",
                message: "models/2.yaml:3:3: error: v1 → v2: A: merges root hierarchies into one table: A (table A), B (table B), which Strata cannot infer"),
]

@Suite struct MigrationRefusalTests {
    @Test(arguments: refusalCases)
    func refuses(_ c: RefusalCase) throws {
        let history = try models(c.v1, c.v2)
        let store = try MigrationSupport.store(history, at: 1)
        let before = MigrationSupport.fileBytes(store)
        #expect {
            try Migrator.migrate(store, history: history)
        } throws: { error in
            guard let e = error as? MappingError else { return false }
            #expect(e.diagnostics.first?.headline == c.message)
            #expect(e.diagnostics.first?.hint?.isEmpty == false)
            return e.exitCode == .notInferable
        }
        #expect(MigrationSupport.fileBytes(store) == before)
    }
}
