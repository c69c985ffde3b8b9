import Foundation
import StrataTestSupport
import Testing
@testable import StrataCore

/// Issue 12 item 13: indexes on a one-to-one's column-less side, and index names that never collide.
@Suite struct IndexLayoutTests {
    static func load(_ yaml: String) throws -> Model { try ModelLoader.load(yaml: yaml, file: "models/1.yaml") }

    static func indexes(_ model: Model) -> [String: [IndexSpec]] {
        Dictionary(uniqueKeysWithValues: LayoutBuilder.layout(for: model).tables.map { ($0.name, $0.indexes) })
    }

    static let posts = """
        version: 1
        entities:
          Post:
            attributes:
              title: { type: string }
            relationships:
              original: { destination: Post, inverse: revision }
              revision: { destination: Post, inverse: original }
            indexes: [[revision], [title, revision], [original]]
        """

    @Test func oneToOnePartWithoutColumnIsLeftOutWithAWarning() throws {
        var r = YAMLReader(file: "models/1.yaml", text: Self.posts)
        let model = try Self.load(Self.posts)
        let layout = try #require(ModelChecker.check(model, into: &r))
        let warnings = r.finished()
        #expect(warnings.map(\.headline) == [
            "models/1.yaml:9:15: warning: index part 'revision' of 'Post' is a one-to-one stored in the column of 'Post.original': it has no column here and is left out; this index is not created",
            "models/1.yaml:9:27: warning: index part 'revision' of 'Post' is a one-to-one stored in the column of 'Post.original': it has no column here and is left out",
        ])
        let post = try #require(layout.tables.first { $0.name == "Post" })
        #expect(post.indexes == [
            IndexSpec(name: "strata_idx_Post_title", columns: ["title"], isUnique: false),
            IndexSpec(name: "strata_idx_Post_original", columns: ["original"], isUnique: false),
        ])
        for index in post.indexes { #expect(!index.columns.isEmpty) }
        #expect(SchemaSQL.createStatements(for: layout).allSatisfy { !$0.sql.contains("()") })
    }

    @Test func uniquenessOnAColumnlessOneToOneSideIsAnError() throws {
        let yaml = Self.posts.replacingOccurrences(of: "indexes: [[revision], [title, revision], [original]]", with: "uniqueness: [[title, revision]]")
        let error = try #require(throws: DiagnosticList.self) { try Self.load(yaml) }
        do {
            #expect(error.errors.map(\.headline) == [
                "models/1.yaml:9:18: error: uniqueness cannot use 'revision' of 'Post': the one-to-one is stored on the other side, with no column here",
            ])
        }
    }

    @Test func namesThatWouldCollideAcrossTablesAreEncoded() throws {
        let model = try Self.load("""
            version: 1
            entities:
              Recipe:
                attributes:
                  a_b: { type: string, indexed: true }
                  c: { type: string, indexed: true }
              Recipe_a:
                attributes:
                  b: { type: string, indexed: true }
            """)
        let indexes = Self.indexes(model)
        #expect(indexes["Recipe"] == [
            IndexSpec(name: "strata_idx_6_Recipe_3_a_b", columns: ["a_b"], isUnique: false),
            IndexSpec(name: "strata_idx_Recipe_c", columns: ["c"], isUnique: false),
        ])
        #expect(indexes["Recipe_a"] == [IndexSpec(name: "strata_idx_8_Recipe_a_1_b", columns: ["b"], isUnique: false)])
    }

    @Test func uniquenessListsWithTheSamePlainNameBothExist() throws {
        let model = try Self.load("""
            version: 1
            entities:
              Recipe:
                attributes:
                  a_b: { type: string }
                  a: { type: string }
                  b: { type: string }
                uniqueness: [[a_b], [a, b], [a]]
            """)
        #expect(Self.indexes(model)["Recipe"] == [
            IndexSpec(name: "strata_uniq_6_Recipe_3_a_b", columns: ["a_b"], isUnique: true),
            IndexSpec(name: "strata_uniq_6_Recipe_1_a_1_b", columns: ["a", "b"], isUnique: true),
            IndexSpec(name: "strata_uniq_Recipe_a", columns: ["a"], isUnique: true),
        ])
    }

    @Test func namesEqualIgnoringCaseAreEncoded() throws {
        let model = try Self.load("""
            version: 1
            entities:
              Recipe:
                attributes:
                  a_B: { type: string, indexed: true }
              Recipe_A:
                attributes:
                  b: { type: string, indexed: true }
            """)
        let names = LayoutBuilder.layout(for: model).tables.flatMap(\.indexes).map(\.name)
        #expect(names == ["strata_idx_6_Recipe_3_a_B", "strata_idx_8_Recipe_A_1_b"])
    }

    @Test func repeatedDeclarationsAreOneIndex() throws {
        let model = try Self.load("""
            version: 1
            entities:
              Recipe:
                attributes:
                  name: { type: string, indexed: true }
                indexes: [[name]]
            """)
        #expect(Self.indexes(model)["Recipe"] == [IndexSpec(name: "strata_idx_Recipe_name", columns: ["name"], isUnique: false)])
    }

    /// Randomized: whatever the names, every declared index gets its own name.
    @Test func generatedNamesNeverCollide() throws {
        var generator = SeededGenerator(seed: 12)
        let pieces = ["a", "b", "a_b", "b_a", "A", "x_a"]
        for _ in 0..<200 {
            let attributes = Array(Set((0..<4).map { _ in pieces.randomElement(using: &generator)! }.map { $0.lowercased() }))
            guard attributes.count >= 2 else { continue }
            var yaml = "version: 1\nentities:\n  T:\n    attributes:\n"
            for a in attributes { yaml += "      \(a): { type: string, indexed: true }\n" }
            yaml += "    indexes: [[\(attributes[0]), \(attributes[1])], [\(attributes[1])]]\n"
            yaml += "    uniqueness: [[\(attributes[0])], [\(attributes[1]), \(attributes[0])]]\n"
            yaml += "  T_a:\n    attributes:\n      b: { type: string, indexed: true }\n      a_b: { type: string, indexed: true }\n"
            let model = try Self.load(yaml)
            let layout = LayoutBuilder.layout(for: model)
            let all = layout.tables.flatMap(\.indexes)
            #expect(Set(all.map { $0.name.lowercased() }).count == all.count, "\(yaml)")
            // Each uniqueness list has a UNIQUE index of its own; each index list and indexed attribute an index.
            let t = try #require(layout.tables.first { $0.name == "T" }).indexes
            #expect(t.filter(\.isUnique).count == 2)
            #expect(Set(t.filter { !$0.isUnique }.map(\.columns)).count == t.filter { !$0.isUnique }.count)
        }
    }
}
