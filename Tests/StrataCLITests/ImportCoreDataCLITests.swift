import Foundation
import GRDB
import Testing
import StrataTestSupport

/// `strata import coredata` on the built binary: files written and kept, the lint after the import, exit codes,
/// and the imported history migrating a real store.
@Suite struct ImportCoreDataCLITests {
    static let recipes = CLI.packageRoot + "/Tests/StrataTests/Fixtures/coredata/Recipes.xcdatamodeld"

    static func directory() throws -> String {
        Temporary.directory("import")
    }

    /// A bundle of (version folder, contents XML) in `dir`.
    static func bundle(_ versions: [(String, String)], in dir: String) throws -> String {
        let path = dir + "/App.xcdatamodeld"
        for (name, xml) in versions {
            try FileManager.default.createDirectory(atPath: path + "/\(name).xcdatamodel", withIntermediateDirectories: true)
            try xml.write(toFile: path + "/\(name).xcdatamodel/contents", atomically: true, encoding: .utf8)
        }
        return path
    }

    static func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test func importedExampleMigratesEndToEndWithAHook() throws {
        let dir = try Self.directory()
        let imported = try CLI.run(["import", "coredata", Self.recipes], in: dir)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("3 version(s), 3 file(s) written to models, 0 kept"))
        #expect(imported.stdout.contains("lint: 3 model version(s), 0 error(s), 0 warning(s)"))
        #expect(imported.stdout.contains("""
              Recipes2to3.xcmappingmodel (v2 → v3): every entity mapping is what inference does, no mapping file needed
            not carried (2):
              v2–v3 Recipe.summary: transient attribute is not carried (it is never stored)

