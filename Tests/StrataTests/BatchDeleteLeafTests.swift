import Foundation
import GRDB
import Testing
@testable import Strata

/// Leaf cascades (a destination nothing references, with no rules of its own) are deleted straight from the
/// doomed owners instead of being collected first. The results must equal the general path's exactly.
/// Recipe (with sub-entity Dessert) →(cascade) Step, a leaf that points at Unit (to-one, no inverse);
/// Recipe →(cascade) Note, not a leaf because Cook.flagged (deny) points at it.
@Suite struct BatchDeleteLeafTests {
    static let yaml = """
    version: 1
    entities:
      Recipe:
        attributes:
          name: { type: string }
        relationships:
          steps: { destination: Step, toMany: true, inverse: recipe, deleteRule: cascade }
          notes: { destination: Note, toMany: true, inverse: recipe, deleteRule: cascade }
      Dessert:
        parent: Recipe
        attributes:
          sweetness: { type: int16 }
      Step:
        attributes:
          text: { type: string }
        relationships:
          recipe: { destination: Recipe, inverse: steps, deleteRule: nullify }
          unit:   { destination: Unit, deleteRule: nullify }
      Unit:
        attributes:
          name: { type: string }
      Note:
        attributes:
          text: { type: string }
        relationships:
          recipe:    { destination: Recipe, inverse: notes, deleteRule: nullify }
          flaggedBy: { destination: Cook, inverse: flagged, deleteRule: nullify }
      Cook:
        attributes:
          name: { type: string }
        relationships:
          flagged: { destination: Note, toMany: true, inverse: flaggedBy, deleteRule: deny }
    """
    static let rows = """
    INSERT INTO "Unit" ("_pk", "name") VALUES (1, 'g'), (2, 'ml');
    INSERT INTO "Recipe" ("_pk", "_entity", "name", "sweetness") VALUES
      (1, 'Recipe', 'soup', NULL), (2, 'Dessert', 'tart', 3), (3, 'Recipe', 'stew', NULL), (4, 'Dessert', 'flan', 5);
    INSERT INTO "Step" ("_pk", "text", "recipe", "unit") VALUES
      (1, 's1', 1, 1), (2, 's2', 1, 2), (3, 't1', 2, 1), (4, 'w1', 3, NULL), (5, 'f1', 4, 2), (6, 'f2', 4, NULL), (7, 'loose', NULL, 1);
    INSERT INTO "Cook" ("_pk", "name") VALUES (1, 'Ida');
    INSERT INTO "Note" ("_pk", "text", "recipe", "flaggedBy") VALUES (1, 'n1', 1, NULL), (2, 'n2', 2, 1), (3, 'n3', 4, NULL);
    """

    struct Outcome: Equatable {
        var ids: [String]
        var deleted: [String: [String]]
        var counts: [String: Int]
        var tables: [String: [Int]]
    }

    func run(_ predicate: String, entity: String = "Recipe", subentities: Bool = true, ids: Bool,
             touched: Bool, foreignKeys: Bool) throws -> Outcome {
        let f = try PredicateFixture.make(yaml: Self.yaml, rows: Self.rows)
        let uuid = try f.store.metadata().storeUUID
        var request = BatchDeleteRequest(entity: entity, predicate: predicate)
        request.resultType = ids ? .objectIDs : .count
        request.includesSubentities = subentities
        var result: BatchResult?
        try f.store.queue.writeWithoutTransaction { db in
            if !foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
            try db.inTransaction {
                result = try BatchExecutor.execute(request, in: db, model: f.model, layout: f.layout, storeUUID: uuid,
                                                   context: PredicateContext(now: 0), recordTouched: touched)
                return .commit
            }
            if !foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = ON") }
        }
        var tables: [String: [Int]] = [:]
        for table in ["Recipe", "Step", "Unit", "Note", "Cook"] {
            tables[table] = try f.store.queue.read { try Int.fetchAll($0, sql: "SELECT \"_pk\" FROM \(quoted(table)) ORDER BY 1") }
        }
        let problems = try f.store.queue.read { try Row.fetchAll($0, sql: "PRAGMA foreign_key_check") }
        #expect(problems.isEmpty)
        let r = try #require(result)
        return Outcome(ids: (r.objectIDs ?? []).map { "\($0.entity)/p\($0.primaryKey)" },
                       deleted: r.changes.deleted.mapValues { $0.map { "p\($0.primaryKey)" } },
                       counts: r.changes.deletedCounts, tables: tables)
    }

