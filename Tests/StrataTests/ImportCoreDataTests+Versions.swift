import Foundation
import Testing
@testable import StrataCore

/// Importing a bundle's versions: order, renaming identifiers, skipped versions, large bundles.
extension ImportCoreDataTests {
    @Test func renamingIdentifiersAcrossThreeVersions() throws {
        let result = try CoreDataImport.read(path: Self.fixtures + "/Recipes.xcdatamodeld")
        #expect(result.versions.map(\.number) == [1, 2, 3])
        #expect(result.versions.map(\.name) == ["Recipes", "Recipes 2", "Recipes 3"])
        let models = try result.versions.map { try ModelLoader.load(yaml: $0.yaml, file: "\($0.number).yaml") }
        // v2: Dish → Recipe and title → name (Xcode's elementID); v3: servings → portions (renamingIdentifier).
        #expect(models[1].entity("Recipe")?.renamedFrom == "Dish")
        #expect(models[1].entity("Recipe")?.attribute("name")?.renamedFrom == "title")
        // v3 keeps the identifiers, but v2 already has those names: no renamedFrom.
        #expect(models[2].entity("Recipe")?.renamedFrom == nil)
        #expect(models[2].entity("Recipe")?.attribute("name")?.renamedFrom == nil)
        #expect(models[2].entity("Recipe")?.attribute("portions")?.renamedFrom == "servings")
        #expect(MappingInference.lint(models).filter { $0.severity == .error }.isEmpty)
        #expect(result.notCarried.map(\.versionName) == ["Recipes 2", "Recipes 3"])
        // Recipes2to3.xcmappingmodel says only what inference does (portions from servings: the renaming identifier).
        #expect(result.mappings.map { "\($0.name) \($0.from)→\($0.to) \($0.yaml == nil)" } == ["Recipes2to3.xcmappingmodel 2→3 true"])
    }

