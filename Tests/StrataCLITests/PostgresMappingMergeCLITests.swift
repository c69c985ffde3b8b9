import Foundation
import GRDB
import StrataTestSupport
import Testing

/// Merges on PostgreSQL (issue 18), run by the `strata` binary beside SQLite with the same rows: `source: [Photo,
/// Video]` gives every merged object a new ID above the highest one the tables ever used, re-links every link to
/// them, and reports the same lines as SQLite.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMappingMergeCLITests {
    /// `MergeProject`'s rows, with the same keys; Video's key sequence at 9 (video 9 deleted), as `sqlite_sequence` says.
    static let rows = """
        INSERT INTO "Album" ("_pk", "title") OVERRIDING SYSTEM VALUE VALUES (1, 'a1'), (2, 'a2');
        INSERT INTO "Photo" ("_pk", "name", "width", "album") OVERRIDING SYSTEM VALUE VALUES (1, 'p1', 100, 1), (2, 'p2', 200, NULL), (3, 'p3', 300, 2);
        INSERT INTO "Video" ("_pk", "name", "seconds", "album") OVERRIDING SYSTEM VALUE VALUES (1, 'v1', '10', 1), (2, 'v2', '20', 2), (7, 'v7', '70', NULL);
        SELECT setval(pg_get_serial_sequence('"Video"', '_pk'), 9);
        INSERT INTO "Tag" ("_pk", "label", "photo") OVERRIDING SYSTEM VALUE VALUES (1, 't1', 1), (2, 't2', 3), (3, 't3', NULL);
        INSERT INTO "Comment" ("_pk", "text", "video") OVERRIDING SYSTEM VALUE VALUES (1, 'c1', 7), (2, 'c2', 1), (3, 'c3', NULL);
        """
    static let queries = [
        #"SELECT "_pk" || '|' || "name" || '|' || coalesce(CAST("width" AS text), 'NULL') || '|' || "duration" || '|' || coalesce(CAST("album" AS text), 'NULL') FROM "Media" ORDER BY "_pk""#,
        #"SELECT "_pk" || '|' || "label" || '|' || coalesce(CAST("media" AS text), 'NULL') FROM "Tag" ORDER BY "_pk""#,
        #"SELECT "_pk" || '|' || "text" || '|' || coalesce(CAST("media" AS text), 'NULL') FROM "Comment" ORDER BY "_pk""#,
        #"SELECT "_pk" || '|' || "title" FROM "Album" ORDER BY "_pk""#,
    ]

    @Test func aMergeGivesTheSameNewIDsLinksAndReportAsOnSQLite() throws {
        let (dir, store) = try MergeProject.make(["v2.yaml": MergeProject.mapping])
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        _ = try PostgresMappingSplitCLITests.pg(schema, Self.rows)
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite", "--changes-out", "sqlite.json"], in: dir)
        let dry = try CLI.run(["migrate", "--store", url, "--dry-run"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("  mapped Media from Photo, Video: 6 carried, 6 with new IDs\n"), "\(dry.stdout)")
        #expect(try PostgresMappingSplitCLITests.pg(schema, #"SELECT count(*) FROM "Video""#) == ["3"])
        let postgres = try CLI.run(["migrate", "--store", url, "--changes-out", "postgres.json"], in: dir)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(postgres.status == 0, "\(postgres.stderr)")
        for output in [sqlite.stdout, postgres.stdout] {
            #expect(output.contains("  mapEntity Media: merged from Photo, Video (migrations/v2.yaml), objects get new IDs\n"), "\(output)")
            #expect(output.contains("  mapped Media from Photo, Video: 6 carried, 6 with new IDs\n"), "\(output)")
        }
        let expected = [["10|p1|100|0|1", "11|p2|200|0|NULL", "12|p3|300|0|2", "13|v1|NULL|10|1", "14|v2|NULL|20|2", "15|v7|NULL|70|NULL"],
                        ["1|t1|10", "2|t2|12", "3|t3|NULL"], ["1|c1|15", "2|c2|13", "3|c3|NULL"], ["1|a1", "2|a2"]]
        for (query, rows) in zip(Self.queries, expected) {
            let onSQLite = try E2E.rows(store, query)
            #expect(onSQLite == rows, "\(query)")
            #expect(try PostgresMappingSplitCLITests.pg(schema, query) == onSQLite, "\(query)")
        }
        // The same translation, old → new, in the change sets (each store's UUID aside).
        func remapped(_ file: String) throws -> [String: [String: String]] {
            let json = try CLI.json(String(contentsOfFile: dir + "/" + file, encoding: .utf8))
            let ids = try #require(json["remapped"] as? [String: [String: String]])
            let path = { (uri: String) in uri.split(separator: "/").suffix(2).joined(separator: "/") }
            return ids.mapValues { Dictionary(uniqueKeysWithValues: $0.map { (path($0.key), path($0.value)) }) }
        }
        let translation = try remapped("sqlite.json")
        #expect(translation["Media"]?["Video/p7"] == "Media/p15")
        #expect(try remapped("postgres.json") == translation)
        let tables = try PostgresMappingSplitCLITests.pg(schema, """
            SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename IN ('Photo', 'Video', 'strata_rename_Media')
            """)
        #expect(tables.isEmpty, "\(tables)")
        // A new object takes the next ID on both.
        try E2E.execute(store, #"INSERT INTO "Media" ("name", "duration") VALUES ('new', 1)"#)
        #expect(try E2E.rows(store, #"SELECT max("_pk") FROM "Media""#) == ["16"])
        #expect(try PostgresMappingSplitCLITests.pg(schema, #"INSERT INTO "Media" ("name", "duration") VALUES ('new', 1) RETURNING "_pk""#).first == "16")
        // The foreign keys point at Media.
        let keys = try PostgresMappingSplitCLITests.pg(schema, """
            SELECT conrelid::regclass || '>' || confrelid::regclass FROM pg_constraint
            WHERE contype = 'f' AND connamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) ORDER BY 1
            """)
        #expect(keys == ["\"Comment\">\"Media\"", "\"Media\">\"Album\"", "\"Tag\">\"Media\""], "\(keys)")
    }

    /// A cast failing in one source: exit 3 naming the check (1570), as on SQLite, and nothing written.
    @Test func aFailedCastIsExit3AsOnSQLiteAndWritesNothing() throws {
        let (dir, _) = try MergeProject.make(["v2.yaml": MergeProject.mapping], badSeconds: "x")
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        _ = try PostgresMappingSplitCLITests.pg(schema, Self.rows.replacingOccurrences(of: "(2, 'v2', '20', 2)", with: "(2, 'v2', 'x', 2)"))
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite", "--audit", "none"], in: dir)
        let postgres = try CLI.run(["migrate", "--store", url, "--audit", "none"], in: dir)
        let message = "v1 → v2: Media.duration is not nil (non-optional; its mapped value failed to cast or was nil): 1 object (code 1570)"
        #expect(sqlite.status == 3, "\(sqlite.stderr)")
        #expect(sqlite.stderr.contains(message), "\(sqlite.stderr)")
        #expect(postgres.status == 3, "\(postgres.stderr)")
        #expect(postgres.stderr.contains("Media.duration is not nil"), "\(postgres.stderr)")
        #expect(try PostgresMappingSplitCLITests.pg(schema, #"SELECT count(*) FROM "Video""#) == ["3"])
    }

    /// An entity joining a hierarchy (two tables filling one): `Note`'s rows move into `Item`'s table, every row of
    /// it getting a new ID above both tables' keys, `Line.note` re-linked (the filtered note's link cleared), alike.
    @Test func anEntityJoiningAHierarchyGetsTheSameNewIDsAsOnSQLite() throws {
        let v1 = """
            version: 1
            entities:
              Item:
                attributes: { name: { type: string } }
              Order:
                parent: Item
                attributes: { total: { type: int64 } }
              Note:
                attributes: { name: { type: string }, text: { type: string } }
                relationships: { lines: { destination: Line, toMany: true, inverse: note } }
              Line:
                attributes: { qty: { type: int64 } }
                relationships: { note: { destination: Note, inverse: lines } }
            """
        let v2 = v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "  Note:\n    attributes: { name: { type: string }, text: { type: string } }",
                                  with: "  Note:\n    parent: Item\n    attributes: { text: { type: string } }")
        let mapping = """
            mapping: { from: 1, to: 2 }
            entities:
              Note: { source: Note, filter: "text != 'drop'" }
            """
        let (dir, store) = try MappingProject.project(v1: v1, v2: v2, files: ["v2.yaml": mapping], name: "pgjoin")
        let rows = """
            INSERT INTO "Item" ("_pk", "_entity", "name", "total") VALUES (1, 'Item', 'i1', NULL), (2, 'Order', 'o2', 20), (4, 'Order', 'o4', 40);
            INSERT INTO "Note" ("_pk", "name", "text") VALUES (1, 'n1', 'a'), (2, 'n2', 'drop'), (3, 'n3', 'c');
            INSERT INTO "Line" ("_pk", "qty", "note") VALUES (1, 5, 3), (2, 6, 2), (3, 7, NULL), (4, 8, 1);
            """
        try E2E.execute(store, rows)
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        _ = try PostgresMappingSplitCLITests.pg(schema, rows.replacingOccurrences(of: ") VALUES", with: ") OVERRIDING SYSTEM VALUE VALUES"))
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        let postgres = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(postgres.status == 0, "\(postgres.stderr)")
        let status = try CLI.run(["status", "--store", url], in: dir)
        #expect(status.stdout.contains("drift:    none\n"), "\(status.stdout)")
        let line = { (output: String) in output.split(separator: "\n").first { $0.contains("mapped Note from Note") }.map(String.init) }
        #expect(line(sqlite.stdout) != nil, "\(sqlite.stdout)")
        #expect(line(postgres.stdout) == line(sqlite.stdout), "\(postgres.stdout)")
        let queries = [
            #"SELECT "_pk" || '|' || "_entity" || '|' || coalesce("name", '-') || '|' || coalesce(CAST("total" AS text), '-') || '|' || coalesce("text", '-') FROM "Item" ORDER BY "_pk""#,
            #"SELECT "_pk" || '|' || "qty" || '|' || coalesce(CAST("note" AS text), '-') FROM "Line" ORDER BY "_pk""#,
        ]
        for query in queries {
            let onSQLite = try E2E.rows(store, query)
            #expect(try PostgresMappingSplitCLITests.pg(schema, query) == onSQLite, "\(query)")
        }
        let items = try E2E.rows(store, queries[0]), lines = try E2E.rows(store, queries[1])
        // Every row of the table gets a new ID above 4 (both tables' highest), kind by kind, each in old ID order.
        #expect(items == ["5|Item|i1|-|-", "6|Note|n1|-|a", "7|Note|n3|-|c", "8|Order|o2|20|-", "9|Order|o4|40|-"])
        #expect(lines == ["1|5|7", "2|6|-", "3|7|-", "4|8|6"])
        try E2E.execute(store, #"INSERT INTO "Item" ("_entity", "name") VALUES ('Item', 'new')"#)
        let next = try PostgresMappingSplitCLITests.pg(schema, #"INSERT INTO "Item" ("_entity", "name") VALUES ('Item', 'new') RETURNING "_pk""#)
        let onSQLite = try E2E.rows(store, #"SELECT max("_pk") FROM "Item""#)
        #expect(next.first == onSQLite.first, "\(next) \(onSQLite)")
    }

    /// A many-to-many of a merged entity: its join table is copied with both ends re-linked to the new IDs.
    @Test func aManyToManyOfAMergedEntityIsReLinkedAsOnSQLite() throws {
        let (dir, store) = try MappingProject.project(v1: AlbumMergeFixture.v1, v2: AlbumMergeFixture.v2,
                                                      files: ["v2.yaml": AlbumMergeFixture.mapping], name: "pgjoinm")
        let joins = #"SELECT "name" FROM sqlite_master WHERE "type" = 'table' AND "name" NOT IN ('Album', 'Photo', 'Video', 'Media') AND "name" NOT LIKE 'strata%' AND "name" NOT LIKE 'sqlite%'"#
        let before = try E2E.rows(store, joins)
        try #require(before.count == 1)
        let rows = """
            INSERT INTO "Album" ("_pk", "title") VALUES (1, 'a1'), (2, 'a2');
            INSERT INTO "Photo" ("_pk", "name") VALUES (1, 'p1'), (2, 'p2');
            INSERT INTO "Video" ("_pk", "name") VALUES (1, 'v1'), (3, 'v3');
            """
        try E2E.execute(store, rows + #"INSERT INTO "\#(before[0])" ("source", "target") VALUES (1, 1), (2, 1), (1, 2);"#)
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        _ = try PostgresMappingSplitCLITests.pg(schema, rows.replacingOccurrences(of: ") VALUES", with: ") OVERRIDING SYSTEM VALUE VALUES")
                                                + #"INSERT INTO "\#(before[0])" ("source", "target") VALUES (1, 1), (2, 1), (1, 2);"#)
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        let postgres = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(postgres.status == 0, "\(postgres.stderr)")
        let after = try E2E.rows(store, joins)
        try #require(after.count == 1)
        // Videos 1, 3 → 4, 5 and photos 1, 2 → 6, 7 (above 3, the highest key of both tables): album 1 holds photos 1, 2.
        let pairs = #"SELECT "source" || ' ' || "target" FROM "\#(after[0])" ORDER BY 1"#
        let onSQLite = try E2E.rows(store, pairs)
        #expect(onSQLite == ["1 6", "1 7", "2 6"])
        #expect(try PostgresMappingSplitCLITests.pg(schema, pairs) == onSQLite)
        #expect(try PostgresMappingSplitCLITests.pg(schema, #"SELECT "_pk" || ' ' || "name" FROM "Media" ORDER BY 1"#)
                    == (try E2E.rows(store, #"SELECT "_pk" || ' ' || "name" FROM "Media" ORDER BY 1"#)))
    }

    /// A filter on the merged table (every source's rows, `filter:` applying to each): the rows it leaves out are
    /// not carried, the links to them are cleared, and the others get the same new IDs, report and change set as on SQLite.
    @Test func aFilteredMergeGivesTheSameRowsIDsAndReportAsOnSQLite() throws {
        let mapping = MergeProject.mapping + "\n    filter: \"name != 'p1' AND name != 'v7'\"\n"
        let (dir, store) = try MergeProject.make(["v2.yaml": mapping])
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        _ = try PostgresMappingSplitCLITests.pg(schema, Self.rows)
        let now = ["--now", "2024-05-21T00:00:00Z"]
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite", "--changes-out", "sqlite.json"] + now, in: dir)
        let postgres = try CLI.run(["migrate", "--store", url, "--changes-out", "postgres.json"] + now, in: dir)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(postgres.status == 0, "\(postgres.stderr)")
        let uuids = (try MergeProject.uuid(store), try PostgresMappingSplitCLITests.pg(schema, "SELECT value FROM strata_metadata WHERE key = 'strata.uuid'")[0])
        func same(_ text: String) -> String {
            EngineParity.untimed(text).replacingOccurrences(of: "app.sqlite", with: url).replacingOccurrences(of: uuids.0, with: uuids.1)
        }
        #expect(EngineParity.untimed(postgres.stdout) == same(sqlite.stdout))
        #expect(sqlite.stdout.contains("  mapped Media from Photo, Video: 4 carried, 2 dropped by filter, 4 with new IDs, "
                                      + "2 links to them dropped (Comment.media 1, Tag.media 1)\n"), "\(sqlite.stdout)")
        let expected = [["10|p2|200|0|NULL", "11|p3|300|0|2", "12|v1|NULL|10|1", "13|v2|NULL|20|2"],
                        ["1|t1|NULL", "2|t2|11", "3|t3|NULL"], ["1|c1|NULL", "2|c2|12", "3|c3|NULL"], ["1|a1", "2|a2"]]
        for (query, rows) in zip(Self.queries, expected) {
            let onSQLite = try E2E.rows(store, query)
            #expect(onSQLite == rows, "\(query)")
            #expect(try PostgresMappingSplitCLITests.pg(schema, query) == onSQLite, "\(query)")
        }
        let changes = (try String(contentsOfFile: dir + "/sqlite.json", encoding: .utf8), try String(contentsOfFile: dir + "/postgres.json", encoding: .utf8))
        #expect(try PostgresMigrateReportCLITests.comparable(changes.1) == PostgresMigrateReportCLITests.comparable(same(changes.0)))
    }
}
