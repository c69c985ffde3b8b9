import Foundation
import GRDB
import Testing
import StrataTestSupport

/// Expression functions and typing (issue 14 item 5) on the real binary: `--set-expr` and hook
/// `{ expression: }` values with exact data after, type errors exit 2 located (on the command line
/// and in a hook file, found by `lint` before any store is touched), the store's bytes unchanged.
@Suite(.serialized) struct ExpressionCLITests {
    static let model1 = """
    version: 1
    entities:
      Recipe:
        attributes:
          name:     { type: string }
          rating:   { type: int16 }
          price:    { type: decimal }
          lastUsed: { type: date }
          notes:    { type: string }
        relationships:
          author: { destination: Chef, inverse: recipes }
      Chef:
        attributes:
          name: { type: string }
        relationships:
          recipes: { destination: Recipe, toMany: true, inverse: author }
    """
    /// Version 2 adds `label` and `ref`, to be filled by a hook (the way the lint hint for a type change goes).
    static let model2 = model1.replacingOccurrences(of: "version: 1", with: "version: 2")
        .replacingOccurrences(of: "      notes:    { type: string }\n", with: "      notes:    { type: string }\n      label:    { type: string }\n      ref:      { type: uuid }\n")

    struct Project {
        var dir: String
        var store: String
        func run(_ args: [String]) throws -> CLI.Result { try CLI.run(args + ["--store", store], in: dir) }
        func rows(_ sql: String) throws -> [String] { try E2E.rows(store, sql) }
        func hook(_ name: String, _ yaml: String) throws {
            try yaml.write(toFile: dir + "/migrations/" + name, atomically: true, encoding: .utf8)
        }
    }

    static func project() throws -> Project {
        let dir = Temporary.directory("expressions")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try model1.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        try model2.write(toFile: dir + "/models/2.yaml", atomically: true, encoding: .utf8)
        let p = Project(dir: dir, store: dir + "/s.sqlite")
        let created = try p.run(["migrate", "--create", "--to", "1"])
        #expect(created.status == 0, "\(created.stderr)")
        try E2E.execute(p.store, """
            INSERT INTO Chef (_pk, name) VALUES (1, 'Ana');
            INSERT INTO Recipe (_pk, name, rating, price, lastUsed, author) VALUES
              (1, '  Soup ', 3, '12.5', 1715299200, 1), (2, 'Crème', 5, '7.25', NULL, NULL), (3, 'Straße', NULL, NULL, NULL, NULL);
            """)
        return p
    }

    /// The lint hint's way forward works: `string(rating)` and `name + " x"` into a string attribute.
    @Test func setExprFollowsTheTypeChangeHint() throws {
        let p = try Self.project()
        let cast = try p.run(["batch", "update", "--entity", "Recipe", "--set-expr", "notes=string(rating)"])
        #expect(cast.status == 0, "\(cast.stderr)")
        #expect(try p.rows("SELECT _pk, notes FROM Recipe ORDER BY _pk") == ["1|3", "2|5", "3|NULL"])
        let joined = try p.run(["batch", "update", "--entity", "Recipe", "--set-expr", #"notes=name + " x""#])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(try p.rows("SELECT _pk, notes FROM Recipe ORDER BY _pk") == ["1|  Soup  x", "2|Crème x", "3|Straße x"])
        let more = try p.run(["batch", "update", "--entity", "Recipe", "--where", "rating != nil",
                              "--set-expr", #"notes=TERNARY(rating > 3, "top", trim(name) + " (" + author.name + ")")"#,
                              "--set-expr", "price=round(price / 3, 1)", "--set-expr", "rating=max(rating, 4)"])
        #expect(more.status == 0, "\(more.stderr)")
        #expect(try p.rows("SELECT _pk, notes, price, rating FROM Recipe ORDER BY _pk")
                == ["1|Soup (Ana)|4.2|4", "2|top|2.4|5", "3|Straße x|NULL|NULL"])
    }

    /// Type errors: exit 2, located in the value, with the cast to write; nothing written.
    @Test(arguments: [
        ("notes=rating", "value:1:1: error: Recipe.notes is string, but rating is int16", "hint: wrap in string(): string(rating)"),
        (#"notes=name + 1"#, "value:1:8: error: + joins strings only, but 1 is an integer", #"hint: quote it to join it as text: "1""#),
        ("price=price * 1.5 + lastUsed", "value:1:15: error: decimal arithmetic takes decimals and integers, but lastUsed is date", ""),
        ("rating=substring(name, 1, 2)", "value:1:1: error: Recipe.rating is int16, but substring(name) is string", "hint: wrap in int16(): int16(substring(name))"),
        ("notes=replace(name, 1, 2)", "value:1:15: error: replace() needs strings, but 1 is int64", ""),
    ])
    func setExprTypeErrorsAreLocated(_ assignment: String, _ headline: String, _ hint: String) throws {
        let p = try Self.project()
        let before = E2E.storeHashes(p.store)
        let run = try p.run(["batch", "update", "--entity", "Recipe", "--set-expr", assignment])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(headline), "\(run.stderr)")
        if !hint.isEmpty { #expect(run.stderr.contains(hint), "\(run.stderr)") }
        #expect(E2E.storeHashes(p.store) == before)
    }

    /// A hook filling new attributes with expressions: `lint` checks the types (located in the file),
    /// `migrate` runs it with exact data; uuid() gives each row its own.
    @Test func hookValuesUseExpressionFunctions() throws {
        let p = try Self.project()
        try p.hook("fill.yaml", """
            id: fill-label
            after: 2
            steps:
              - batchUpdate:
                  entity: Recipe
                  propertiesToUpdate: { label: { expression: "rating" }, ref: { expression: "uuid()" } }
            """)
        let lint = try CLI.run(["lint"], in: p.dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.contains("migrations/fill.yaml:6:51: error: Recipe.label is string, but rating is int16"), "\(lint.stderr)")
        #expect(lint.stderr.contains("hint: wrap in string(): string(rating)"), "\(lint.stderr)")
        let before = E2E.storeHashes(p.store)
        let refused = try p.run(["migrate"])
        #expect(refused.status == 2)
        #expect(E2E.storeHashes(p.store) == before)

        try p.hook("fill.yaml", """
            id: fill-label
            after: 2
            steps:
              - batchUpdate:
                  entity: Recipe
                  propertiesToUpdate:
                    label: { expression: "coalesce(string(rating) + \\" stars\\", \\"unrated\\")" }
                    ref: { expression: "uuid()" }
            """)
        #expect(try CLI.run(["lint"], in: p.dir).status == 0)
        let migrated = try p.run(["migrate"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try p.rows("SELECT _pk, label FROM Recipe ORDER BY _pk") == ["1|3 stars", "2|5 stars", "3|unrated"])
        let refs = try p.rows("SELECT ref FROM Recipe")
        #expect(Set(refs).count == 3)
        #expect(refs.allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.lowercased() })
    }
}