    @Test func renamesChainThroughTheSameIdentifier() throws {
        let path = try Self.bundle([
            ("M 1", Self.model(#"<entity name="A"><attribute name="a" optional="YES" attributeType="String"/></entity>"#)),
            ("M 2", Self.model(#"<entity name="B" elementID="A"><attribute name="b" optional="YES" attributeType="String" elementID="a"/></entity>"#)),
            ("M 3", Self.model(#"<entity name="C" elementID="A"><attribute name="c" optional="YES" attributeType="String" elementID="a"/></entity>"#)),
        ], current: "M 3")
        let models = try CoreDataImport.read(path: path).versions.map { try ModelLoader.load(yaml: $0.yaml, file: "\($0.number).yaml") }
        #expect(models[1].entity("B")?.renamedFrom == "A" && models[1].entity("B")?.attribute("b")?.renamedFrom == "a")
        #expect(models[2].entity("C")?.renamedFrom == "B" && models[2].entity("C")?.attribute("c")?.renamedFrom == "b")
        let steps = try MappingInference.plan(models: models, from: 1, to: 3)
        #expect(steps.count == 2)
    }

    @Test func numbersComeFromTrailingIntegers() throws {
        let empty = Self.model("")
        let path = try Self.bundle([("App", empty), ("App 2", empty), ("App v10", empty), ("App-3", empty)], current: "App v10")
        let result = try CoreDataImport.read(path: path)
        #expect(result.versions.map(\.number) == [1, 2, 3, 10])
        #expect(result.versions.map(\.name) == ["App", "App 2", "App-3", "App v10"])
    }

    @Test func collidingNumbersAreExit2SuggestingOrder() throws {
        let path = try Self.bundle([("Model", Self.model("")), ("Model 1", Self.model("")), ("Model 2", Self.model(""))])
        let errors = Self.errors { _ = try CoreDataImport.read(path: path) }
        #expect(errors == ["error: versions 'Model', 'Model 1' would all be version 1"])
        do { _ = try CoreDataImport.read(path: path) } catch {
            #expect(error.diagnostics[0].hint == "pass --order FILE listing the version names, oldest first (one per line)")
        }
    }

    @Test func orderFileNumbersVersions() throws {
        let path = try Self.bundle([("Model", Self.model("")), ("Model 1", Self.model("")), ("Beta", Self.model(""))], current: "Model 1")
        let order = TestStore.directory() + "/order.txt"
        try "# oldest first\nBeta\n\nModel.xcdatamodel\nModel 1\n".write(toFile: order, atomically: true, encoding: .utf8)
        let result = try CoreDataImport.read(path: path, orderFile: order)
        #expect(result.versions.map(\.name) == ["Beta", "Model", "Model 1"])
        #expect(result.versions.map(\.number) == [1, 2, 3])
        try "Beta\nModel 7\nModel\nModel\n".write(toFile: order, atomically: true, encoding: .utf8)
        #expect(Self.errors { _ = try CoreDataImport.read(path: path, orderFile: order) } == [
            "\(order):2:1: error: 'Model 7' is not a version of the bundle",
            "\(order):4:1: error: 'Model' is listed twice",
        ])
        try "Beta\nModel\n".write(toFile: order, atomically: true, encoding: .utf8)
        #expect(Self.errors { _ = try CoreDataImport.read(path: path, orderFile: order) } == [
            "\(order):1:1: error: the order file does not list 'Model 1'",
        ])
    }

    @Test(arguments: ["\r\n", "\r"]) func orderFileWithWindowsOrOldMacLineBreaks(_ br: String) throws {
        let path = try Self.bundle([("Model", Self.model("")), ("Model v2.0", Self.model("")), ("Beta", Self.model(""))])
        let order = TestStore.directory() + "/order.txt"
        try ["\u{FEFF}# oldest first", "Beta", "", "Model.xcdatamodel", "Model v2.0", ""].joined(separator: br)
            .write(toFile: order, atomically: true, encoding: .utf8)
        let result = try CoreDataImport.read(path: path, orderFile: order)
        #expect(result.versions.map(\.name) == ["Beta", "Model", "Model v2.0"])
        #expect(result.versions.map(\.number) == [1, 2, 3])
        try ["Beta", "Model 7", "Model", "Model"].joined(separator: br).write(toFile: order, atomically: true, encoding: .utf8)
        #expect(Self.errors { _ = try CoreDataImport.read(path: path, orderFile: order) } == [
            "\(order):2:1: error: 'Model 7' is not a version of the bundle",
            "\(order):4:1: error: 'Model' is listed twice",
        ])
    }

