import Foundation
import Testing
@testable import StrataCore

@Suite struct HookLoaderTests {
    static let models = """
        version: 4
        entities:
          Recipe:
            attributes:
              name: { type: string }
              lastUsed: { type: date }
              rating: { type: int16, min: 0, max: 5 }
              favorite: { type: bool, default: false, optional: false }
        """

    static func history() throws -> ModelHistory {
        ModelHistory(models: [try ModelLoader.load(yaml: models, file: "models/4.yaml")])
    }

    @Test func exampleHooksLoad() throws {
        let models = try ModelHistory.load(directory: TestStore.packageRoot + "/models")
        let set = try HookSet.load(directory: TestStore.packageRoot + "/migrations", models: models)
        #expect(set.hooks.map(\.id) == ["purge-abandoned-drafts", "favorite-recent-recipes"])
        let favorite = try #require(set.hook(id: "favorite-recent-recipes"))
        #expect(favorite.after == 4)
        #expect(favorite.onViolation == .rollback)
        guard case .batchUpdate(let request) = favorite.steps.first else { Issue.record("expected a batch update"); return }
        #expect(request.entity == "Recipe")
        #expect(request.predicate == "lastUsed >= $NOW - 30 days")
        #expect(request.propertiesToUpdate == ["favorite": .literal("true")])
        #expect(request.resultType == .updatedObjectIDs)
        #expect(request.predicateOrigin == SourceLocation(file: TestStore.packageRoot + "/migrations/favorite-recent-recipes.yaml", line: 10, column: 19))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: favorite.file)))
        #expect(favorite.checksum == SHA256.hex(bytes))
    }

    @Test func idDefaultsToTheFileName() throws {
        let hook = try HookLoader.load(yaml: "after: 4\nsteps:\n  - batchDelete: { entity: Recipe }\n", file: "migrations/cleanup.yml")
        #expect(hook.id == "cleanup")
        #expect(hook.onViolation == .rollback)
    }

    @Test func valueForms() throws {
        let hook = try HookLoader.load(yaml: """
            after: 4
            steps:
              - batchUpdate:
                  entity: Recipe
                  propertiesToUpdate: { rating: { expression: "rating + 1" }, name: "$TITLE", favorite: YES, lastUsed: { value: "2024-05-01" } }
            """, file: "h.yaml")
        guard case .batchUpdate(let request) = hook.steps.first else { Issue.record("expected a batch update"); return }
        #expect(request.propertiesToUpdate == ["rating": .expression("rating + 1"), "name": .expression("$TITLE"),
                                               "favorite": .literal("YES"), "lastUsed": .literal("2024-05-01")])
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        var name: String
        var yaml: String
        var errors: [String]
        var testDescription: String { name }
    }

    static let bad: [BadCase] = [
        BadCase(name: "missing after", yaml: "steps:\n  - batchDelete: { entity: Recipe }\n",
                errors: ["h.yaml:1:1: error: missing 'after'"]),
        BadCase(name: "unknown key", yaml: "after: 4\nstep: []\n",
                errors: ["h.yaml:1:1: error: missing 'steps'", "h.yaml:2:1: error: unknown key 'step' in a hook file"]),
        BadCase(name: "after names no version", yaml: "after: 9\nsteps:\n  - batchDelete: { entity: Recipe }\n",
                errors: ["h.yaml:1:8: error: after: 9 names no model version"]),
        BadCase(name: "unknown entity", yaml: "after: 4\nsteps:\n  - batchDelete: { entity: Recipes }\n",
                errors: ["h.yaml:3:28: error: unknown entity 'Recipes'"]),
        BadCase(name: "bad predicate column", yaml: "after: 4\nsteps:\n  - batchDelete: { entity: Recipe, predicate: \"ratin > 3\" }\n",
                errors: ["h.yaml:3:48: error: Recipe has no attribute 'ratin' (did you mean 'rating'?)"]),
        BadCase(name: "unknown onViolation", yaml: "after: 4\nonViolation: ignore\nsteps:\n  - batchDelete: { entity: Recipe }\n",
                errors: ["h.yaml:2:14: error: unknown onViolation 'ignore'"]),
        BadCase(name: "two kinds in one step", yaml: "after: 4\nsteps:\n  - batchDelete: { entity: Recipe }\n    batchUpdate: { entity: Recipe }\n",
                errors: ["h.yaml:3:5: error: a step is exactly one of batchUpdate, batchDelete, sql, batchInsert, setRelationship"]),
        BadCase(name: "update without properties", yaml: "after: 4\nsteps:\n  - batchUpdate: { entity: Recipe }\n",
                errors: ["h.yaml:3:18: error: batchUpdate needs 'propertiesToUpdate'"]),
        BadCase(name: "unknown result type", yaml: "after: 4\nsteps:\n  - batchDelete: { entity: Recipe, resultType: ids }\n",
                errors: ["h.yaml:3:48: error: unknown resultType 'ids'"]),
        BadCase(name: "value of the wrong type", yaml: "after: 4\nsteps:\n  - batchUpdate: { entity: Recipe, propertiesToUpdate: { rating: high } }\n",
                errors: ["h.yaml:3:66: error: Recipe.rating is int16, but 'high' is not an integer"]),
    ]

    @Test(arguments: bad)
    func badHooks(_ c: BadCase) throws {
        let dir = TestStore.directory()
        try c.yaml.write(toFile: dir + "/h.yaml", atomically: true, encoding: .utf8)
        do {
            _ = try HookSet.load(directory: dir, models: try Self.history())
            Issue.record("expected errors")
        } catch let error as DiagnosticList {
            let relative = error.errors.map { $0.headline.replacingOccurrences(of: dir + "/", with: "") }
            #expect(relative == c.errors)
        }
    }

    @Test func duplicateIDsPointAtTheLaterFile() throws {
        let dir = TestStore.directory()
        try "id: same\nafter: 4\nsteps:\n  - batchDelete: { entity: Recipe }\n".write(toFile: dir + "/a.yaml", atomically: true, encoding: .utf8)
        try "id: same\nafter: 4\nsteps:\n  - batchDelete: { entity: Recipe }\n".write(toFile: dir + "/b.yaml", atomically: true, encoding: .utf8)
        do {
            _ = try HookSet.load(directory: dir, models: try Self.history())
            Issue.record("expected errors")
        } catch let error as DiagnosticList {
            #expect(error.errors.map(\.headline) == ["\(dir)/b.yaml:1:5: error: hook id 'same' is already used by \(dir)/a.yaml"])
        }
    }
}
