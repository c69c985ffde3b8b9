import Foundation
import Testing
@testable import StrataCore

/// Issue 12 "Done when": seeded, time-bounded fuzzing of model and hook YAML. Whatever the input,
/// loading returns a model (or hook) or throws errors that each point into the file; checking
/// hooks, planning and linting never crash.
@Suite struct FuzzTests {
    /// Seconds each fuzz test runs for (a few: it is part of `swift test`).
    /// `STRATA_FUZZ_SECONDS` runs longer (a local hunt); `STRATA_FUZZ_SEED` adds a seed.
    static let extraSeed = UInt64(ProcessInfo.processInfo.environment["STRATA_FUZZ_SEED"] ?? "") ?? 0
    static let budget: TimeInterval = Double(ProcessInfo.processInfo.environment["STRATA_FUZZ_SECONDS"] ?? "") ?? 1.5

    static func read(_ path: String) throws -> String { try String(contentsOfFile: TestStore.packageRoot + "/" + path, encoding: .utf8) }

    static func exampleModels() throws -> [String] { try (1...4).map { try read("models/\($0).yaml") } }

    static func exampleHooks() throws -> [String] {
        try ["migrations/favorite-recent-recipes.yaml", "migrations/purge-abandoned-drafts.yaml"].map(read) + [
            """
            id: fuzz
            after: 4
            variables: { DAYS: "30" }
            steps:
              - batchUpdate:
                  entity: Recipe
                  predicate: "rating BETWEEN {1, 3} AND name BEGINSWITH[cd] %@ OR lastUsed < $NOW - 2 days"
                  arguments: ["a"]
                  propertiesToUpdate: { rating: { expression: "rating + 1" }, notes: ~, name: "lowercase(name)", favorite: YES }
                  resultType: updatedObjectIDs
              - batchDelete: { entity: Ingredient, predicate: "recipe == nil AND NOT (name IN {'a', 'b'})", resultType: count }
            onViolation: warn
            """,
        ]
    }

    /// Every error of a failed load is located in the file it came from.
    static func expectLocated(_ error: DiagnosticList, file: String, input: String) {
        #expect(!error.errors.isEmpty, "a failed load reports an error")
        for d in error.errors {
            #expect(d.location?.file == file, "unlocated: \(d.headline)\n--- input ---\n\(input)")
            if let location = d.location { #expect(location.line >= 1 && location.column >= 1, "\(d.headline)") }
        }
    }

    @Test(arguments: [1, 2] as [UInt64])
    func mutatedModelsLoadOrFailWithLocatedErrors(seed: UInt64) throws {
        var mutator = YAMLMutator(seed: seed &+ Self.extraSeed)
        let originals = try Self.exampleModels() + [try Self.read("Tests/StrataTests/Fixtures/tricky.yaml")]
        let valid = try originals.prefix(4).enumerated().map { try ModelLoader.load(yaml: $0.element, file: "models/\($0.offset + 1).yaml") }
        let deadline = Date().addingTimeInterval(Self.budget)
        var runs = 0
        while Date() < deadline {
            let index = mutator.int(originals.count)
            let input = mutator.mutate(originals[index])
            let file = "models/\(index + 1).yaml"
            do {
                let model = try ModelLoader.load(yaml: input, file: file)
                // A model that loads is checked and planned against its neighbours without crashing.
                var history = valid.filter { $0.version != model.version }
                history.append(model)
                _ = MappingInference.lintFindings(history)
                _ = LayoutBuilder.layout(for: model)
            } catch {
                Self.expectLocated(error, file: file, input: input)
            }
            runs += 1
        }
        #expect(runs > 10)
    }

    @Test(arguments: [3, 4] as [UInt64])
    func mutatedHooksLoadOrFailWithLocatedErrors(seed: UInt64) throws {
        var mutator = YAMLMutator(seed: seed &+ Self.extraSeed)
        let originals = try Self.exampleHooks()
        let history = ModelHistory(models: try Self.exampleModels().enumerated().map {
            try ModelLoader.load(yaml: $0.element, file: "models/\($0.offset + 1).yaml")
        })
        let deadline = Date().addingTimeInterval(Self.budget)
        var runs = 0
        while Date() < deadline {
            let input = mutator.mutate(mutator.pick(originals))
            do {
                let hook = try HookLoader.load(yaml: input, file: "migrations/h.yaml")
                for d in HookChecker.check(hook, models: history) where d.severity == .error {
                    #expect(d.location?.file == "migrations/h.yaml", "unlocated: \(d.headline)\n--- input ---\n\(input)")
                }
            } catch {
                Self.expectLocated(error, file: "migrations/h.yaml", input: input)
            }
            runs += 1
        }
        #expect(runs > 10)
    }
}