            """))
        #expect(Self.read(dir + "/models/2.yaml")?.contains("    renamedFrom: Dish\n") == true)

        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", "s.sqlite"], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        let queue = try DatabaseQueue(path: dir + "/s.sqlite")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO Dish (title, servings) VALUES ('Soup', 4), ('Tea', 1)")
            try db.execute(sql: "INSERT INTO Ingredient (name, dish) VALUES ('salt', 1), ('leaf', 2)")
        }
        try queue.close()
        try FileManager.default.createDirectory(atPath: dir + "/migrations", withIntermediateDirectories: true)
        try """
            id: big-favorites
            after: 3
            steps:
              - batchUpdate: { entity: Recipe, predicate: "portions >= 3", propertiesToUpdate: { favorite: true } }
            """.write(toFile: dir + "/migrations/big-favorites.yaml", atomically: true, encoding: .utf8)

        let migrated = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try E2E.rows(dir + "/s.sqlite", "SELECT name, portions, favorite FROM Recipe ORDER BY _pk") == ["Soup|4|1", "Tea|1|0"])
        #expect(try E2E.rows(dir + "/s.sqlite", "SELECT name, dish FROM Ingredient ORDER BY _pk") == ["salt|1", "leaf|2"])
        #expect(try E2E.rows(dir + "/s.sqlite", "SELECT value FROM strata_metadata WHERE key = 'strata.version'") == ["3"])
    }

    @Test func existingFilesAreKeptUnlessForce() throws {
        let dir = try Self.directory()
        #expect(try CLI.run(["import", "coredata", Self.recipes], in: dir).status == 0)
        let original = try #require(Self.read(dir + "/models/2.yaml"))
        let edited = original + "# edited by hand\n"
        try edited.write(toFile: dir + "/models/2.yaml", atomically: true, encoding: .utf8)

        let again = try CLI.run(["import", "coredata", Self.recipes, "--format", "json"], in: dir)
        #expect(again.status == 0)
        let document = try CLI.json(again.stdout)
        #expect(document["kept"] as? [String] == ["models/1.yaml", "models/2.yaml", "models/3.yaml"])
        #expect(document["written"] as? [String] == [])
        #expect(Self.read(dir + "/models/2.yaml") == edited)

        let forced = try CLI.run(["import", "coredata", Self.recipes, "--force"], in: dir)
        #expect(forced.status == 0)
        #expect(forced.stdout.contains("  replaced models/2.yaml (Recipes 2)"))
        #expect(Self.read(dir + "/models/2.yaml") == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/models").sorted() == ["1.yaml", "2.yaml", "3.yaml"])
    }

    @Test func jsonDocumentListsVersionsNotCarriedAndLint() throws {
        let dir = try Self.directory()
        let run = try CLI.run(["import", "coredata", Self.recipes, "--models", "m", "--format", "json"], in: dir)
        #expect(run.status == 0)
        let document = try CLI.json(run.stdout)
        #expect(document["schemaVersion"] as? Int == 1)
        let versions = try #require(document["versions"] as? [[String: Any]])
        #expect(versions.map { $0["version"] as? Int } == [1, 2, 3])
        #expect(versions.map { $0["status"] as? String } == ["written", "written", "written"])
        #expect(versions.map { $0["file"] as? String } == ["m/1.yaml", "m/2.yaml", "m/3.yaml"])
        let notCarried = try #require(document["notCarried"] as? [[String: Any]])
        #expect(notCarried.map { $0["reason"] as? String } == [
            "transient attribute is not carried (it is never stored)",
            "transient attribute is not carried (it is never stored)",
        ])
        #expect(notCarried[0]["version"] as? Int == 2 && notCarried[0]["entity"] as? String == "Recipe"
                && notCarried[0]["property"] as? String == "summary")
        let mappings = try #require(document["mappings"] as? [[String: Any]])
        #expect(mappings.count == 1 && mappings[0]["source"] as? String == "Recipes2to3.xcmappingmodel"
                && mappings[0]["status"] as? String == "inferred" && mappings[0]["from"] as? Int == 2 && mappings[0]["to"] as? Int == 3)
        let lint = try #require(document["lint"] as? [String: Any])
        #expect(lint["ok"] as? Bool == true && lint["versions"] as? [Int] == [1, 2, 3])
    }

    @Test func nonInferableStepIsExit4NamingTheMapping() throws {
        let dir = try Self.directory()
        let path = try Self.bundle([
            ("App", #"<model><entity name="A"><attribute name="x" optional="YES" attributeType="String"/></entity></model>"#),
            ("App 2", #"<model><entity name="A"><attribute name="x" optional="YES" attributeType="Integer 64"/></entity></model>"#),
        ], in: dir)
        let run = try CLI.run(["import", "coredata", path], in: dir)
        #expect(run.status == 4)
        #expect(run.stdout.contains("  v1 → v2 cannot be inferred (the error above says why): write a mapping file: `strata mapping 1 2 > migrations/v2-mapping.yaml` prints a skeleton to edit\n"))
        #expect(run.stderr.contains("models/2.yaml:6:7: error: v1 → v2: A.x: type changes from string to int64"))
        #expect(FileManager.default.fileExists(atPath: dir + "/models/2.yaml"))
        // The same condition, the same code in `lint` (SPEC §10).
        #expect(try CLI.run(["lint"], in: dir).status == 4)
        let json = try CLI.json(try CLI.run(["import", "coredata", path, "--format", "json"], in: dir).stdout)
        let steps = (json["lint"] as? [String: Any])?["notInferable"] as? [[String: Any]]
        #expect(steps?.map { $0["next"] as? String } == [ImportWayForward.text])
    }

    @Test func malformedXMLIsExit2AndWritesNothing() throws {
        let dir = try Self.directory()
        let path = try Self.bundle([
            ("App", #"<model><entity name="A"/></model>"#),
            ("App 2", "<model>\n  <entity name=\"A\">\n    <attribute name=\"x\" attributeType=\"String\"\n  </entity>\n</model>\n"),
        ], in: dir)
        let run = try CLI.run(["import", "coredata", path], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.contains("App 2.xcdatamodel/contents:4:3: error: malformed model XML: "))
        #expect(!FileManager.default.fileExists(atPath: dir + "/models"))
    }

    @Test func collidingVersionNumbersAreExit2SuggestingOrder() throws {
        let dir = try Self.directory()
        let model = #"<model><entity name="A"/></model>"#
        let path = try Self.bundle([("App 2", model), ("App_2", model)], in: dir)
        let run = try CLI.run(["import", "coredata", path, "--format", "json"], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.contains("error: versions 'App 2', 'App_2' would all be version 2\nhint: pass --order FILE"))
        #expect((try CLI.json(run.stdout)["error"] as? [String: Any])?["exitCode"] as? Int == 2)
        try "App_2\nApp 2\n".write(toFile: dir + "/order.txt", atomically: true, encoding: .utf8)
        let ordered = try CLI.run(["import", "coredata", path, "--order", "order.txt"], in: dir)
        #expect(ordered.status == 0)
        #expect(ordered.stdout.contains("  wrote models/1.yaml (App_2)\n  wrote models/2.yaml (App 2)\n"))
        #expect(try CLI.run(["import", "coredata", dir + "/nowhere.xcdatamodeld"], in: dir).status == 2)
    }

    /// Xcode's mapping model for `App` → `App 2` (`name` becomes `title`), as it writes it inside the bundle.
    static let renameMapping = """
        <?xml version="1.0" standalone="yes"?>
        <database>
            <object type="XDDEVATTRIBUTEMAPPING" id="z202">
                <attribute name="name" type="string">title</attribute>
                <attribute name="valueexpressionstring" type="string">$source.name</attribute>
                <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z201"></relationship>
            </object>
            <object type="XDDEVENTITYMAPPING" id="z201">
                <attribute name="destinationname" type="string">Item</attribute>
                <attribute name="mappingtypename" type="string">Transform</attribute>
                <attribute name="name" type="string">ItemToItem</attribute>
                <attribute name="sourcename" type="string">Item</attribute>
                <relationship name="attributemappings" type="0/0" destination="X" idrefs="z202"></relationship>
            </object>
            <object type="XDDEVMAPPINGMODEL" id="z101">
                <attribute name="sourcemodelpath" type="string">App.xcdatamodeld/App.xcdatamodel</attribute>
                <attribute name="destinationmodelpath" type="string">App.xcdatamodeld/App 2.xcdatamodel</attribute>
                <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z201"></relationship>
            </object>
        </database>
        """

    /// `.` inside the bundle crashed (SIGILL in a path function), and `App.xcdatamodeld/.` read the mapping model
    /// inside it twice (once as the folder beside the bundle).
    @Test func everySpellingOfTheBundlePathImportsItOnce() throws {
        let dir = try Self.directory()
        let path = try Self.bundle([
            ("App", #"<model><entity name="Item"><attribute name="name" optional="YES" attributeType="String"/></entity></model>"#),
            ("App 2", #"<model><entity name="Item"><attribute name="title" optional="YES" attributeType="String"/></entity></model>"#),
        ], in: dir)
        try FileManager.default.createDirectory(atPath: path + "/App1toApp2.xcmappingmodel", withIntermediateDirectories: true)
        try Self.renameMapping.write(toFile: path + "/App1toApp2.xcmappingmodel/xcmapping.xml", atomically: true, encoding: .utf8)
        let places = [(dir, "App.xcdatamodeld/."), (dir, "App.xcdatamodeld/"), (dir, "./App.xcdatamodeld//./"), (path, "."), (path, "./"),
                      (path + "/App.xcdatamodel", ".."), (path + "/App.xcdatamodel", "../"), (dir, path + "/.")]
        for (cwd, typed) in places {
            let out = Temporary.directory("import-out")
            let run = try CLI.run(["import", "coredata", typed, "--models", out + "/models", "--migrations", out + "/migrations"], in: cwd)
            #expect(run.status == 0, "\(typed) in \(cwd): \(run.stderr)")
            #expect(run.stdout.hasPrefix("imported \(typed): 2 version(s), 2 file(s) written to \(out)/models, 0 kept\n"), "\(run.stdout)")
            #expect(run.stdout.contains("  wrote \(out)/migrations/v2-mapping.yaml (App1toApp2.xcmappingmodel: v1 → v2)\n"), "\(run.stdout)")
            #expect(!run.stdout.contains("not carried"), "\(typed): \(run.stdout)")
        }
        // One version folder, however it is spelled.
        let single = try CLI.run(["import", "coredata", ".", "--models", dir + "/single"], in: path + "/App 2.xcdatamodel")
        #expect(single.status == 0, "\(single.stderr)")
        #expect(single.stdout.contains("1 version(s), 1 file(s) written") && single.stdout.contains("  wrote \(dir)/single/2.yaml (App 2)\n"))
    }

    @Test func dotInAFolderWithoutVersionsIsExit2() throws {
        let dir = try Self.directory()
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
        for (cwd, typed, shown) in [(dir + "/empty", ".", "."), (dir + "/empty", "./", "."), (dir + "/empty", "..", ".."), (dir, "empty/.", "empty")] {
            let run = try CLI.run(["import", "coredata", typed], in: cwd)
            #expect(run.status == 2, "\(typed): \(run.stderr)")
            #expect(run.stderr.contains("error: '\(shown)' holds no model versions (*.xcdatamodel)\nhint: pass the .xcdatamodeld bundle"), "\(run.stderr)")
        }
        let missing = try CLI.run(["import", "coredata", "nowhere/."], in: dir)
        #expect(missing.status == 2 && missing.stderr.contains("error: 'nowhere' does not exist"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/models"))
    }

    /// An order file saved on Windows was one line (`\r\n` is one `Character`): exit 2, "not a version".
    @Test func orderFileWithWindowsLineBreaks() throws {
        let dir = try Self.directory()
        let model = #"<model><entity name="A"><attribute name="x" optional="YES" attributeType="String"/></entity></model>"#
        let path = try Self.bundle([("Model", model), ("Model v2.0", model)], in: dir)
        try "Model\r\nModel v2.0\r\n".write(toFile: dir + "/order.txt", atomically: true, encoding: .utf8)
        let run = try CLI.run(["import", "coredata", path, "--order", "order.txt"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  wrote models/1.yaml (Model)\n  wrote models/2.yaml (Model v2.0)\n"))
        try "Model\r\nModel 2.0\r\n".write(toFile: dir + "/order.txt", atomically: true, encoding: .utf8)
        let wrong = try CLI.run(["import", "coredata", path, "--order", "order.txt", "--force"], in: dir)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("order.txt:2:1: error: 'Model 2.0' is not a version of the bundle\n"), "\(wrong.stderr)")
    }
}

/// The way forward the import names for a refused step, as the command prints it.
enum ImportWayForward {
    static let text = "write a mapping file: `strata mapping 1 2 > migrations/v2-mapping.yaml` prints a skeleton to edit"
}