    @Test func currentVersionLineIsCountedInAWindowsFile() throws {
        let path = try Self.bundle([("Model", Self.model("")), ("Model 2", Self.model(""))])
        try "<?xml version=\"1.0\"?>\r\n<plist version=\"1.0\">\r\n<dict>\r\n<key>_XCCurrentVersionName</key>\r\n<string>Model.xcdatamodel</string>\r\n</dict>\r\n</plist>\r\n"
            .write(toFile: path + "/.xccurrentversion", atomically: true, encoding: .utf8)
        #expect(Self.errors { _ = try CoreDataImport.read(path: path) } == [
            "\(path)/.xccurrentversion:5:1: error: the current version 'Model' (1) is not the newest ('Model' = 1, 'Model 2' = 2)",
        ])
    }

    @Test func plainFilesNamedLikeVersionsOrMappingModelsAreNotRead() throws {
        let path = try Self.bundle([("M", Self.model("")), ("M 2", Self.model(""))], current: "M 2")
        // The AppleDouble files a macOS archive carries, and a stray file: none is a version or a mapping model.
        for file in ["._M 2.xcdatamodel", "._M.xcdatamodel", "Notes 2.xcdatamodel", "._M1toM2.xcmappingmodel", "Old.xcmappingmodel"] {
            try Data([0x00, 0x05, 0x16, 0x07]).write(to: URL(fileURLWithPath: path + "/" + file))
        }
        try FileManager.default.createDirectory(atPath: path + "/._M 3.xcdatamodel", withIntermediateDirectories: true)
        let result = try CoreDataImport.read(path: path)
        #expect(result.versions.map { "\($0.number) \($0.name)" } == ["1 M", "2 M 2"])
        #expect(result.skipped.isEmpty && result.notCarried.isEmpty && result.mappings.isEmpty)
    }

    @Test(arguments: ["/.", "/", "//", "/./", "/./.", "/../Model.xcdatamodeld"])
    func bundlePathSpellingsReadTheBundleOnce(_ suffix: String) throws {
        let path = try Self.bundle([("Model", Self.model(#"<entity name="A"/>"#)), ("Model 2", Self.model(#"<entity name="A"/>"#))])
        try FileManager.default.createDirectory(atPath: path + "/Model1to2.xcmappingmodel", withIntermediateDirectories: true)
        try """
            <?xml version="1.0" standalone="yes"?>
            <database>
                <object type="XDDEVENTITYMAPPING" id="z201">
                    <attribute name="destinationname" type="string">A</attribute>
                    <attribute name="mappingtypename" type="string">Copy</attribute>
                    <attribute name="name" type="string">AToA</attribute>
                    <attribute name="sourcename" type="string">A</attribute>
                </object>
                <object type="XDDEVMAPPINGMODEL" id="z101">
                    <attribute name="sourcemodelpath" type="string">Model.xcdatamodeld/Model.xcdatamodel</attribute>
                    <attribute name="destinationmodelpath" type="string">Model.xcdatamodeld/Model 2.xcdatamodel</attribute>
                    <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z201"></relationship>
                </object>
            </database>
            """.write(toFile: path + "/Model1to2.xcmappingmodel/xcmapping.xml", atomically: true, encoding: .utf8)
        let result = try CoreDataImport.read(path: path + suffix)
        #expect(result.versions.map { "\($0.number) \($0.name)" } == ["1 Model", "2 Model 2"])
        // Read once: the folder beside `Model.xcdatamodeld/.` is the bundle's folder, not the bundle again.
        #expect(result.mappings.map { "\($0.name) \($0.from)→\($0.to)" } == ["Model1to2.xcmappingmodel 1→2"])
        #expect(result.notCarried.isEmpty, "\(result.notCarried.map(\.reason))")
        let single = try CoreDataImport.read(path: path + "/Model 2.xcdatamodel" + (suffix.hasPrefix("/..") ? "/../Model 2.xcdatamodel" : suffix))
        #expect(single.versions.map { "\($0.number) \($0.name)" } == ["2 Model 2"])
    }

    static let spellings: [(String, String, String?)] = [
        (".", ".", ".."), ("./", ".", ".."), ("./.", ".", ".."), ("..", "..", "../.."), ("../", "..", "../.."),
        ("M.xcdatamodeld/.", "M.xcdatamodeld", "."), ("M.xcdatamodeld//", "M.xcdatamodeld", "."), ("./M.xcdatamodeld", "M.xcdatamodeld", "."),
        ("a/M.xcdatamodeld", "a/M.xcdatamodeld", "a"), ("a/..", "a/..", "a/../.."), ("/", "/", nil), ("//.", "/", nil),
        ("/M.xcdatamodeld/", "/M.xcdatamodeld", "/"), ("/a/./M.xcdatamodeld", "/a/M.xcdatamodeld", "/a"),
    ]

    @Test(arguments: spellings) func pathsAreTidiedBeforeTheirFolderIsTaken(_ typed: String, _ tidy: String, _ parent: String?) {
        #expect(CoreDataBundle.tidy(typed) == tidy)
        #expect(CoreDataBundle.parent(of: tidy) == parent)
    }

    @Test func currentVersionMustBeTheNewest() throws {
        let path = try Self.bundle([("Model", Self.model("")), ("Model 2", Self.model(""))], current: "Model")
        #expect(Self.errors { _ = try CoreDataImport.read(path: path) } == [
            "\(path)/.xccurrentversion:5:1: error: the current version 'Model' (1) is not the newest ('Model' = 1, 'Model 2' = 2)",
        ])
        let missing = try Self.bundle([("Model", Self.model(""))], current: "Model 9")
        #expect(Self.errors { _ = try CoreDataImport.read(path: missing) } == [
            "\(missing)/.xccurrentversion:5:1: error: the current version 'Model 9' is not in the bundle",
        ])
    }

    @Test func malformedXMLIsLocated() throws {
        let path = try Self.bundle([("Model", "<?xml version=\"1.0\"?>\n<model>\n  <entity name=\"A\">\n    <attribute name=\"x\" attributeType=\"String\">\n  </entity>\n</model>\n")])
        #expect(Self.errors { _ = try CoreDataImport.read(path: path) } == [
            "\(path)/Model.xcdatamodel/contents:5:12: error: malformed model XML: the end tag does not match its start tag",
        ])
        let entity = try Self.bundle([("Model", "<model><entity name=\"A&B\"/></model>")])
        #expect(Self.errors { _ = try CoreDataImport.read(path: entity) }.count == 1)
        let notModel = try Self.bundle([("Model", "<plist version=\"1.0\"><dict/></plist>")])
        #expect(Self.errors { _ = try CoreDataImport.read(path: notModel) } == [
            "\(notModel)/Model.xcdatamodel/contents:1:21: error: not a Core Data model: the root element is <plist>, not <model>",
        ])
    }

    @Test func entitiesAndCDATAAreReadByTheParser() throws {
        let result = try Self.single("""
            <entity name="E"><attribute name="s" optional="YES" attributeType="String" defaultValueString="&#x41;&amp;&apos;&#10;"/>
            <note><![CDATA[ <entity name="Fake"/> ]]></note></entity>
            """)
        let model = try ModelLoader.load(yaml: result.versions[0].yaml, file: "1.yaml")
        #expect(model.entities.map(\.name) == ["E"])
        #expect(model.entity("E")?.attribute("s")?.defaultValue == .text("A&'\n"))
        #expect(result.notCarried.map(\.reason) == ["unknown element <note> at line 4: skipped"])
    }

    @Test func deeplyNestedXMLIsListedNotACrash() throws {
        let depth = 100_000
        let body = String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth)
        let result = try Self.single("<entity name=\"E\">\(body)<attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>")
        #expect(result.notCarried.map(\.reason) == ["unknown element <x> at line 3: skipped"])
        #expect(try ModelLoader.load(yaml: result.versions[0].yaml, file: "1.yaml").entity("E")?.attribute("a")?.type == .string)
    }

    @Test func binaryOnlyVersionIsSkippedAndReported() throws {
        let path = try Self.bundle([("Model 2", Self.model(#"<entity name="E"/>"#))], current: "Model 2")
        try FileManager.default.createDirectory(atPath: path + "/Model.xcdatamodel", withIntermediateDirectories: true)
        try Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]).write(to: URL(fileURLWithPath: path + "/Model.xcdatamodel/elements"))
        try Data([0x00]).write(to: URL(fileURLWithPath: path + "/Model.xcdatamodel/layout"))
        let result = try CoreDataImport.read(path: path)
        #expect(result.versions.map(\.number) == [2])
        #expect(result.skipped.map(\.description) == [
            "Model (v1): only binary 'elements'/'layout' files (an Xcode 3 model): skipped; open it in Xcode and save it to get XML",
        ])
    }

    @Test func aLargeGeneratedBundleImportsAndLoads() throws {
        let path = try CoreDataBundleGenerator.write(versions: 120, entities: 80, into: TestStore.directory())
        let result = try CoreDataImport.read(path: path)
        #expect(result.versions.map(\.number) == Array(1...120))
        #expect(result.notCarried.isEmpty)
        for version in [result.versions[0], result.versions[59], result.versions[119]] {
            let model = try ModelLoader.load(yaml: version.yaml, file: "\(version.number).yaml")
            // Every generated entity is carried (none dropped by the import).
            #expect(model.entities.count == 80)
        }
    }
}
