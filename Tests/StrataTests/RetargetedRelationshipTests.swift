import Foundation
import Testing
@testable import StrataCore

/// Issue 12 item 26 (SPEC §4): a relationship kept by name whose destination entity is removed in the
/// same step is inferred as removed (its links dropped) and added, never refused.
@Suite struct RetargetedRelationshipTests {
    static func model(_ version: Int, destination: String, optional: Bool = true, renamed: Bool = false) throws -> Model {
        try ModelLoader.load(yaml: """
            version: \(version)
            entities:
              Recipe:
                attributes:
                  name: { type: string }
                relationships:
                  author: { destination: \(destination), inverse: recipes\(optional ? "" : ", optional: false") }
              \(destination):
                \(renamed ? "renamedFrom: Chef" : "")
                attributes:
                  name: { type: string }
                relationships:
                  recipes: { destination: Recipe, toMany: true, inverse: author }
            """, file: "models/\(version).yaml")
    }

    @Test func aReplacedDestinationIsRemoveAndAdd() throws {
        let steps = try MappingInference.plan(models: [try Self.model(1, destination: "Chef"), try Self.model(2, destination: "Cook")], from: 1, to: 2)
        let step = try #require(steps.first)
        let author = step.changes.filter { $0.entity == "Recipe" && $0.property == "author" }
        #expect(author.map(\.kind) == [.addRelationship, .removeRelationship])
        #expect(step.destructiveChanges.map(\.description).contains(
            "removeRelationship Recipe.author: removed with its links: its destination Chef is removed (the new author starts empty) [destructive]"))
        // The old column's values are not copied into the new one.
        let copy = try #require(step.sqlText.first { $0.hasPrefix("INSERT INTO \"strata_new_Recipe\"") })
        #expect(copy.contains("NULL FROM \"Recipe\""))
        #expect(!copy.contains("\"strata_old\".\"author\""))
    }

    @Test func aRenameWithRenamedFromKeepsTheLinks() throws {
        let steps = try MappingInference.plan(models: [try Self.model(1, destination: "Chef"), try Self.model(2, destination: "Cook", renamed: true)],
                                              from: 1, to: 2)
        let step = try #require(steps.first)
        #expect(!step.changes.contains { $0.kind == .removeRelationship })
        #expect(step.destructiveChanges.isEmpty)
    }

    @Test func aReplacedNonOptionalToOneChecksThatTheTableIsEmpty() throws {
        let steps = try MappingInference.plan(models: [try Self.model(1, destination: "Chef"),
                                                       try Self.model(2, destination: "Cook", optional: false)], from: 1, to: 2)
        let checks = try #require(steps.first).operations.compactMap { op -> MigrationCheck? in
            if case .check(let check) = op { return check }
            return nil
        }
        #expect(checks.map(\.kind) == [.rowsForNewMandatoryRelationship])
        #expect(checks.first?.summary == "Recipe has no objects (new non-optional to-one Recipe.author links none of them)")
    }
}
