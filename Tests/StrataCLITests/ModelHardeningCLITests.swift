import Foundation
import GRDB
import Testing

/// Issue 12 items 13 and 26 on the real binary: one-to-one indexes, index names, re-targeted relationships.
@Suite struct ModelHardeningCLITests {
    /// A directory with `models/` holding the given files (version → YAML).
    static func project(_ models: [Int: String]) throws -> String {
        let dir = NSTemporaryDirectory() + "strata-cli-" + UUID().uuidString
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
}
