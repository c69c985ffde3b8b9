import Foundation
import GRDB
import Testing
import StrataTestSupport

/// Issue 12 items 13 and 26 on the real binary: one-to-one indexes, index names, re-targeted relationships.
@Suite struct ModelHardeningCLITests {
    /// A directory with `models/` holding the given files (version → YAML).
    static func project(_ models: [Int: String]) throws -> String {
        let dir = Temporary.directory("project")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        for (version, yaml) in models { try yaml.write(toFile: dir + "/models/\(version).yaml", atomically: true, encoding: .utf8) }
        return dir
    }

    static func indexes(_ path: String) throws -> [String] {
        try E2E.rows(path, "SELECT name || ' ' || tbl_name || ' ' || sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'strata%' ORDER BY name")
    }

    @Test func anIndexOnTheColumnlessSideOfAOneToOneIsLeftOut() throws {
        let dir = try Self.project([1: """
            version: 1
            entities:
              Post:
                attributes:
                  title: { type: string }
                relationships:
                  original: { destination: Post, inverse: revision }
                  revision: { destination: Post, inverse: original }
                indexes: [[revision], [title, revision]]
            """])
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0)
        #expect(lint.stdout.hasSuffix("0 error(s), 2 warning(s)\n"))
        #expect(lint.stderr.hasPrefix("models/1.yaml:9:15: warning: index part 'revision' of 'Post' is a one-to-one stored in the column of 'Post.original'"))
        let create = try CLI.run(["migrate", "--create", "--store", "s.sqlite"], in: dir)
        #expect(create.status == 0, "\(create.stderr)")
        #expect(try Self.indexes(dir + "/s.sqlite") == [
            #"strata_fk_Post_original Post CREATE INDEX "strata_fk_Post_original" ON "Post" ("original")"#,
            #"strata_idx_Post_title Post CREATE INDEX "strata_idx_Post_title" ON "Post" ("title")"#,
        ])
        #expect(try CLI.run(["status", "--store", "s.sqlite"], in: dir).status == 0)
    }

    @Test func uniquenessOnTheColumnlessSideIsExit2() throws {
        let dir = try Self.project([1: """
            version: 1
            entities:
              Post:
                attributes:
                  title: { type: string }
                relationships:
                  original: { destination: Post, inverse: revision }
                  revision: { destination: Post, inverse: original }
                uniqueness: [[title, revision]]
            """])
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.hasPrefix("models/1.yaml:9:18: error: uniqueness cannot use 'revision' of 'Post'"))
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite"], in: dir).status == 2)
        #expect(!FileManager.default.fileExists(atPath: dir + "/s.sqlite"))
    }

    @Test func indexNamesThatWouldCollideAllExist() throws {
        let dir = try Self.project([1: """
            version: 1
            entities:
              Recipe:
                attributes:
                  a_b: { type: string, indexed: true }
                  a: { type: string }
                  b: { type: string }
                  name: { type: string, indexed: true }
                uniqueness: [[a_b], [a, b]]
              Recipe_a:
                attributes:
                  b: { type: string, indexed: true }
            """])
        #expect(try CLI.run(["lint"], in: dir).status == 0)
        let create = try CLI.run(["migrate", "--create", "--store", "s.sqlite"], in: dir)
        #expect(create.status == 0, "\(create.stderr)")
        #expect(try Self.indexes(dir + "/s.sqlite") == [
            #"strata_idx_6_Recipe_3_a_b Recipe CREATE INDEX "strata_idx_6_Recipe_3_a_b" ON "Recipe" ("a_b")"#,
            #"strata_idx_8_Recipe_a_1_b Recipe_a CREATE INDEX "strata_idx_8_Recipe_a_1_b" ON "Recipe_a" ("b")"#,
            #"strata_idx_Recipe_name Recipe CREATE INDEX "strata_idx_Recipe_name" ON "Recipe" ("name")"#,
            #"strata_uniq_6_Recipe_1_a_1_b Recipe CREATE UNIQUE INDEX "strata_uniq_6_Recipe_1_a_1_b" ON "Recipe" ("a", "b")"#,
            #"strata_uniq_6_Recipe_3_a_b Recipe CREATE UNIQUE INDEX "strata_uniq_6_Recipe_3_a_b" ON "Recipe" ("a_b")"#,
        ])
        // The second uniqueness constraint is enforced: a duplicate (a, b) is refused.
        let queue = try DatabaseQueue(path: dir + "/s.sqlite")
        try queue.write { try $0.execute(sql: #"INSERT INTO "Recipe" ("a", "b", "a_b") VALUES ('x', 'y', 'one')"#) }
        #expect(throws: DatabaseError.self) {
            try queue.write { try $0.execute(sql: #"INSERT INTO "Recipe" ("a", "b", "a_b") VALUES ('x', 'y', 'two')"#) }
        }
        try queue.close()
        #expect(try CLI.run(["status", "--store", "s.sqlite"], in: dir).status == 0)
    }

    static let chefs = """
        version: 1
        entities:
          Recipe:
            attributes:
              name: { type: string }
            relationships:
              author: { destination: Chef, inverse: recipes }
          Chef:
            attributes:
              name: { type: string }
            relationships:
              recipes: { destination: Recipe, toMany: true, inverse: author }
        """

    static func cooks(optional: Bool) -> String {
        """
        version: 2
        entities:
          Recipe:
            attributes:
              name: { type: string }
            relationships:
              author: { destination: Cook, inverse: recipes\(optional ? "" : ", optional: false") }
          Cook:
            attributes:
              name: { type: string }
            relationships:
              recipes: { destination: Recipe, toMany: true, inverse: author }
        """
    }

    /// A v1 store with one chef and one recipe linked to it.
    static func chefStore(_ dir: String) throws {
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite", "--to", "1"], in: dir).status == 0)
        let queue = try DatabaseQueue(path: dir + "/s.sqlite")
        try queue.write { db in
            try db.execute(sql: #"INSERT INTO "Chef" ("name") VALUES ('Ann')"#)
            try db.execute(sql: #"INSERT INTO "Recipe" ("name", "author") VALUES ('Soup', 1)"#)
        }
        try queue.close()
    }

    @Test func aRelationshipWhoseDestinationIsReplacedIsRemovedAndAdded() throws {
        let dir = try Self.project([1: Self.chefs, 2: Self.cooks(optional: true)])
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0)
        #expect(lint.stderr.contains("models/1.yaml:7:7: warning: v1 → v2: Recipe.author is removed with its links: its destination Chef is removed"))
        let diff = try CLI.run(["diff", "1", "2"], in: dir)
        #expect(diff.status == 0)
        #expect(diff.stdout.contains("  ~ addRelationship Recipe.author: new to-one to Cook\n"))
        #expect(diff.stdout.contains("  ! removeRelationship Recipe.author: removed with its links: its destination Chef is removed (the new author starts empty) (data loss)\n"))
        try Self.chefStore(dir)
        let migrate = try CLI.run(["migrate", "--store", "s.sqlite", "--format", "json"], in: dir)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let steps = ((try CLI.json(migrate.stdout))["migration"] as? [String: Any])?["steps"] as? [[String: Any]] ?? []
        let destructive = (steps.first?["destructive"] as? [[String: Any]] ?? []).compactMap { $0["change"] as? String }
        #expect(destructive.contains { $0.hasPrefix("removeRelationship Recipe.author") })
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT "_pk", "name", quote("author") FROM "Recipe""#) == ["1|Soup|NULL"])
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT count(*) FROM sqlite_master WHERE name = 'Chef'"#) == ["0"])
        #expect(try CLI.run(["status", "--store", "s.sqlite"], in: dir).status == 0)
    }

    @Test func aReplacedNonOptionalToOneNeedsAnEmptyTable() throws {
        let dir = try Self.project([1: Self.chefs, 2: Self.cooks(optional: false)])
        try Self.chefStore(dir)
        let before = E2E.storeHashes(dir + "/s.sqlite")
        let migrate = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(migrate.status == 3)
        #expect(migrate.stderr.contains("v1 → v2: Recipe has no objects (new non-optional to-one Recipe.author links none of them): 1 object (code 1570)"))
        #expect(E2E.storeHashes(dir + "/s.sqlite") == before)
        let empty = try Self.project([1: Self.chefs, 2: Self.cooks(optional: false)])
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite", "--to", "1"], in: empty).status == 0)
        #expect(try CLI.run(["migrate", "--store", "s.sqlite"], in: empty).status == 0)
    }
}
