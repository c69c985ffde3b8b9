import Foundation
import GRDB
import Testing
@testable import Strata

@Suite struct MappingPlanTests {
    /// v1 → v117 of an 80-entity, 720-attribute history: one step per version, each touching only the
    /// table that changed. (Loading and planning such a history is timed by `Benchmarks/bench.py --cases lint-history`, not here.)
    @Test func longHistoryPlansStepByStepTouchingOnlyChangedTables() throws {
        let models = HistoryGenerator.history()
        let steps = try MappingInference.plan(models: models, from: 1, to: 117)
        #expect(steps.map(\.fromVersion) == Array(1...116))
        #expect(steps.map(\.toVersion) == Array(2...117))
        for step in steps {
            let v = step.toVersion
            let table = HistoryGenerator.target(at: v)
            let root = models[v - 1].root(of: table)!.name
            let actions = step.tableActions.map { "\($0.kind.rawValue) \($0.table)" }
            switch HistoryGenerator.change(at: v) {
            case .addAttribute, .renameAttribute, .addIndex: #expect(actions == ["alter \(root)"], "v\(v)")
            case .changeDefault: #expect(actions == [], "v\(v)"); #expect(step.isMetadataOnly)
            case .removeAttribute: #expect(actions == ["rebuild \(root)"], "v\(v)")
            case .addEntity: #expect(actions == ["create N\(v)"], "v\(v)")
            }
        }
        // Renamed columns carry their new names; everything else keeps the names assigned at v1.
        let last = steps.last!.destinationLayout
        #expect(last.storage(of: "E7")?.attributeColumns["a0"] == "a0")
        #expect(last == LayoutBuilder.layout(for: models.last!, keeping: keeping(of: last)))
    }

    @Test func longHistoryMigratesAStoreWithoutDrift() throws {
        let models = Array(HistoryGenerator.history(versions: 40))
        let history = ModelHistory(models: models)
        let store = try StoreCreator.create(at: MigrationSupport.temporaryPath(), model: models[0])
        try store.queue.write { db in
            for i in 0..<80 where i % 10 != 2 { try db.execute(sql: "INSERT INTO \(quoted("E\(i)")) (a0\(i % 10 == 1 ? ", _entity" : "")) VALUES (NULL\(i % 10 == 1 ? ", 'E\(i)'" : ""))") }
        }
        try Migrator.migrate(store, history: history)
        #expect(try store.metadata().version == 40)
        #expect(try MigrationSupport.drift(store, history).items == [])
    }

    @Test func renamedFromKeptForeverIsIgnoredAndOldRenamesAreNotRefused() throws {
        let history = try MigrationSupport.history(
            "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string }",
            "version: 2\nentities:\n  A:\n    attributes:\n      y: { type: string, renamedFrom: x }",
            "version: 3\nentities:\n  A:\n    attributes:\n      y: { type: string, renamedFrom: x }\n      z: { type: string }")
        let steps = try MappingInference.plan(models: history.models, from: 1, to: 3)
        #expect(steps.map { $0.changes.map(\.description) } == [
            ["renameAttribute A.y: renamed from x"],
            ["addAttribute A.z: new string"],
        ])
        #expect(steps[0].sqlText == [#"ALTER TABLE "A" RENAME COLUMN "x" TO "y""#])
    }

    @Test func lintReportsDestructiveAndNonInferableSteps() throws {
        let history = try MigrationSupport.history(
            "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string }\n      w: { type: string }",
            "version: 2\nentities:\n  A:\n    attributes:\n      x: { type: string }",
            "version: 3\nentities:\n  A:\n    attributes:\n      x: { type: int16 }")
        #expect(MappingInference.lint(history.models).map(\.headline) == [
            "models/1.yaml:6:7: warning: v1 → v2: A.w is removed with its values",
            "models/3.yaml:5:7: error: v2 → v3: A.x: type changes from string to int16, which Strata cannot infer",
        ])
        // The way forward names the cast that fills the new attribute (issue 14 item 5).
        #expect(MappingInference.lint(history.models).last?.hint
                == #"only widening is inferred (int16 → int32 → int64, float → double, integer → double); add a new int16 attribute, fill it in a hook (propertiesToUpdate: { NEW: { expression: "int16(x)" } }), and remove x in a later version; or write a mapping file: `strata mapping 2 3` prints a skeleton"#)
    }

    private func keeping(of layout: StoreLayout) -> [String: [String: String]] {
        var keep: [String: [String: String]] = [:]
        for (entity, storage) in layout.entities {
            for (p, c) in storage.attributeColumns { keep[entity, default: [:]][p] = c }
            for (p, r) in storage.relationships where r.kind == .foreignKey { keep[entity, default: [:]][p] = r.column }
        }
        return keep
    }
}
