import Foundation
import StrataTestSupport
import Testing

/// A `from:` insert with `onConflict: update` that sets a one-to-one stored on its rows, over more existing rows
/// than an engine binds parameters in one statement: every row conflicts and is updated, and the unlinking after
/// it names them all (`BatchInsertPlanner.unlinks`). It bound one parameter per updated row, twice per statement:
/// more than Debian's SQLite allows (250,000) at 130,000 rows, more than PostgreSQL's protocol (65,535) at 70,000.
/// Literal objects with `onConflict: update`: only the rows that set the one-to-one keep the partners they hold.
@Suite struct InsertOneToOneUpsertCLITests {
    /// ``InsertOneToOneCLITests/model(_:uniqueUID:)`` with a profile's `uid` unique.
    static func model(_ version: Int) -> String { InsertOneToOneCLITests.model(version, uniqueUID: true) }

    static let upsertFromUsers = InsertOneToOneCLITests.fromUsers + "\n      onConflict: update\n"

    /// Users 1…n and profiles of uid 1…n without a user (`_pk` = number), and profile n + 1 (uid 0) holding user 1.
    static func rows(_ n: Int) -> String {
        """
        WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < \(n)) INSERT INTO %User ("userID") SELECT i FROM s;
        WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < \(n)) INSERT INTO %Profile ("uid") SELECT i FROM s;
        INSERT INTO %Profile ("uid", "user") VALUES (0, 1);
        """
    }

    /// Every profile of uid 1…n now holds its user; profile 0 lost user 1 to profile 1.
    static let check = #"""
        SELECT count(*), sum(CASE WHEN p."uid" = 0 AND p."user" IS NULL THEN 1 ELSE 0 END), \#
        sum(CASE WHEN u."userID" = p."uid" THEN 1 ELSE 0 END) FROM %Profile AS p LEFT JOIN %User AS u ON u."_pk" = p."user"
        """#

    @Test func anUpsertOver130000RowsUnlinksTheEarlierPartner() throws {
        let n = 130_000
        let dir = try InsertOneToOneCLITests.project(Self.upsertFromUsers, store: "app.sqlite", model: Self.model)
        let path = dir + "/app.sqlite"
        try E2E.execute(path, InsertOneToOneCLITests.sqliteRows(Self.rows(n)))
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Profile: 130,001 updated"), "\(run.stdout)")
        #expect(try E2E.rows(path, InsertOneToOneCLITests.sqliteRows(Self.check)) == ["\(n + 1)|1|\(n)"])
    }

    /// Users 1…4, profiles of uid 1…4 holding them.
    static let fourPairs = """
        INSERT INTO %User ("userID") VALUES (1), (2), (3), (4);
        INSERT INTO %Profile ("uid", "user") VALUES (1, 1), (2, 2), (3, 3), (4, 4);
        """

    /// Literal objects with `onConflict: update`.
    static func upsertObjects(_ objects: [String]) -> String {
        "id: seed\nafter: 2\nsteps:\n  - batchInsert:\n      entity: Profile\n      onConflict: update\n      objects:\n"
            + objects.map { "        - \($0)\n" }.joined()
    }

    /// Only the objects that set `user` keep the user they hold: an existing row the insert updates without setting
    /// it loses its user to the object that takes it (it kept it, and the audit stopped the hook: 1590), and keeps
    /// one no object took; a new row that does not set it has none.
    static let someSetTheOneToOne = upsertObjects(["{ uid: 1 }", "{ uid: 3, user: 1 }", "{ uid: 10, user: 2 }", "{ uid: 2 }",
                                                   "{ uid: 4 }", "{ uid: 11 }"])
    static let someSetTheOneToOneRows = ["1|NULL", "2|NULL", "3|1", "4|4", "10|2", "11|NULL"]

    /// An object that sets `user` to nil sets it: its row holds none after.
    static let oneSetsItToNil = upsertObjects(["{ uid: 1, user: ~ }", "{ uid: 2 }", "{ uid: 10, user: 2 }", "{ uid: 3 }"])
    static let oneSetsItToNilRows = ["1|NULL", "2|NULL", "3|3", "4|4", "10|2"]

    @Test(arguments: [(someSetTheOneToOne, someSetTheOneToOneRows, "Profile: 2 inserted, 6 updated"),
                      (oneSetsItToNil, oneSetsItToNilRows, "Profile: 1 inserted, 4 updated")])
    func onlyTheObjectsThatSetTheOneToOneKeepTheirPartners(_ hook: String, _ expected: [String], _ counts: String) throws {
        let dir = try InsertOneToOneCLITests.project(hook, store: "app.sqlite", model: Self.model)
        let path = dir + "/app.sqlite"
        try E2E.execute(path, InsertOneToOneCLITests.sqliteRows(Self.fourPairs))
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(counts), "\(run.stdout)")
        #expect(try E2E.rows(path, #"SELECT "uid", "user" FROM "Profile" ORDER BY 1"#) == expected)
        #expect(try E2E.rows(path, #"SELECT max("toVersion") FROM "strata_history""#) == ["2"])
    }
}

@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresInsertOneToOneUpsertCLITests {
    @Test func anUpsertOver70000RowsUnlinksTheEarlierPartnerAsOnSQLite() throws {
        let n = 70_000
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        let dir = try InsertOneToOneCLITests.project(InsertOneToOneUpsertCLITests.upsertFromUsers, store: url,
                                                     model: InsertOneToOneUpsertCLITests.model)
        let rows = "INSERT INTO %User (\"userID\") SELECT i FROM generate_series(1, \(n)) AS i;"
            + "INSERT INTO %Profile (\"uid\") SELECT i FROM generate_series(1, \(n)) AS i;"
            + "INSERT INTO %Profile (\"uid\", \"user\") VALUES (0, 1);"
        _ = try PostgresTestServer.psql(PostgresInsertOneToOneCLITests.postgresRows(rows, schema: schema))
        let run = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Profile: 70,001 updated"), "\(run.stdout)")
        #expect(try PostgresTestServer.psql(PostgresInsertOneToOneCLITests.postgresRows(InsertOneToOneUpsertCLITests.check, schema: schema))
                == "\(n + 1)|1|\(n)")
    }

    @Test(arguments: [(InsertOneToOneUpsertCLITests.someSetTheOneToOne, InsertOneToOneUpsertCLITests.someSetTheOneToOneRows,
                       "Profile: 2 inserted, 6 updated"),
                      (InsertOneToOneUpsertCLITests.oneSetsItToNil, InsertOneToOneUpsertCLITests.oneSetsItToNilRows,
                       "Profile: 1 inserted, 4 updated")])
    func onlyTheObjectsThatSetTheOneToOneKeepTheirPartnersAsOnSQLite(_ hook: String, _ expected: [String], _ counts: String) throws {
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        let dir = try InsertOneToOneCLITests.project(hook, store: url, model: InsertOneToOneUpsertCLITests.model)
        _ = try PostgresTestServer.psql(PostgresInsertOneToOneCLITests.postgresRows(InsertOneToOneUpsertCLITests.fourPairs, schema: schema))
        let run = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(counts), "\(run.stdout)")
        #expect(try PostgresTestServer.psql(#"SELECT "uid", coalesce("user"::text, 'NULL') FROM "\#(schema)"."Profile" ORDER BY 1"#)
                == expected.joined(separator: "\n"))
        #expect(try PostgresTestServer.psql(#"SELECT max("toVersion") FROM "\#(schema)"."strata_history""#) == "2")
    }
}
