import Foundation
import GRDB
import StrataTestSupport
import Testing

/// The same models and hooks run by the `strata` binary on an SQLite store and on a PostgreSQL store (issue 18):
/// a hook after version 2 seeds the same objects on both through `batchInsert`, a hook after version 3 does the
/// work PostgreSQL once refused (conversion functions, long `IN` lists, ordered links listing their IDs,
/// `onConflict: update`, a one-to-one stored on the other side, a PostgreSQL-only `sql:` step). Both stores
/// must end with the same rows and object IDs, and the same step counts.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresHookParityCLITests {
    static let entities = """
        entities:
          Sample:
            attributes:
              s:   { type: string }
              i:   { type: int64 }
              d:   { type: double }
              dec: { type: decimal }
              dt:  { type: date }
              b:   { type: bool }
              out: { type: string }
              hit: { type: bool, default: false, optional: false }
          Post:
            attributes:
              title:  { type: string }
              handle: { type: string }
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
          Item:
            attributes:
              code: { type: string }
              name: { type: string }
            uniqueness: [[code]]
        """

    static let seed = """
        id: seed
        after: 2
        steps:
          - batchInsert:
              entity: Sample
              objects:
                - { s: "42", i: 7, d: 2.5, dec: "12.50", dt: "2024-05-01T10:20:30Z", b: true }
                - { s: "-3.75", i: -1, d: -0.1, dec: "3", dt: "2024-02-29", b: false }
                - { s: "2024-02-30", i: 40000, d: 1e20, dec: "0.001", dt: "1969-12-31T23:59:59.5Z" }
                - { s: "YES", i: 0, d: 3.0, dec: "-7.25" }
                - { s: "1e3", i: 1, d: 123456.789, dec: "100" }
                - { s: "2024-05-01T12:00:00+02:00", i: 35 }
                - { s: " 5", i: 99 }
          - batchInsert: { entity: User, objects: [ { handle: ana }, { handle: bo } ] }
          - batchInsert:
              entity: Post
              objects: [ { title: p1, handle: ana }, { title: p2, handle: bo }, { title: p3, handle: ana }, { title: p4, handle: nobody } ]
          - setRelationship: { entity: Post, relationship: author, match: { handle: handle }, predicate: "title == 'p1'" }
          - batchInsert: { entity: Profile, objects: [ { bio: one }, { bio: two } ] }
          - batchInsert: { entity: Item, objects: [ { code: x, name: a }, { code: y, name: b } ] }
        """

    static let conversions = [
        "string(int16(s))", "string(double(s))", "string(date(s))", "string(decimal(s))", "string(bool(s))", "string(int32(s))",
        "string(i)", "string(int16(i))", "string(bool(i))", "string(double(i))", "string(date(i))", "string(decimal(i))",
        "string(d)", "string(int64(d))", "string(decimal(d))", "string(int16(d))",
        "string(dec)", "string(int32(dec))", "string(double(dec))", "string(bool(dec))",
        "string(dt)", "string(int64(dt))", "string(decimal(dt))", "string(b)", "string(int16(b))", "string(decimal(b))",
    ]

    static var work: String {
        let out = conversions.map { "coalesce(\($0), '-')" }.joined(separator: " + ' ' + ")
        let many = (0..<40).map { String($0 * 3) }.joined(separator: ", ")
        let names = (0..<34).map { "'w\($0)'" }.joined(separator: ", ")
        return """
            id: work
            after: 3
            steps:
              - batchUpdate: { entity: Sample, propertiesToUpdate: { out: { expression: "\(out)" } } }
              - batchUpdate: { entity: Sample, predicate: "i IN {\(many)} OR s IN {\(names), 'YES'}", propertiesToUpdate: { hit: true } }
              - setRelationship: { entity: Post, relationship: author, match: { handle: handle }, resultType: objectIDs }
              - batchInsert:
                  entity: Item
                  objects: [ { code: x, name: a2 }, { code: z, name: z } ]
                  onConflict: update
              - batchInsert:
                  entity: Item
                  from: { entity: Post, predicate: "handle != 'bo'" }
                  values: { code: "handle", name: "title" }
                  onConflict: update
              - batchInsert: { entity: User, objects: [ { handle: cy, profile: 2 } ] }
              - batchInsert:
                  entity: User
                  from: { entity: Profile, predicate: "bio == 'one'" }
                  values: { handle: "bio + '!'", profile: "$source" }
              - sql: { postgresql: "UPDATE {{Item}} SET {{Item.name}} = {{Item.name}} || '.' WHERE {{Item.code}} = 'z'" }
            """
    }

    static let rows = [
        #"SELECT "_pk" || ' ' || coalesce("out", '-') || ' ' || CASE WHEN "hit" THEN 'hit' ELSE '-' END FROM "Sample" ORDER BY "_pk""#,
        #"SELECT "_pk" || ' ' || "title" || ' ' || coalesce("author", 0) || ' ' || coalesce("_order_User_posts", 0) FROM "Post" ORDER BY "_pk""#,
        #"SELECT "_pk" || ' ' || "code" || ' ' || "name" FROM "Item" ORDER BY "_pk""#,
        #"SELECT "_pk" || ' ' || "handle" FROM "User" ORDER BY "_pk""#,
        #"SELECT "_pk" || ' ' || coalesce("user", 0) FROM "Profile" ORDER BY "_pk""#,
    ]

    /// `id: count, count, …` of each hook's steps in a `--format json` run report.
    static func stepCounts(_ stdout: String) throws -> [String] {
        let json = try CLI.json(stdout)
        let hooks = (json["hooks"] ?? (json["migration"] as? [String: Any])?["hooks"]) as? [[String: Any]] ?? []
        return hooks.map { hook in
            "\(hook["id"] ?? ""): " + ((hook["steps"] as? [[String: Any]]) ?? []).map { "\($0["count"] ?? "")" }.joined(separator: ", ")
        }
    }

    /// A project with models 1–3 and the seed and work hooks, and an SQLite store at version 1 (`app.sqlite`).
    static func project(work: String) throws -> String {
        let v3 = "version: 3\n" + entities.replacingOccurrences(of: "bio: { type: string }", with: "bio: { type: string }\n      note: { type: string }")
        let (dir, _) = try MappingProject.project(v1: "version: 1\n" + entities, v2: "version: 2\n" + entities,
                                                  files: ["seed.yaml": seed, "work.yaml": work], name: "pgparity")
        try v3.write(toFile: dir + "/models/3.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    @Test func sqliteAndPostgresGiveTheSameRowsIDsAndCounts() throws {
        let dir = try Self.project(work: Self.work.replacingOccurrences(
            of: "{ postgresql: \"UPDATE", with: "{ sqlite: \"UPDATE {{Item}} SET {{Item.name}} = {{Item.name}} || '.' WHERE {{Item.code}} = 'z'\", postgresql: \"UPDATE"))
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        let postgres = try CLI.run(["migrate", "--store", url, "--format", "json"], in: dir)
        #expect(postgres.status == 0, "\(postgres.stderr)")
        #expect(try Self.stepCounts(sqlite.stdout) == ["seed: 7, 2, 4, 1, 2, 2", "work: 7, 2, 2, 1, 2, 1, 1, 1"])
        #expect(try Self.stepCounts(postgres.stdout) == Self.stepCounts(sqlite.stdout))

        func pg(_ sql: String) throws -> [String] {
            try PostgresTestServer.psql("SET search_path TO \"\(schema)\";\n" + sql).split(separator: "\n").map(String.init).filter { $0 != "SET" }
        }
        for query in Self.rows {
            let onSQLite = try E2E.rows(dir + "/app.sqlite", query)
            let onPostgres = try pg(query)
            #expect(onPostgres == onSQLite, "\(query)")
        }
        #expect(try E2E.rows(dir + "/app.sqlite", Self.rows[1]) == ["1 p1 1 1", "2 p2 2 1", "3 p3 1 2", "4 p4 0 0"])
        let items = try E2E.rows(dir + "/app.sqlite", Self.rows[2])
        #expect(items == ["1 x a2", "2 y b", "4 z z.", "5 ana p3", "7 nobody p4"])
        #expect(try E2E.rows(dir + "/app.sqlite", Self.rows[3]) == ["1 ana", "2 bo", "3 cy", "4 one!"])
        #expect(try E2E.rows(dir + "/app.sqlite", Self.rows[4]) == ["1 4", "2 3"])
        let samples = try E2E.rows(dir + "/app.sqlite", Self.rows[0])
        #expect(samples == [
            "1 42 42.0 1970-01-01T00:00:42Z 42 - 42 7 7 - 7.0 1970-01-01T00:00:07Z 7 2.5 2 2.5 2 12.5 12 12.5 - 2024-05-01T10:20:30Z 1714558830 1714558830 true 1 1 -",
            "2 - -3.75 1969-12-31T23:59:56.250Z -3.75 - - -1 -1 - -1.0 1969-12-31T23:59:59Z -1 -0.1 0 -0.1 0 3 3 3.0 - 2024-02-29T00:00:00Z 1709164800 1709164800 false 0 0 -",
            "3 - - - - - - 40000 - - 40000.0 1970-01-01T11:06:40Z 40000 100000000000000000000.0 - 100000000000000000000 - 0.001 0 0.001 - 1969-12-31T23:59:59.500Z 0 -0.5 - - - -",
            "4 - - - - true - 0 0 false 0.0 1970-01-01T00:00:00Z 0 3.0 3 3 3 -7.25 -7 -7.25 - - - - - - - hit",
            "5 - 1000.0 1970-01-01T00:16:40Z 1000 - - 1 1 true 1.0 1970-01-01T00:00:01Z 1 123456.789 123456 123456.789 - 100 100 100.0 - - - - - - - -",
            "6 - - 2024-05-01T10:00:00Z - - - 35 35 - 35.0 1970-01-01T00:00:35Z 35 - - - - - - - - - - - - - - -",
            "7 - - - - - - 99 99 - 99.0 1970-01-01T00:01:39Z 99 - - - - - - - - - - - - - - hit",
        ])
    }

    @Test func aPostgreSQLOnlySQLStepRunsThereAndStopsAnSQLiteStoreBeforeAnyStep() throws {
        let dir = try Self.project(work: Self.work)
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(sqlite.status == 2)
        #expect(sqlite.stderr.contains("work.yaml:"), "\(sqlite.stderr)")
        #expect(sqlite.stderr.contains("error: hook 'work' step 8: this sql: step has no SQLite text"), "\(sqlite.stderr)")
        #expect(try MappingProject.version(dir + "/app.sqlite") == "1")
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect((lint.stdout + lint.stderr).contains("warning: hook 'work' step 8: this sql: step has no SQLite text"))

        let url = PostgresTestServer.url()
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        let postgres = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(postgres.status == 0, "\(postgres.stderr)")
        let schema = String(url.split(separator: "=").last!)
        #expect(try PostgresTestServer.psql(#"SELECT string_agg("name", ',' ORDER BY "_pk") FROM "\#(schema)"."Item""#) == "a2,b,z.,p3,p4")
    }
}
