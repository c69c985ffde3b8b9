import Foundation
import Testing
@testable import StrataCore
import StrataTestSupport

/// Issue 12 items 6, 18, 24: YAML null in `propertiesToUpdate`, located errors, literals that read
/// like expressions.
@Suite struct HookValueTests {
    static let model = """
        version: 4
        entities:
          Recipe:
            attributes:
              name: { type: string, optional: false, default: Untitled }
              notes: { type: string }
              rating: { type: int16, min: 0, max: 5 }
              lastUsed: { type: date }
            relationships:
              author: { destination: Chef, inverse: recipes }
          Chef:
            attributes:
              name: { type: string }
            relationships:
              recipes: { destination: Recipe, toMany: true, inverse: author }
        """

    static func check(_ properties: String) throws -> [Diagnostic] {
        let history = ModelHistory(models: [try ModelLoader.load(yaml: model, file: "models/4.yaml")])
        let yaml = "after: 4\nsteps:\n  - batchUpdate:\n      entity: Recipe\n      propertiesToUpdate:\n" + properties
        let hook = try HookLoader.load(yaml: yaml, file: "migrations/h.yaml")
        return HookChecker.check(hook, models: history, warnings: true)
    }

    static func request(_ properties: String) throws -> BatchUpdateRequest {
        let yaml = "after: 4\nsteps:\n  - batchUpdate:\n      entity: Recipe\n      propertiesToUpdate:\n" + properties
        guard case .batchUpdate(let request) = try HookLoader.load(yaml: yaml, file: "migrations/h.yaml").steps[0] else {
            preconditionFailure("a batch update")
        }
        return request
    }

    @Test(arguments: ["~", "null", "Null", "NULL", ""])
    func yamlNullSetsNil(_ scalar: String) throws {
        let request = try Self.request("        notes: \(scalar)\n")
        #expect(request.propertiesToUpdate == ["notes": .value(.null)])
        #expect(try Self.check("        notes: \(scalar)\n").isEmpty)
    }

    @Test(arguments: ["\"~\"", "'null'", "{ value: \"null\" }"])
    func quotedNullIsText(_ scalar: String) throws {
        let request = try Self.request("        notes: \(scalar)\n")
        #expect(request.propertiesToUpdate == ["notes": .literal(scalar.contains("~") ? "~" : "null")])
    }

    @Test func explicitValueNullSetsNil() throws {
        #expect(try Self.request("        notes: { value: ~ }\n").propertiesToUpdate == ["notes": .value(.null)])
    }

    @Test(arguments: ["~", "null", ""])
    func nullOnANonOptionalAttributeIsALocatedError(_ scalar: String) throws {
        let diagnostics = try Self.check("        rating: 1\n        name: \(scalar)\n")
        let column = scalar.isEmpty ? 9 : 15
        #expect(diagnostics.map(\.headline) == ["migrations/h.yaml:7:\(column): error: Recipe.name is not optional: it cannot be set to nil"])
    }

    @Test func unknownAttributeIsLocatedAtItsKey() throws {
        let diagnostics = try Self.check("        rating: 1\n        ratin: 2\n")
        #expect(diagnostics.map(\.headline) == ["migrations/h.yaml:7:9: error: Recipe has no attribute 'ratin' (did you mean 'rating'?)"])
        #expect(diagnostics.first?.sourceLine == "        ratin: 2")
    }

    @Test func relationshipKeyIsLocatedAtItsKey() throws {
        let diagnostics = try Self.check("        author: 1\n")
        #expect(diagnostics.map(\.headline) == ["migrations/h.yaml:6:9: error: 'author' is a relationship of Recipe; batch updates change attributes only"])
    }

    @Test func badLiteralIsLocatedAtItsValue() throws {
        let diagnostics = try Self.check("        rating: \"high\"\n")
        #expect(diagnostics.map(\.headline) == ["migrations/h.yaml:6:18: error: Recipe.rating is int16, but 'high' is not an integer"])
        #expect(diagnostics.first?.hint == nil)
    }

    @Test func badExpressionIsLocatedInsideTheString() throws {
        let diagnostics = try Self.check("        rating: { expression: \"rating + ratng\" }\n")
        #expect(diagnostics.map(\.headline) == ["migrations/h.yaml:6:41: error: Recipe has no attribute 'ratng' (did you mean 'rating'?)"])
    }

    @Test(arguments: ["\"lowercase(name)\"", "notes", "\"uppercase(notes)\""])
    func aStringThatReadsAsAnExpressionWarns(_ value: String) throws {
        let diagnostics = try Self.check("        name: \(value)\n")
        let text = value.replacingOccurrences(of: "\"", with: "")
        #expect(diagnostics.map(\.headline) == [
            "migrations/h.yaml:6:\(value.hasPrefix("\"") ? 16 : 15): warning: '\(text)' is stored as this text in Recipe.name; it is not computed from the row",
        ])
        #expect(diagnostics.first?.hint == "to compute it, write `name: { expression: \"\(text)\" }`; to store the text, write `name: { value: \"\(text)\" }`")
    }

    @Test(arguments: ["Untitled", "\"hello world\"", "{ value: \"lowercase(name)\" }", "\"lowercase(nme)\"", "\"42\"",
                      "\"" + String(repeating: "(", count: 50_000) + "name" + String(repeating: ")", count: 50_000) + "\""])
    func plainTextDoesNotWarn(_ value: String) throws {
        #expect(try Self.check("        name: \(value)\n").isEmpty)
    }

    @Test func aTypeErrorOnAnExpressionLikeScalarHintsAtExpression() throws {
        let diagnostics = try Self.check("        rating: \"rating + 1\"\n")
        #expect(diagnostics.map(\.headline) == ["migrations/h.yaml:6:18: error: Recipe.rating is int16, but 'rating + 1' is not an integer"])
        #expect(diagnostics.first?.hint == "a plain value is a literal; to compute it from the row, write `rating: { expression: \"rating + 1\" }`")
    }

    /// A late hook is checked for errors only: a warning never stops it.
    @Test func warningsAreOnlyAddedWhenAskedFor() throws {
        let model = try ModelLoader.load(yaml: Self.model, file: "models/4.yaml")
        let hook = try HookLoader.load(yaml: "after: 4\nsteps:\n  - batchUpdate: { entity: Recipe, propertiesToUpdate: { notes: \"lowercase(name)\" } }\n",
                                       file: "migrations/h.yaml")
        #expect(HookChecker.check(hook, against: model).isEmpty)
        #expect(HookChecker.check(hook, against: model, warnings: true).map(\.severity) == [.warning])
    }

    @Test func hookSetCarriesWarningsAndKeepsTheHook() throws {
        let dir = Temporary.directory("hooks")
        try "after: 4\nsteps:\n  - batchUpdate: { entity: Recipe, propertiesToUpdate: { notes: \"lowercase(name)\" } }\n"
            .write(toFile: dir + "/a.yaml", atomically: true, encoding: .utf8)
        let history = ModelHistory(models: [try ModelLoader.load(yaml: Self.model, file: "models/4.yaml")])
        let set = try HookSet.load(directory: dir, models: history)
        #expect(set.hooks.map(\.id) == ["a"])
        #expect(set.warnings.map(\.severity) == [.warning])
    }
}
