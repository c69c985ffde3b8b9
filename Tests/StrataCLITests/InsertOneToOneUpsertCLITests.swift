import Foundation
import StrataTestSupport
import Testing

/// A `from:` insert with `onConflict: update` that sets a one-to-one stored on its rows, over more existing rows
/// than an engine binds parameters in one statement: every row conflicts and is updated, and the unlinking after
/// it names them all (`BatchInsertPlanner.unlinks`). It bound one parameter per updated row, twice per statement:
/// more than Debian's SQLite allows (250,000) at 130,000 rows, more than PostgreSQL's protocol (65,535) at 70,000.
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
}