    @Test func onlyTheLeafCascadeSkipsTheDoomedSet() throws {
        let f = try PredicateFixture.make(yaml: Self.yaml, rows: Self.rows)
        let plan = try BatchPlanner(model: f.model, layout: f.layout)
            .planDelete(BatchDeleteRequest(entity: "Recipe", predicate: "name == 'soup'"), context: PredicateContext(now: 0))
        #expect(plan.cascades.count == 2)
        let leaves = plan.cascades.compactMap(\.leaf)
        #expect(leaves.map(\.entity) == ["Step"])
        #expect(leaves.first?.statement.sql
                == #"DELETE FROM "Step" WHERE "recipe" IN (SELECT k."pk" FROM temp."strata_doomed" AS k WHERE k."table" = ?)"#)
        #expect(leaves.first?.statement.arguments == [.text("Recipe")])
        // Deleting Steps themselves: the request's own table is never a leaf.
        let own = try BatchPlanner(model: f.model, layout: f.layout)
            .planDelete(BatchDeleteRequest(entity: "Step", predicate: nil), context: PredicateContext(now: 0))
        #expect(own.cascades.count == 2)
        #expect(own.cascades.compactMap(\.leaf).isEmpty)
    }

    @Test(arguments: [true, false])
    func leafCascadeWithIDs(foreignKeys: Bool) throws {
        let fast = try run("name IN {'soup', 'flan'}", ids: true, touched: false, foreignKeys: foreignKeys)
        #expect(fast.ids == ["Dessert/p4", "Recipe/p1"])
        #expect(fast.deleted == ["Recipe": ["p1"], "Dessert": ["p4"], "Step": ["p1", "p2", "p5", "p6"], "Note": ["p1", "p3"]])
        #expect(fast.counts == ["Recipe": 1, "Dessert": 1, "Step": 4, "Note": 2])
        #expect(fast.tables == ["Recipe": [2, 3], "Step": [3, 4, 7], "Unit": [1, 2], "Note": [2], "Cook": [1]])
        let general = try run("name IN {'soup', 'flan'}", ids: true, touched: true, foreignKeys: foreignKeys)
        #expect(general == fast)
    }

    @Test(arguments: [true, false])
    func leafCascadeCountsOnly(foreignKeys: Bool) throws {
        let fast = try run("sweetness > 4", entity: "Dessert", ids: false, touched: false, foreignKeys: foreignKeys)
        #expect(fast.deleted.isEmpty)
        #expect(fast.counts == ["Dessert": 1, "Step": 2, "Note": 1])
        #expect(fast.tables == ["Recipe": [1, 2, 3], "Step": [1, 2, 3, 4, 7], "Unit": [1, 2], "Note": [1, 2], "Cook": [1]])
        let general = try run("sweetness > 4", entity: "Dessert", ids: false, touched: true, foreignKeys: foreignKeys)
        #expect(general == fast)
    }

    @Test func denyOnTheNonLeafStillBlocksAndLeavesEverything() throws {
        let f = try PredicateFixture.make(yaml: Self.yaml, rows: Self.rows)
        let uuid = try f.store.metadata().storeUUID
        do {
            _ = try f.store.queue.write { db in
                try BatchExecutor.execute(BatchDeleteRequest(entity: "Cook", predicate: nil), in: db, model: f.model,
                                          layout: f.layout, storeUUID: uuid, context: PredicateContext(now: 0), recordTouched: false)
            }
            Issue.record("expected the delete to be denied")
        } catch let error as BatchError {
            guard case .denied(_, let total) = error else { Issue.record("\(error)"); return }
            #expect(total == 1)
        }
        // A Recipe delete reaching the flagged note: the note is doomed too, so the cook's deny allows it.
        let outcome = try run("name == 'tart'", ids: true, touched: false, foreignKeys: true)
        #expect(outcome.deleted == ["Dessert": ["p2"], "Step": ["p3"], "Note": ["p2"]])
        #expect(outcome.tables["Note"] == [1, 3])
        #expect(outcome.tables["Cook"] == [1])
    }
}
