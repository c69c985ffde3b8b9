import Foundation
import StrataTestSupport
import Testing

/// Merges whose sources hold many-to-many links in join tables (SPEC §11.3: "every relationship between carried
/// objects is re-linked to them"): `Media` from `Photo` and `Video` keeps the links of `Album.items` → Photo and of
/// `Album.vitems` → Video (through `Video.albums`, which `Media.albums` continues), and of `Photo.tags` and
/// `Video.tags`, each re-linked to the new IDs; a relationship nothing continues loses its links and says so.
@Suite struct MappingMergeJoinCLITests {
    static let v1 = """
        version: 1
        entities:
          Photo:
            attributes: { caption: { type: string } }
            relationships:
              albums: { destination: Album, toMany: true, inverse: items }
              tags:   { destination: Tag, toMany: true }
          Video:
            attributes: { caption: { type: string } }
            relationships:
              albums: { destination: Album, toMany: true, inverse: vitems }
              tags:   { destination: Tag, toMany: true }
          Album:
            attributes: { name: { type: string } }
            relationships:
              items:  { destination: Photo, toMany: true, inverse: albums }
              vitems: { destination: Video, toMany: true, inverse: albums }
          Tag:
            attributes: { label: { type: string } }
        """
    static let v2 = """
        version: 2
        entities:
          Media:
            attributes: { caption: { type: string } }
            relationships:
              albums: { destination: Album, toMany: true, inverse: items }
              tags:   { destination: Tag, toMany: true }
          Album:
            attributes: { name: { type: string } }
            relationships:
              items: { destination: Media, toMany: true, inverse: albums }
          Tag:
            attributes: { label: { type: string } }
        """
    static let mapping = "mapping: { from: 1, to: 2 }\nentities:\n  Media: { source: [Photo, Video] }\n"
    /// Photos 1, 2 and videos 1, 3 (new IDs 4, 5, 6, 7: above video 3); albums 1, 2; tags 1, 2.
    static let rows = """
        INSERT INTO "Photo" ("_pk", "caption") VALUES (1, 'p1'), (2, 'p2');
        INSERT INTO "Video" ("_pk", "caption") VALUES (1, 'v1'), (3, 'v3');
        INSERT INTO "Album" ("_pk", "name") VALUES (1, 'a1'), (2, 'a2');
        INSERT INTO "Tag" ("_pk", "label") VALUES (1, 't1'), (2, 't2');
        INSERT INTO "_Album_items" ("source", "target") VALUES (1, 1), (2, 1), (2, 2);
        INSERT INTO "_Album_vitems" ("source", "target") VALUES (1, 1), (2, 3), (1, 3);
        INSERT INTO "_Photo_tags" ("source", "target") VALUES (1, 1), (2, 2);
        INSERT INTO "_Video_tags" ("source", "target") VALUES (1, 1), (3, 1), (3, 2);
        """
    static let queries = [
        #"SELECT "_pk" || '|' || "caption" FROM "Media" ORDER BY "_pk""#,
        #"SELECT "_pk" || '|' || "name" FROM "Album" ORDER BY "_pk""#,
        #"SELECT "_pk" || '|' || "label" FROM "Tag" ORDER BY "_pk""#,
        #"SELECT "source" || '|' || "target" FROM "_Album_items" ORDER BY "source", "target""#,
        #"SELECT "source" || '|' || "target" FROM "_Media_tags" ORDER BY "source", "target""#,
    ]
    static let expected = [
        ["4|p1", "5|p2", "6|v1", "7|v3"], ["1|a1", "2|a2"], ["1|t1", "2|t2"],
        // Photo 1 → 4 in albums 1, 2; photo 2 → 5 in album 2; video 1 → 6 in album 1; video 3 → 7 in albums 1, 2.
        ["1|4", "1|6", "1|7", "2|4", "2|5", "2|7"],
        ["4|1", "5|2", "6|1", "7|1", "7|2"],
    ]

    /// The merge with `filter:` leaving video 3 out: its 2 album links and 2 tag links are dropped.
    static let filtered = "mapping: { from: 1, to: 2 }\nentities:\n  Media: { source: [Photo, Video], filter: \"caption != 'v3'\" }\n"

