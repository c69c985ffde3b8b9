import Foundation
import GRDB
import Testing
import StrataTestSupport

/// `strata import coredata` with mapping models, on the built binary: the mapping file written into migrations/,
/// kept or replaced, the lint that reads it, TODOs (exit 4), malformed XML (exit 2), and the imported history
/// migrating a store through the mapping (split, filter, type change, rename).
@Suite struct ImportCoreDataMappingCLITests {
    static let notes = CLI.packageRoot + "/Tests/StrataTests/Fixtures/coredata/Notes/Notes.xcdatamodeld"

    /// Two versions and a mapping model beside the bundle, in `dir`.
    static func project(mapping xml: String, in dir: String) throws -> String {
        let v1 = #"<model><entity name="Album"><attribute name="title" optional="YES" attributeType="String"/></entity></model>"#
        let v2 = #"<model><entity name="Album"><attribute name="title" optional="YES" attributeType="String"/><attribute name="rank" optional="YES" attributeType="Integer 16"/></entity></model>"#
        let path = try ImportCoreDataCLITests.bundle([("App", v1), ("App 2", v2)], in: dir)
        try FileManager.default.createDirectory(atPath: dir + "/App1to2.xcmappingmodel", withIntermediateDirectories: true)
        try xml.write(toFile: dir + "/App1to2.xcmappingmodel/xcmapping.xml", atomically: true, encoding: .utf8)
        return path
    }

    static func mapping(policy: String?, rank: String) -> String {
        """
        <?xml version="1.0" standalone="yes"?>
        <database>
            <object type="XDDEVATTRIBUTEMAPPING" id="z2">
                <attribute name="name" type="string">rank</attribute>
                <attribute name="valueexpressionstring" type="string">\(rank)</attribute>
            </object>
            <object type="XDDEVENTITYMAPPING" id="z1">
                <attribute name="sourcename" type="string">Album</attribute>
                <attribute name="destinationname" type="string">Album</attribute>
                \(policy.map { "<attribute name=\"migrationpolicyclassname\" type=\"string\">\($0)</attribute>" } ?? "")
                <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z2"></relationship>
            </object>
        </database>
        """
    }

