import Foundation
import StrataTestSupport
import Testing

/// A `batchInsert` that sets a one-to-one stored on the new rows (Docs/hooks.md): the object a new row links to
/// leaves its earlier partner, as with `setRelationship`, and the audit finds a key two rows hold (1590), however
/// the rows came to share it.
@Suite struct InsertOneToOneCLITests {
    /// `uniqueUID`: a profile's `uid` is unique (what an `onConflict: update` matches on).
    static func model(_ version: Int, uniqueUID: Bool = false) -> String {
        """
        version: \(version)
        entities:
          Profile:
            attributes: { uid: { type: int64 } }
            relationships: { user: { destination: User, inverse: profile } }\(uniqueUID ? "\n    uniqueness: [[uid]]" : "")
          User:
            attributes: { userID: { type: int64 } }
            relationships: { profile: { destination: Profile, inverse: user } }
        """
    }

    static let fromUsers = """
        id: seed
        after: 2
        steps:
          - batchInsert:
              entity: Profile
              from: { entity: User }
              values: { uid: "userID", user: "$source" }
        """

    /// A project at v1 whose store (`store`: a path or a PostgreSQL URL) is created; `hook` runs after v2.
    static func project(_ hook: String, store: String, model: (Int) -> String = { model($0) }) throws -> String {
        let dir = Temporary.directory("insert-one-to-one")
        try FileManager.default.createDirectory(atPath: dir + "/models", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        for v in [1, 2] { try model(v).write(toFile: dir + "/models/\(v).yaml", atomically: true, encoding: .utf8) }
        try hook.write(toFile: dir + "/migrations/seed.yaml", atomically: true, encoding: .utf8)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", store], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        return dir
    }

    /// Users 1 and 2, each with its profile (uid 1 and 2).
    static let rows = """
        INSERT INTO %User ("userID") VALUES (1), (2);
        INSERT INTO %Profile ("uid", "user") VALUES (1, 1), (2, 2);
        """

    static func sqliteRows(_ sql: String = rows) -> String {
        sql.replacingOccurrences(of: "%User", with: "\"User\"").replacingOccurrences(of: "%Profile", with: "\"Profile\"")
    }

    @Test func theEarlierProfileLosesItsUser() throws {
        let dir = try Self.project(Self.fromUsers, store: "app.sqlite")
        let path = dir + "/app.sqlite"
        try E2E.execute(path, Self.sqliteRows())
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("hook seed (after v2): batchInsert Profile: 2 objects; audit: 0 violations"), "\(run.stdout)")
        #expect(run.stdout.contains("Profile: 2 inserted, 2 updated"), "\(run.stdout)")
        #expect(try E2E.rows(path, #"SELECT "_pk", "uid", "user" FROM "Profile" ORDER BY 1"#) == ["1|1|NULL", "2|2|NULL", "3|1|1", "4|2|2"])
        let audit = try CLI.run(["audit", "--store", "app.sqlite"], in: dir)
        #expect(audit.status == 0, "\(audit.stdout)")
        #expect(audit.stdout.contains("5 rules checked, 0 violated, 0 violations"), "\(audit.stdout)")   // the one-to-one, int64 ranges
    }

    @Test func twoNewProfilesForOneUserAreExit3() throws {
        let hook = "id: seed\nafter: 2\nsteps:\n  - batchInsert: { entity: Profile, objects: [ { uid: 5, user: 1 }, { uid: 6, user: 1 } ] }\n"
        let dir = try Self.project(hook, store: "app.sqlite")
        let path = dir + "/app.sqlite"
        try E2E.execute(path, Self.sqliteRows())
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 3)
        #expect(run.stderr.contains("  - 1590 User.profile maxCount: 1"), "\(run.stderr)")
        #expect(run.stdout.contains("profile one-to-one (at most 1): 1 violation [1590 too many related objects]"), "\(run.stdout)")
        #expect(try E2E.rows(path, #"SELECT "_pk", "uid", "user" FROM "Profile" ORDER BY 1"#) == ["1|1|1", "2|2|2"])
        #expect(try E2E.rows(path, #"SELECT max("toVersion") FROM "strata_history""#) == ["1"])
    }

    @Test func theAuditFindsAKeyTwoRowsHold() throws {
        let dir = try Self.project(Self.fromUsers, store: "app.sqlite")
        let path = dir + "/app.sqlite"
        try E2E.execute(path, Self.sqliteRows(Self.rows + #"INSERT INTO "Profile" ("uid", "user") VALUES (3, 1);"#))
        let uuid = try E2E.rows(path, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.uuid'"#).first ?? ""
        let audit = try CLI.run(["audit", "--store", "app.sqlite"], in: dir)
        #expect(audit.status == 3)
        // The one-to-one, and the range of each of the two int64 attributes (max and min).
        #expect(audit.stdout.contains("Audit: 5 rules checked, 1 violated, 1 violation"), "\(audit.stdout)")
        #expect(audit.stdout.contains("""
              profile one-to-one (at most 1): 1 violation [1590 too many related objects]
                x-strata://\(uuid)/User/p1 = "2"
            """), "\(audit.stdout)")
        // The step that moves the key would stop on it too: the audit now says so before.
        let json = try CLI.run(["audit", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(json.status == 3)
        #expect(json.stdout.contains(#""code" : 1590"#), "\(json.stdout)")
    }
}

@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresInsertOneToOneCLITests {
    static func postgresRows(_ sql: String, schema: String) -> String {
        sql.replacingOccurrences(of: "%User", with: "\"\(schema)\".\"User\"").replacingOccurrences(of: "%Profile", with: "\"\(schema)\".\"Profile\"")
    }

    @Test func theEarlierProfileLosesItsUserAsOnSQLite() throws {
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        let dir = try InsertOneToOneCLITests.project(InsertOneToOneCLITests.fromUsers, store: url)
        _ = try PostgresTestServer.psql(Self.postgresRows(InsertOneToOneCLITests.rows, schema: schema))
        let run = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Profile: 2 inserted, 2 updated"), "\(run.stdout)")
        #expect(try PostgresTestServer.psql(#"SELECT "_pk", "uid", coalesce("user"::text, 'NULL') FROM "\#(schema)"."Profile" ORDER BY 1"#)
                == "1|1|NULL\n2|2|NULL\n3|1|1\n4|2|2")
        let audit = try CLI.run(["audit", "--store", url], in: dir)
        #expect(audit.status == 0, "\(audit.stdout)")
        #expect(audit.stdout.contains("5 rules checked, 0 violated, 0 violations"), "\(audit.stdout)")   // the one-to-one, int64 ranges
    }

    @Test func theAuditFindsAKeyTwoRowsHold() throws {
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        let dir = try InsertOneToOneCLITests.project(InsertOneToOneCLITests.fromUsers, store: url)
        _ = try PostgresTestServer.psql(Self.postgresRows(InsertOneToOneCLITests.rows + #"INSERT INTO %Profile ("uid", "user") VALUES (3, 1);"#, schema: schema))
        let uuid = try PostgresTestServer.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")
        let audit = try CLI.run(["audit", "--store", url], in: dir)
        #expect(audit.status == 3)
        #expect(audit.stdout.contains("""
              profile one-to-one (at most 1): 1 violation [1590 too many related objects]
                x-strata://\(uuid)/User/p1 = "2"
            """), "\(audit.stdout)")
    }
}
