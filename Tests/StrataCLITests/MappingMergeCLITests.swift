import Foundation
import GRDB
import StrataTestSupport
import Testing

/// Merges in mapping files (SPEC §11.3 "IDs"; issue 15): `source: [Photo, Video]` with per-source expressions,
/// every merged row gets a new `_pk` above every one the tables ever used, every link to them is re-linked,
/// and the old → new translation goes to `--changes-out` under "remapped".
@Suite struct MappingMergeCLITests {
    static let media = #"SELECT "_pk", "name", "width", "duration", "album" FROM "Media" ORDER BY "_pk""#
    static let mergedMedia = ["10|p1|100|0|1", "11|p2|200|0|NULL", "12|p3|300|0|2", "13|v1|NULL|10|1", "14|v2|NULL|20|2", "15|v7|NULL|70|NULL"]

    @Test func aMergeGivesNewIDsAboveEveryUsedOneAndReLinksEveryLink() throws {
        let (dir, store) = try MergeProject.make(["v2.yaml": MergeProject.mapping])
        let uuid = try MergeProject.uuid(store)
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--changes-out", "changes.json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("  mapEntity Media: merged from Photo, Video (migrations/v2.yaml), objects get new IDs\n"), "\(r.stdout)")
        #expect(r.stdout.contains("  mapped Media from Photo, Video: 6 carried, 6 with new IDs\n"), "\(r.stdout)")
        // Photo's rows first, then Video's, each in old ID order, above 9 (Video's highest ID ever, in sqlite_sequence).
        #expect(try E2E.rows(store, Self.media) == Self.mergedMedia)
        // Every link to a merged object follows it: tags (were on photos 1, 3), comments (were on videos 7, 1).
        #expect(try E2E.rows(store, #"SELECT "_pk", "label", "media" FROM "Tag" ORDER BY "_pk""#) == ["1|t1|10", "2|t2|12", "3|t3|NULL"])
        #expect(try E2E.rows(store, #"SELECT "_pk", "text", "media" FROM "Comment" ORDER BY "_pk""#) == ["1|c1|15", "2|c2|13", "3|c3|NULL"])
        #expect(try E2E.rows(store, #"SELECT "_pk", "title" FROM "Album" ORDER BY "_pk""#) == ["1|a1", "2|a2"])
        #expect(try E2E.rows(store, "SELECT name FROM sqlite_master WHERE name IN ('Photo', 'Video', 'strata_remap')").isEmpty)
        #expect(try E2E.rows(store, "PRAGMA foreign_key_check").isEmpty)
        #expect(try E2E.rows(store, #"SELECT "seq" FROM "sqlite_sequence" WHERE "name" = 'Media'"#) == ["15"])
        // The translation, old → new, per destination entity.
        let json = try CLI.json(String(contentsOfFile: dir + "/changes.json", encoding: .utf8))
        let remapped = try #require(json["remapped"] as? [String: [String: String]])
        let id = { (entity: String, pk: Int) in "x-strata://\(uuid)/\(entity)/p\(pk)" }
        #expect(remapped == ["Media": [id("Photo", 1): id("Media", 10), id("Photo", 2): id("Media", 11), id("Photo", 3): id("Media", 12),
                                       id("Video", 1): id("Media", 13), id("Video", 2): id("Media", 14), id("Video", 7): id("Media", 15)]])
        // Exactly once; a new object takes the next ID.
        let again = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try E2E.rows(store, Self.media) == Self.mergedMedia)
        try E2E.execute(store, #"INSERT INTO "Media" ("name", "duration") VALUES ('new', 1)"#)
        #expect(try E2E.rows(store, #"SELECT max("_pk") FROM "Media""#) == ["16"])
    }

    @Test func aDryRunReportsWhatTheRunDoesAndWritesNothing() throws {
        let (dir, store) = try MergeProject.make(["v2.yaml": MergeProject.mapping])
        let before = E2E.storeHashes(store)
        let dry = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run", "--format", "json"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(E2E.storeHashes(store) == before)
        let run = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        /// The mapping report of the step: entity, source, carried, dropped, new IDs, failed casts of `duration`.
        func mapping(_ text: String) throws -> String {
            let migration = try #require(try CLI.json(text)["migration"] as? [String: Any])
            let step = try #require((migration["steps"] as? [[String: Any]])?.first)
            let entity = try #require((step["mapping"] as? [[String: Any]])?.first)
            let casts = try #require(entity["failedCasts"] as? [[String: Any]])
            return "\(entity["entity"]!) \(entity["source"]!) \(entity["carried"]!) \(entity["dropped"]!) \(entity["newIDs"]!) "
                + casts.map { "\($0["attribute"]!)=\($0["expression"]!):\($0["count"]!)" }.joined(separator: ",")
        }
        let expected = "Media Photo, Video 6 0 6 duration=Photo: 0; Video: int64(seconds):0"
        #expect(try mapping(dry.stdout) == expected)
        #expect(try mapping(run.stdout) == expected)
        let changes = try #require((try CLI.json(run.stdout)["migration"] as? [String: Any])?["changes"] as? [String: Any])
        #expect(changes["remappedCounts"] as? [String: Int] == ["Media": 6])
        #expect(try E2E.rows(store, Self.media) == Self.mergedMedia)
    }

    @Test func aFailedCastFromOneSourceIsExit3NamingItsSourceObjectAndWritesNothing() throws {
        let (dir, store) = try MergeProject.make(["v2.yaml": MergeProject.mapping], badSeconds: "x")
        let uuid = try MergeProject.uuid(store)
        let before = E2E.storeHashes(store)
        let dry = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run"], in: dir)
        #expect(dry.status == 3)
        #expect(dry.stdout.contains("    Media.duration = Photo: 0; Video: int64(seconds): 1 failed cast (nil): x-strata://\(uuid)/Video/p2 (seconds = \"x\")\n"),
                "\(dry.stdout)")
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--audit", "none"], in: dir)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stderr.contains("error: v1 → v2: Media.duration is not nil (non-optional; its mapped value failed to cast or was nil): 1 object (code 1570)"), "\(r.stderr)")
        #expect(E2E.storeHashes(store) == before)
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Video""#) == ["3"])
    }

    @Test func perSourceExpressionsNameSourcesOfTheEntity() throws {
        let wrong = MergeProject.mapping.replacingOccurrences(of: "{ Photo: \"0\", Video:", with: "{ Photo: \"0\", Movie: \"1\", Video:")
        let (dir, _) = try MergeProject.make(["v2.yaml": wrong])
        let r = try CLI.run(["lint"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("migrations/v2.yaml:6:39: error: 'Movie' is not a source of Media (its sources are Photo, Video)"), "\(r.stderr)")
        // An expression valid for one source only is located where it is written.
        let one = MergeProject.mapping.replacingOccurrences(of: "duration: { Photo: \"0\", Video: \"int64(seconds)\" }", with: "duration: \"int64(seconds)\"")
        try one.write(toFile: dir + "/migrations/v2.yaml", atomically: true, encoding: .utf8)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.contains("migrations/v2.yaml:6:24: error: Photo has no attribute 'seconds'"), "\(lint.stderr)")
    }

    @Test func aSigkillInsideAMergeLeavesTheOldVersionAndTheRerunCompletes() throws {
        let (dir, store) = try MergeProject.make(["v2.yaml": MergeProject.mapping])
        let rows = 150_000
        try E2E.execute(store, """
            WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows + 9))
            INSERT INTO "Video" ("_pk", "name", "seconds", "album") SELECT i, 'v' || i, CAST(i AS TEXT), 1 + i % 2 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows + 9))
            INSERT INTO "Comment" ("_pk", "text", "video") SELECT i, 'c' || i, i FROM n;
            """)
        MappingProject.kill(try E2E.Child(["migrate", "--store", "app.sqlite", "--no-progress"], in: dir), whenJournalOf: store)
        #expect(try E2E.rows(store, "PRAGMA integrity_check") == ["ok"])
        #expect(try CLI.run(["status", "--store", "app.sqlite"], in: dir).status == 0)
        #expect(try E2E.rows(store, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["1"])
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Video""#) == ["\(rows + 3)"])
        let rerun = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        // Photos 1…3 → 10…12, then videos 1, 2, 7 → 13…15 and 10… → 16…: each comment still on its video.
        let total = rows + 6
        #expect(try E2E.rows(store, #"SELECT count(*), min("_pk"), max("_pk") FROM "Media""#) == ["\(total)|\(rows + 9 + 1)|\(rows + 9 + total)"])
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Comment" AS c JOIN "Media" AS m ON m."_pk" = c."media" WHERE m."name" <> 'v' || substr(c."text", 2)"#) == ["2"])
        #expect(try E2E.rows(store, #"SELECT count(*) FROM "Comment" WHERE "media" IS NULL"#) == ["1"])
        #expect(try E2E.rows(store, "PRAGMA foreign_key_check").isEmpty)
    }

    @Test func diffSQLShowsTheMappingBeforeTheInferredChanges() throws {
        let (dir, store) = try MergeProject.make(["v2.yaml": MergeProject.mapping])
        let before = E2E.storeHashes(store)
        let r = try CLI.run(["diff", "1", "2", "--sql", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == ["-- v1 → v2: mapping migrations/v2.yaml (runs with the inferred changes, as one plan)",
                                           "--   Media ← Photo, Video (new IDs): duration = Photo: 0; Video: int64(seconds)",
                                           "-- v1 → v2: inferred changes"])
        #expect(lines.contains { $0.hasPrefix(#"INSERT INTO "strata_new_Media" ("_pk", "name", "width", "duration", "album") SELECT (SELECT strata_r."new" FROM "strata_remap""#) })
        #expect(lines.contains(#"SELECT "entity", "old", "kind", "new" FROM "strata_remap" ORDER BY "kind", "new";"#))
        #expect(E2E.storeHashes(store) == before)
    }
}
