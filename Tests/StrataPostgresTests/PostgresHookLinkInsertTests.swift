import Foundation
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// The hook steps PostgreSQL once refused (issue 18), against the throwaway server with exact rows and object
/// IDs: `setRelationship` on an ordered relationship and with `objectIDs`, `batchInsert` with
/// `onConflict: update`, and a `batchInsert` setting a one-to-one stored on the other side.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresHookLinkInsertTests {
    static func psql(_ sql: String) throws -> [String] { try PostgresStoreTests.psql(sql) }

    /// Users with an ordered to-many of posts, and a one-to-one profile stored on the profile's side.
    static let users: [String: String] = {
        let v1 = """
            entities:
              Post:
                attributes:
                  title:        { type: string }
                  authorHandle: { type: string }
                relationships:
                  author: { destination: User, inverse: posts }
              User:
                attributes:
                  handle: { type: string }
                relationships:
                  posts:   { destination: Post, toMany: true, ordered: true, inverse: author }
                  profile: { destination: Profile, inverse: user }
              Profile:
                attributes:
                  bio: { type: string }
                relationships:
                  user: { destination: User, inverse: profile }
            """
        return ["1.yaml": "version: 1\n" + v1, "2.yaml": "version: 2\n" + v1.replacingOccurrences(of: "bio: { type: string }", with: "bio: { type: string }\n      note: { type: string }")]
    }()

    /// A v1 store with users ana (1) and bo (2); posts 1 (ana, linked to ana at place 1), 2 (bo), 3 (ana), 4 (ana),
    /// 5 (nobody); profiles 1 and 2 without user. Runs `hook` (after 2) and returns the report and the store's schema.
    static func run(_ hook: String) async throws -> (report: PostgresMigration.Report, schema: String, uuid: String) {
        let history = try ModelHistory.load(yaml: Self.users)
        let hooks = try HookSet.load(yaml: ["links.yaml": "id: links\nafter: 2\nsteps:\n" + hook], models: history)
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1, hooks: hooks)
        _ = try Self.psql(#"""
            SET search_path TO "\#(schema)";
            INSERT INTO "User" ("handle") VALUES ('ana'), ('bo');
            INSERT INTO "Post" ("title", "authorHandle", "author", "_order_User_posts") VALUES
              ('p1', 'ana', 1, 1), ('p2', 'bo', NULL, NULL), ('p3', 'ana', NULL, NULL), ('p4', 'ana', NULL, NULL), ('p5', 'nobody', NULL, NULL);
            INSERT INTO "Profile" ("bio") VALUES ('one'), ('two');
            """#)
        let report = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: PostgresHookTests.now))
        let uuid = try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")[0]
        return (report, schema, uuid)
    }

    static func posts(_ schema: String) throws -> [String] {
        try psql(#"""
            SELECT "_pk" || ' ' || "title" || ' ' || coalesce("author"::text, '-') || ' ' || coalesce("_order_User_posts"::text, '-')
            FROM "\#(schema)"."Post" ORDER BY "_pk"
            """#)
    }

    @Test(arguments: [
        "  - setRelationship: { entity: Post, relationship: author, match: { authorHandle: handle }, resultType: objectIDs }\n",
        "  - setRelationship: { entity: User, relationship: posts, match: { handle: authorHandle }, resultType: objectIDs }\n",
    ])
    func orderedLinksAreAppendedInKeyOrderAndListed(_ step: String) async throws {
        let (report, schema, uuid) = try await Self.run(step)
        let result = try #require(report.hooks.first?.steps.first)
        #expect(result.count == 3)
        #expect(result.objectIDs?.map(\.uri) == [2, 3, 4].map { "x-strata://\(uuid)/Post/p\($0)" })
        #expect(result.updatedCounts == ["Post": 3])
        // p1 stays first of ana's posts; p3 and p4 follow it; p2 is bo's first.
        #expect(try Self.posts(schema) == ["1 p1 1 1", "2 p2 2 1", "3 p3 1 2", "4 p4 1 3", "5 p5 - -"])
    }

    @Test func unorderedLinksListTheirObjectIDs() async throws {
        let (report, schema, uuid) = try await Self.run("""
              - batchInsert: { entity: Profile, objects: [ { bio: ana } ] }
              - setRelationship: { entity: Profile, relationship: user, match: { bio: handle }, resultType: objectIDs }
            """ + "\n")
        let link = try #require(report.hooks.first?.steps.last)
        #expect(link.count == 1)
        #expect(link.objectIDs?.map(\.uri) == ["x-strata://\(uuid)/Profile/p3"])
        #expect(try Self.psql(#"SELECT "_pk" || ' ' || "bio" || ' ' || coalesce("user"::text, '-') FROM "\#(schema)"."Profile" ORDER BY "_pk""#)
                    == ["1 one -", "2 two -", "3 ana 1"])
    }

    @Test func aBatchInsertSetsAOneToOneStoredOnTheOtherSide() async throws {
        // User.profile is stored on Profile ("user"): each new user is linked from the profile it names.
        let (report, schema, _) = try await Self.run("""
              - batchInsert: { entity: User, objects: [ { handle: cy, profile: 2 }, { handle: dee } ] }
              - batchInsert:
                  entity: User
                  from: { entity: Profile, predicate: "bio == 'one'" }
                  values: { handle: "$source.bio", profile: "$source" }
            """ + "\n")
        #expect(report.hooks.first?.steps.map(\.count) == [2, 1])
        #expect(try Self.psql(#"SELECT "_pk" || ' ' || "handle" FROM "\#(schema)"."User" ORDER BY "_pk""#) == ["1 ana", "2 bo", "3 cy", "4 dee", "5 one"])
        #expect(try Self.psql(#"SELECT "_pk" || ' ' || coalesce("user"::text, '-') FROM "\#(schema)"."Profile" ORDER BY "_pk""#) == ["1 5", "2 3"])
    }
}

extension PostgresHookLinkInsertTests {
    /// ``PostgresHookTests/twoVersions`` (Item, unique code) at version 1 with items 1 (a, x) and 2 (b, y), then `hook`.
    static func upsert(_ hook: String) async throws -> (report: PostgresMigration.Report, schema: String, uuid: String) {
        let (history, hooks, url, schema) = try await PostgresHookTests.store(hooks: ["up.yaml": "id: up\nafter: 2\nsteps:\n" + hook])
        _ = try Self.psql(#"INSERT INTO "\#(schema)"."Item" ("name", "price", "code") VALUES ('a', 12.5, 'x'), ('b', 3, 'y')"#)
        let report = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: PostgresHookTests.now))
        let uuid = try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")[0]
        return (report, schema, uuid)
    }

    static func items(_ schema: String) throws -> [String] {
        try psql(#"""
            SELECT "_pk" || ' ' || "name" || ' ' || coalesce("price"::text, '-') || ' ' || "code" || ' ' || "sale"
            FROM "\#(schema)"."Item" ORDER BY "_pk"
            """#)
    }

    @Test func onConflictUpdateSpendsAnObjectIDPerRowAsSQLiteDoes() async throws {
        let (report, schema, uuid) = try await Self.upsert("""
              - batchInsert:
                  entity: Item
                  objects: [ { code: x, name: a2 }, { code: w, name: w }, { code: w, name: w2, price: 1 } ]
                  onConflict: update
                  resultType: objectIDs
            """ + "\n")
        let step = try #require(report.hooks.first?.steps.first)
        #expect(step.count == 1)
        #expect(step.objectIDs?.map(\.uri) == ["x-strata://\(uuid)/Item/p4"])
        #expect(step.updatedCounts == ["Item": 1])
        // As on SQLite (AUTOINCREMENT), a row that updates spends a key: x takes 3, w gets 4, w again takes 5.
        #expect(try Self.items(schema) == ["1 a2 12.5 x false", "2 b 3 y false", "4 w2 1 w false"])
    }

    @Test func onConflictUpdateFromSourceRowsKeepsTheLastRowOfEachKey() async throws {
        let (report, schema, _) = try await Self.upsert("""
              - batchInsert:
                  entity: Item
                  from: { entity: Item }
                  values: { code: "'k'", name: "name + '!'" }
                  onConflict: update
              - batchInsert:
                  entity: Item
                  from: { entity: Item, predicate: "code != 'k'" }
                  values: { code: "code", name: "'again'" }
                  onConflict: update
              - batchInsert: { entity: Item, objects: [ { code: z, name: z } ] }
            """ + "\n")
        #expect(report.hooks.first?.steps.map(\.count) == [1, 0, 1])
        #expect(report.hooks.first?.steps[1].updatedCounts == ["Item": 2])
        // Keys: 3 (k, inserted), 4 (k again), 5 and 6 (x and y, updated), 7 (z).
        #expect(try Self.items(schema) == ["1 again 12.5 x false", "2 again 3 y false", "3 b! - k false", "7 z - z false"])
    }

    @Test func onConflictUpdateFromSourceRowsIntoATableWithSeveralUniquenessConstraintsRunsRowByRow() async throws {
        let history = try ModelHistory.load(yaml: [
            "1.yaml": "version: 1\nentities:\n  T:\n    attributes:\n      a: { type: string }\n      b: { type: string }\n    uniqueness: [[a], [b]]\n",
            "2.yaml": "version: 2\nentities:\n  T:\n    attributes:\n      a: { type: string }\n      b: { type: string }\n      c: { type: string }\n    uniqueness: [[a], [b]]\n",
        ])
        let hooks = try HookSet.load(yaml: ["up.yaml": """
            id: up
            after: 2
            steps:
              - batchInsert: { entity: T, from: { entity: T }, values: { a: "a", c: "'y'" }, onConflict: update }
              - batchInsert: { entity: T, objects: [ { a: n, b: n } ] }
            """ + "\n"], models: history)
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1, hooks: hooks)
        _ = try Self.psql(#"INSERT INTO "\#(schema)"."T" ("a", "b") VALUES ('a1', 'b1'), ('a2', NULL)"#)
        let report = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init())
        // The source is the table itself, read before any row is written (as SQLite reads it): each row updates itself
        // through its a, spending a key (3 and 4); the literal row then takes 5.
        #expect(report.hooks.first?.steps.map(\.count) == [0, 1])
        #expect(report.hooks.first?.steps.first?.updatedCounts == ["T": 2])
        #expect(try Self.psql(#"SELECT "_pk" || ' ' || "a" || ' ' || coalesce("b", '-') || ' ' || coalesce("c", '-') FROM "\#(schema)"."T" ORDER BY "_pk""#)
                    == ["1 a1 b1 y", "2 a2 - y", "5 n n -"])
    }
}