    @Test func theImportedMappingMigratesAStoreEndToEnd() throws {
        let dir = try ImportCoreDataCLITests.directory()
        let imported = try CLI.run(["import", "coredata", Self.notes], in: dir)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("  wrote models/2.yaml (Notes 2)\n  wrote migrations/v2-mapping.yaml (Notes1to2.xcmappingmodel: v1 → v2)\n"))
        #expect(imported.stdout.contains("lint: 2 model version(s), 0 error(s)"))
        #expect(try CLI.run(["lint"], in: dir).status == 0)

        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", "s.sqlite"], in: dir).status == 0)
        let queue = try DatabaseQueue(path: dir + "/s.sqlite")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO Author (kind, name) VALUES ('person', 'Ann'), ('company', 'Acme'), ('person', 'Bob')")
            try db.execute(sql: "INSERT INTO Note (deleted, price, title, words, author) VALUES (0, 12, 'a', 100, 1), (1, 5, 'b', 7, 2), (0, NULL, 'c', 3, 2)")
            try db.execute(sql: "INSERT INTO Tag (label) VALUES ('x'), (NULL)")
        }
        try queue.close()
        let migrated = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.contains("  mapped Person from Author: 2 carried, 1 dropped by filter"))
        let store = dir + "/s.sqlite"
        // Deleted notes dropped; words → length; int64 → decimal; the link to a company (not a Person) dropped.
        #expect(try E2E.rows(store, "SELECT _pk, deleted, length, price, title, author FROM Note ORDER BY _pk") == ["1|0|100|12|a|1", "3|0|3|NULL|c|NULL"])
        #expect(try E2E.rows(store, "SELECT _pk, name FROM Person ORDER BY _pk") == ["1|Ann", "3|Bob"])
        #expect(try E2E.rows(store, "SELECT _pk, name FROM Company ORDER BY _pk") == ["2|Acme"])
        #expect(try E2E.rows(store, "SELECT _pk, text FROM Label ORDER BY _pk") == ["1|x", "2|NULL"])
        #expect(try E2E.rows(store, "SELECT value FROM strata_metadata WHERE key = 'strata.version'") == ["2"])
    }

    @Test func mappingFilesAreKeptUnlessForceAndListedInJSON() throws {
        let dir = try ImportCoreDataCLITests.directory()
        let first = try CLI.json(try CLI.run(["import", "coredata", Self.notes, "--format", "json"], in: dir).stdout)
        let mappings = try #require(first["mappings"] as? [[String: Any]])
        #expect(mappings.map { "\($0["source"] as? String ?? "") \($0["file"] as? String ?? "") \($0["status"] as? String ?? "")" }
                == ["Notes1to2.xcmappingmodel migrations/v2-mapping.yaml written"])
        #expect(first["written"] as? [String] == ["models/1.yaml", "models/2.yaml", "migrations/v2-mapping.yaml"])
        let original = try #require(ImportCoreDataCLITests.read(dir + "/migrations/v2-mapping.yaml"))
        try (original + "# edited\n").write(toFile: dir + "/migrations/v2-mapping.yaml", atomically: true, encoding: .utf8)

        let again = try CLI.run(["import", "coredata", Self.notes], in: dir)
        #expect(again.stdout.contains("  kept migrations/v2-mapping.yaml (Notes1to2.xcmappingmodel: v1 → v2): it exists; --force replaces it\n"))
        #expect(ImportCoreDataCLITests.read(dir + "/migrations/v2-mapping.yaml") == original + "# edited\n")
        let forced = try CLI.run(["import", "coredata", Self.notes, "--force"], in: dir)
        #expect(forced.stdout.contains("  replaced migrations/v2-mapping.yaml (Notes1to2.xcmappingmodel: v1 → v2)\n"))
        #expect(ImportCoreDataCLITests.read(dir + "/migrations/v2-mapping.yaml") == original)

        // Another file already maps the step: it is kept, even with --force (two files for one step are exit 2).
        try FileManager.default.moveItem(atPath: dir + "/migrations/v2-mapping.yaml", toPath: dir + "/migrations/mine.yaml")
        let other = try CLI.run(["import", "coredata", Self.notes, "--force"], in: dir)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout.contains("  kept migrations/mine.yaml (Notes1to2.xcmappingmodel: v1 → v2): it exists; --force replaces it\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/migrations") == ["mine.yaml"])
    }

    @Test func aCustomPolicyIsATodoAndTheImportExits4() throws {
        let dir = try ImportCoreDataCLITests.directory()
        let path = try Self.project(mapping: Self.mapping(policy: "App.AlbumPolicy", rank: "7"), in: dir)
        let run = try CLI.run(["import", "coredata", path], in: dir)
        #expect(run.status == 4, "\(run.stderr)")
        #expect(run.stdout.contains("  wrote migrations/v2-mapping.yaml (App1to2.xcmappingmodel: v1 → v2, 1 TODO(s) to edit)\n"))
        let file = try #require(ImportCoreDataCLITests.read(dir + "/migrations/v2-mapping.yaml"))
        #expect(file.contains("    filter: TODO   # AlbumToAlbum ran the custom migration policy App.AlbumPolicy: port what its code does to expressions here or to a hook, then remove this TODO\n"))
        #expect(file.contains("      rank: \"7\"\n"))
        #expect(run.stderr.contains("migrations/v2-mapping.yaml:8:13: error: v1 → v2: Album: a TODO is left in the mapping file"))
        #expect(run.stdout.contains("  v1 → v2: edit the 1 TODO(s) of migrations/v2-mapping.yaml (each is exit 4 until edited)\n"))
        #expect(try CLI.run(["lint"], in: dir).status == 4)
    }

    @Test func malformedMappingXMLIsExit2AndWritesNothing() throws {
        let dir = try ImportCoreDataCLITests.directory()
        let path = try Self.project(mapping: "<database>\n  <object type=\"XDDEVENTITYMAPPING\" id=\"z1\">\n    <attribute name=\"a\">&bogus;</attribute>\n</database>\n", in: dir)
        let run = try CLI.run(["import", "coredata", path], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.contains("App1to2.xcmappingmodel/xcmapping.xml:3:"))
        #expect(run.stderr.contains("error: malformed mapping model XML: "))
        #expect(!FileManager.default.fileExists(atPath: dir + "/models"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/migrations"))
    }
    /// A mapping model beside the bundle whose recorded models are another bundle's (`Cache.xcdatamodeld`, with
    /// versions named as this bundle's) is ignored with a warning naming it, and no mapping file is written: Core
    /// Data applies a mapping model only to the models it was made for. Before, it became migrations/v2-mapping.yaml.
    @Test func aMappingModelOfAnotherBundleBesideItIsIgnoredWithAWarning() throws {
        let dir = try ImportCoreDataCLITests.directory()
        let xml = Self.mapping(policy: nil, rank: "7").replacingOccurrences(of: "</database>", with: """
                <object type="XDDEVMAPPINGMODEL" id="z9">
                    <attribute name="sourcemodelpath" type="string">Cache.xcdatamodeld/App.xcdatamodel</attribute>
                    <attribute name="destinationmodelpath" type="string">Cache.xcdatamodeld/App 2.xcdatamodel</attribute>
                </object>
            </database>
            """)
        let line = xml.components(separatedBy: "\n").firstIndex { $0.contains("XDDEVMAPPINGMODEL") }! + 1
        let path = try Self.project(mapping: xml, in: dir)
        let warning = """
            \(dir)/App1to2.xcmappingmodel/xcmapping.xml:\(line):1: warning: App1to2.xcmappingmodel is not a mapping model of \
            App.xcdatamodeld: it maps 'Cache.xcdatamodeld/App.xcdatamodel' → 'Cache.xcdatamodeld/App 2.xcdatamodel', models of \
            Cache.xcdatamodeld; ignored
            hint: Core Data applies a mapping model only to the two models it was made for; to import it with this bundle, set its \
            source and destination models to versions of App.xcdatamodeld in Xcode

            """
        let run = try CLI.run(["import", "coredata", path], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == warning)
        #expect(run.stdout == """
            imported \(path): 2 version(s), 2 file(s) written to models, 0 kept
              wrote models/1.yaml (App)
              wrote models/2.yaml (App 2)
            lint: 2 model version(s), 0 error(s), 0 warning(s)

            """)
        #expect(!FileManager.default.fileExists(atPath: dir + "/migrations"))

        let json = try CLI.run(["import", "coredata", path, "--force", "--format", "json"], in: dir)
        #expect(json.status == 0)
        let document = try CLI.json(json.stdout)
        #expect(document["mappings"] as? [Any] != nil && (document["mappings"] as? [Any])?.isEmpty == true)
        let warnings = document["warnings"] as? [[String: Any]] ?? []
        #expect(warnings.map { "\($0["severity"]!) \($0["file"]!):\($0["line"]!)" } == ["warning \(dir)/App1to2.xcmappingmodel/xcmapping.xml:\(line)"])
        #expect((warnings.first?["message"] as? String)?.hasSuffix("models of Cache.xcdatamodeld; ignored") == true)
    }
}