    static func project(v1: String = Self.v1, v2: String = Self.v2, rows: String = Self.rows,
                        mapping: String = Self.mapping) throws -> (dir: String, store: String) {
        let dir = try CLI.project("merge-join", models: ["1.yaml": v1, "2.yaml": v2])
        try mapping.write(toFile: dir + "/migrations/v2.yaml", atomically: true, encoding: .utf8)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", "app.sqlite"], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        let store = dir + "/app.sqlite"
        try E2E.execute(store, rows)
        return (dir, store)
    }

    /// The step's header line (its tables and rows copied) and its `mapped` line.
    static func summary(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("v1 → v2: ") || $0.hasPrefix("  mapped ") }
    }

    @Test func aMergeKeepsTheJoinTableLinksOfEverySourceReLinkedToTheNewIDs() throws {
        let (dir, store) = try Self.project()
        let before = E2E.storeHashes(store)
        let dry = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(E2E.storeHashes(store) == before)
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("  removeRelationship Album.vitems: removed; its links continue through the inverse albums\n"), "\(r.stdout)")
        #expect(!r.stdout.contains("[destructive]"), "\(r.stdout)")
        #expect(r.stdout.contains("  create _Album_items: links of Album.items merge here from _Album_items, _Album_vitems, re-linked to new IDs\n"),
                "\(r.stdout)")
        #expect(!r.stdout.contains("no longer in the model"), "\(r.stdout)")
        #expect(Self.summary(r.stdout) == ["v1 → v2: rebuild Media, create _Album_items, create _Media_tags",
                                           "  mapped Media from Photo, Video: 4 carried, 4 with new IDs"], "\(r.stdout)")
        #expect(Self.summary(dry.stdout) == Self.summary(r.stdout), "\(dry.stdout)")
        for (query, rows) in zip(Self.queries, Self.expected) { #expect(try E2E.rows(store, query) == rows, "\(query)") }
        #expect(try E2E.rows(store, """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'strata_%' ORDER BY name
            """) == ["Album", "Media", "Tag", "_Album_items", "_Media_tags"])
        #expect(try E2E.rows(store, "PRAGMA foreign_key_check").isEmpty)
    }

    /// Links to an object the filter leaves out are dropped, and counted in the plan (SPEC §11.3 "Uncarried rows").
    @Test func linksToAnObjectTheFilterDropsAreCountedInTheDryRunAndTheRun() throws {
        let (dir, store) = try Self.project(mapping: Self.filtered)
        let dry = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run"], in: dir)
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(r.status == 0, "\(r.stderr)")
        let mapped = "  mapped Media from Photo, Video: 3 carried, 1 dropped by filter, 3 with new IDs, 4 links to them dropped (_Album_items.target 2, _Media_tags.source 2)"
        #expect(Self.summary(r.stdout) == ["v1 → v2: rebuild Media, create _Album_items, create _Media_tags", mapped], "\(r.stdout)")
        #expect(Self.summary(dry.stdout) == Self.summary(r.stdout), "\(dry.stdout)")
        #expect(try E2E.rows(store, Self.queries[0]) == ["4|p1", "5|p2", "6|v1"])
        #expect(try E2E.rows(store, Self.queries[3]) == ["1|4", "1|6", "2|4", "2|5"])
        #expect(try E2E.rows(store, Self.queries[4]) == ["4|1", "5|2", "6|1"])
        #expect(try E2E.rows(store, "PRAGMA foreign_key_check").isEmpty)
    }

    /// Ordered on both sides: each end's links keep their source's order, source by source (Photo's, then Video's).
    @Test func anOrderedMergeKeepsEachSourcesOrderOneSourceAfterTheOther() throws {
        let ordered = { (model: String) in model.replacingOccurrences(of: "toMany: true, inverse:", with: "toMany: true, ordered: true, inverse:") }
        let (dir, store) = try Self.project(v1: ordered(Self.v1), v2: ordered(Self.v2), rows: """
            INSERT INTO "Photo" ("_pk", "caption") VALUES (1, 'p1'), (2, 'p2');
            INSERT INTO "Video" ("_pk", "caption") VALUES (1, 'v1'), (3, 'v3');
            INSERT INTO "Album" ("_pk", "name") VALUES (1, 'a1'), (2, 'a2');
            INSERT INTO "_Album_items" ("source", "target", "source_order", "target_order") VALUES (1, 2, 1, 1), (1, 1, 2, 2), (2, 1, 1, 1);
            INSERT INTO "_Album_vitems" ("source", "target", "source_order", "target_order") VALUES (1, 3, 1, 1), (1, 1, 2, 1);
            """)
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        // Album 1: p2, p1, then v3, v1; photo 1 (now 4): album 2, then album 1.
        #expect(try E2E.rows(store, #"SELECT "source", "target", "source_order", "target_order" FROM "_Album_items" ORDER BY "source", "source_order""#)
                == ["1|5|1|1", "1|4|2|2", "1|7|3|1", "1|6|4|1", "2|4|1|1"])
        #expect(try E2E.rows(store, "PRAGMA foreign_key_check").isEmpty)
    }

    /// `Album.vitems` has no inverse that continues: nothing carries its links, and the plan says they are dropped.
    @Test func aRelationshipNothingContinuesLosesItsLinksAsADestructiveChange() throws {
        let withoutInverse = { (model: String) in
            model.replacingOccurrences(of: ", inverse: items }", with: " }").replacingOccurrences(of: ", inverse: vitems }", with: " }")
                .replacingOccurrences(of: ", inverse: albums }", with: " }")
        }
        let (dir, store) = try Self.project(v1: withoutInverse(Self.v1), v2: withoutInverse(Self.v2), rows: """
            INSERT INTO "Photo" ("_pk", "caption") VALUES (1, 'p1');
            INSERT INTO "Video" ("_pk", "caption") VALUES (1, 'v1');
            INSERT INTO "Album" ("_pk", "name") VALUES (1, 'a1');
            INSERT INTO "_Album_items" ("source", "target") VALUES (1, 1);
            INSERT INTO "_Album_vitems" ("source", "target") VALUES (1, 1);
            INSERT INTO "_Photo_albums" ("source", "target") VALUES (1, 1);
            INSERT INTO "_Video_albums" ("source", "target") VALUES (1, 1);
            """)
        let diff = try CLI.run(["diff", "1", "2"], in: dir)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("  ! removeRelationship Album.vitems: removed with its links (data loss)\n"), "\(diff.stdout)")
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("  [destructive] removeRelationship Album.vitems: 1 link dropped\n"), "\(r.stdout)")
        #expect(r.stdout.contains("  create _Media_albums: links of Media.albums merge here from _Photo_albums, _Video_albums, re-linked to new IDs\n"),
                "\(r.stdout)")
        #expect(try E2E.rows(store, #"SELECT "_pk", "caption" FROM "Media" ORDER BY "_pk""#) == ["2|p1", "3|v1"])
        #expect(try E2E.rows(store, #"SELECT "source", "target" FROM "_Album_items""#) == ["1|2"])
        #expect(try E2E.rows(store, #"SELECT "source", "target" FROM "_Media_albums" ORDER BY 1"#) == ["2|1", "3|1"])
    }

    /// Without a mapping file, two relationships without inverse becoming each other's inverse: their join tables hold
    /// one set of links, which keeps both (`_Album_items`' spec is unchanged, yet `_Photo_albums`' links join it).
    @Test func twoJoinTablesBecomingOneKeepEveryLinkOnce() throws {
        let v1 = """
            version: 1
            entities:
              Photo:
                attributes: { caption: { type: string } }
                relationships: { albums: { destination: Album, toMany: true } }
              Album:
                attributes: { name: { type: string } }
                relationships: { items: { destination: Photo, toMany: true } }
            """
        let v2 = v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "toMany: true } }\n  Album", with: "toMany: true, inverse: items } }\n  Album")
            .replacingOccurrences(of: "destination: Photo, toMany: true }", with: "destination: Photo, toMany: true, inverse: albums }")
        let dir = try CLI.project("join-inverse", models: ["1.yaml": v1, "2.yaml": v2])
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", "app.sqlite"], in: dir).status == 0)
        let store = dir + "/app.sqlite"
        try E2E.execute(store, """
            INSERT INTO "Photo" ("_pk", "caption") VALUES (1, 'p1'), (2, 'p2');
            INSERT INTO "Album" ("_pk", "name") VALUES (1, 'a1'), (2, 'a2');
            INSERT INTO "_Album_items" ("source", "target") VALUES (1, 1);
            INSERT INTO "_Photo_albums" ("source", "target") VALUES (2, 2), (1, 1);
            """)
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("  create _Album_items: links of Album.items merge here from _Album_items, _Photo_albums\n"), "\(r.stdout)")
        #expect(try E2E.rows(store, #"SELECT "source", "target" FROM "_Album_items" ORDER BY 1, 2"#) == ["1|1", "2|2"])
        #expect(try E2E.rows(store, "SELECT name FROM sqlite_master WHERE name = '_Photo_albums'").isEmpty)
    }
}
