import Foundation
import Testing
@testable import StrataCore

/// `strata import coredata`'s pure part: Xcode model XML → model YAML, and what is not carried.
@Suite struct ImportCoreDataTests {
    static let fixtures = TestStore.packageRoot + "/Tests/StrataTests/Fixtures/coredata"

    /// A bundle in a temporary directory: `versions` are (folder name, contents XML).
    static func bundle(_ versions: [(String, String)], current: String? = nil, name: String = "Model") throws -> String {
        let path = TestStore.directory() + "/\(name).xcdatamodeld"
        for (folder, xml) in versions {
            try FileManager.default.createDirectory(atPath: path + "/\(folder).xcdatamodel", withIntermediateDirectories: true)
            try xml.write(toFile: path + "/\(folder).xcdatamodel/contents", atomically: true, encoding: .utf8)
        }
        if let current {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0">
                <dict>
                	<key>_XCCurrentVersionName</key>
                	<string>\(current).xcdatamodel</string>
                </dict>
                </plist>
                """.write(toFile: path + "/.xccurrentversion", atomically: true, encoding: .utf8)
        }
        return path
    }

    /// A model XML with the given entity bodies.
    static func model(_ entities: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(entities)
        </model>
        """
    }

    static func single(_ entities: String) throws -> CoreDataImport.Result {
        try CoreDataImport.read(path: bundle([("Model", model(entities))]))
    }

    static func errors(_ body: () throws -> Void) -> [String] {
        do { try body(); return [] } catch let error as DiagnosticList { return error.diagnostics.map(\.headline) } catch {
            return ["unexpected \(error)"]
        }
    }

    // MARK: - The documented YAML

    @Test func shopFixtureImportsToTheExactYAML() throws {
        let result = try CoreDataImport.read(path: Self.fixtures + "/Shop.xcdatamodel")
        #expect(result.versions.count == 1)
        let expected = try String(contentsOfFile: Self.fixtures + "/Shop.expected.yaml", encoding: .utf8)
        #expect(result.versions[0].yaml == expected)
        #expect(result.versions[0].number == 1 && result.versions[0].name == "Shop")
    }

    @Test func shopFixtureLoadsBackIntoTheModel() throws {
        let result = try CoreDataImport.read(path: Self.fixtures + "/Shop.xcdatamodel")
        let model = try ModelLoader.load(yaml: result.versions[0].yaml, file: "1.yaml")
        #expect(model.entities.map(\.name).sorted() == ["Book", "Customer", "Item", "Lamp", "LoyaltyCard", "Order", "OrderLine"])
        // The file keeps the XML's entity order.
        #expect(result.versions[0].yaml.components(separatedBy: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") } == ["  Customer:", "  Item:", "  Book:", "  Lamp:", "  LoyaltyCard:", "  Order:", "  OrderLine:"])
        let customer = try #require(model.entity("Customer"))
        #expect(customer.attributes.map(\.name) == ["email", "id", "joined", "nickname", "photo", "preferences", "website"])
        #expect(customer.attribute("email")?.isOptional == false)
        #expect(customer.attribute("email")?.pattern == #"[^@ ]+@[^@ ]+\.[a-z&]+"#)
        #expect(customer.attribute("id")?.defaultValue == .text("6f1c5c2a-0a4b-4c1e-9d7e-2b8e6a1f3c4d"))
        // 736560000 s after 2001-01-01 is 2024-05-05T00:00:00Z; 0 is the reference date itself.
        #expect(customer.attribute("joined")?.defaultValue == .real(1_714_867_200))
        #expect(customer.attribute("joined")?.minValue == .real(978_307_200))
        #expect(customer.attribute("nickname")?.defaultValue == .text("Ann \"A\" <1>"))
        #expect(customer.attribute("nickname")?.minLength == 2 && customer.attribute("nickname")?.maxLength == 40)
        let preferences = try #require(customer.attribute("preferences"))
        #expect(preferences.type == .binary)
        #expect(preferences.userInfo == ["attributeType": "Transformable", "valueTransformerName": "NSSecureUnarchiveFromData",
                                         "customClassName": "[String: Any]"])
        #expect(customer.uniqueness == [["email"]] && customer.indexes == [["email"]])
        #expect(customer.userInfo == ["owner": "crm & sales"])
        #expect(customer.relationship("card")?.deleteRule == .cascade && customer.relationship("card")?.isToMany == false)
        #expect(customer.relationship("orders")?.deleteRule == .deny && customer.relationship("orders")?.isToMany == true)
        #expect(model.entity("Item")?.isAbstract == true)
        #expect(model.entity("Book")?.parent == "Item" && model.entity("Lamp")?.parent == "Item")
        #expect(model.entity("Book")?.attribute("pages")?.type == .int32)
        #expect(model.entity("Lamp")?.attribute("pages")?.type == .string)
        #expect(model.entity("Item")?.attribute("price")?.defaultValue == .text("0"))
        let card = try #require(model.entity("LoyaltyCard"))
        #expect(card.versionHashModifier == "2" && card.attribute("active")?.versionHashModifier == "b")
        #expect(card.attribute("active")?.defaultValue == .integer(1))
        #expect(card.attribute("points")?.defaultValue == nil)
        #expect(card.relationship("owner")?.isOptional == false)
        let order = try #require(model.entity("Order"))
        #expect(order.attribute("group")?.isIndexed == true && order.attribute("group")?.maxValue == .integer(9))
        #expect(order.attribute("placed")?.minValue == .real(946_684_800))
        let lines = try #require(order.relationship("lines"))
        #expect(lines.isToMany && lines.isOrdered && !lines.isOptional && lines.minCount == 1 && lines.maxCount == 50)
        #expect(lines.userInfo == ["note": "kept in order"])
        #expect(order.relationship("watchers")?.deleteRule == .noAction && order.relationship("watchers")?.inverse == nil)
        #expect(order.indexes == [["placed", "customer"]])
        #expect(model.warnings.map(\.message) == ["relationship 'Order.watchers' has no inverse"])
    }

    @Test func shopFixtureListsWhatItDoesNotCarry() throws {
        let result = try CoreDataImport.read(path: Self.fixtures + "/Shop.xcdatamodel")
        let listed = result.notCarried.map { [$0.entity ?? "-", $0.property ?? "-", $0.reason] }
        #expect(listed == [
            ["-", "-", "unknown XML attribute futureFlag=\"1\" on <model> at line 3: skipped"],
            ["Customer", "photo", "allowsExternalBinaryDataStorage is not carried (Strata stores binary data in the row)"],
            ["Customer", "fullName", "transient attribute is not carried (it is never stored)"],
            ["Customer", "cache", "transient attribute is not carried (it is never stored)"],
            ["Customer", "orderCount", "derived attribute is not carried (its value is computed by Core Data from orders.@count)"],
            ["Customer", "address", "composite attribute is not carried (composite attributes are not supported)"],
            ["Customer", "recentOrders", "fetched property is not carried (it is a stored fetch request, not data)"],
            ["Book", "pages", "default 'NO' is not carried (not a valid int32: 'NO' is not an integer)"],
            ["LoyaltyCard", "points", "default 'NO' is not carried (not a valid int64: 'NO' is not an integer)"],
            ["Order", "watchers", "unknown XML attribute mysteryFlag=\"YES\" on <relationship> at line 63: skipped"],
            ["Order", "-", "unknown element <hint> at line 70: skipped"],
            ["Order", "-", "fetch request 'BigOrders' is not carried (fetch requests are application code)"],
            ["-", "-", "configuration 'Cloud' is not carried (every entity is imported into one store)"],
            ["Customer", "orders", "index [orders] is not carried ('orders' is a to-many relationship)"],
        ])
        #expect(result.notCarried.allSatisfy { $0.version == 1 && $0.versionName == "Shop" && $0.file.hasSuffix("Shop.xcdatamodel/contents") })
    }

    // MARK: - Types and options, one by one

    static let types: [(String, String)] = [
        ("Integer 16", "{ type: int16 }"), ("Integer 32", "{ type: int32 }"), ("Integer 64", "{ type: int64 }"),
        ("Decimal", "{ type: decimal }"), ("Double", "{ type: double }"), ("Float", "{ type: float }"),
        ("String", "{ type: string }"), ("Boolean", "{ type: bool }"), ("Date", "{ type: date }"),
        ("Binary", "{ type: binary }"), ("UUID", "{ type: uuid }"), ("URI", "{ type: uri }"),
        ("Transformable", "{ type: binary, userInfo: { attributeType: \"Transformable\" } }"),
    ]

    @Test(arguments: types) func attributeType(_ coreData: String, _ yaml: String) throws {
        let result = try Self.single(#"<entity name="E"><attribute name="value" optional="YES" attributeType="\#(coreData)"/></entity>"#)
        let text = result.versions[0].yaml
        #expect(text.contains("\n      value: \(yaml)\n"))
        _ = try ModelLoader.load(yaml: text, file: "1.yaml")
        #expect(result.notCarried.isEmpty)
    }

    static let defaults: [(String, String, String)] = [
        ("Integer 16", "-7", "-7"), ("Integer 64", "9223372036854775807", "9223372036854775807"), ("Decimal", "12.50", "12.5"),
        ("Double", "0.25", "0.25"), ("Float", "1e-3", "0.001"), ("String", "a: b", "\"a: b\""), ("String", "yes", "\"yes\""),
        ("Boolean", "YES", "true"), ("Boolean", "NO", "false"), ("Date", "0", "\"2001-01-01T00:00:00Z\""),
        ("Date", "-978307200.5", "\"1969-12-31T23:59:59.500Z\""), ("UUID", "6F1C5C2A-0A4B-4C1E-9D7E-2B8E6A1F3C4D", "\"6f1c5c2a-0a4b-4c1e-9d7e-2b8e6a1f3c4d\""),
        ("URI", "https://example.com/a?b=c", "\"https://example.com/a?b=c\""), ("Integer 16", "1e3", "1000"), ("Integer 32", "70000.0", "70000"),
    ]

    @Test(arguments: defaults) func defaultLiteral(_ type: String, _ xml: String, _ yaml: String) throws {
        let result = try Self.single(#"<entity name="E"><attribute name="value" optional="YES" attributeType="\#(type)" defaultValueString="\#(xml)"/></entity>"#)
        #expect(result.versions[0].yaml.contains("default: \(yaml) }"), "\(result.versions[0].yaml)")
        _ = try ModelLoader.load(yaml: result.versions[0].yaml, file: "1.yaml")
    }

    static let invalidDefaults: [(String, String, String)] = [
        ("Integer 64", "NO", "default 'NO' is not carried (not a valid int64: 'NO' is not an integer)"),
        ("Integer 16", "40000", "default '40000' is not carried (not a valid int16: 40000 is out of range for int16 (-32768...32767))"),
        ("Boolean", "maybe", "default 'maybe' is not carried (not a valid bool: 'maybe' is not a boolean (use true/false or YES/NO))"),
        ("Date", "now", "default 'now' is not carried (not a date: Core Data writes seconds since 2001-01-01)"),
        ("UUID", "", "default '' is not carried (not a valid uuid: '' is not a UUID)"),
        ("Binary", "AA==", "default 'AA==' of a Binary attribute is not carried (binary data has no default literal)"),
        // Whole numbers written as `1e5` or `70000.0` are checked like `70000` (they were dropped without a listing).
        ("Integer 16", "1e5", "default '1e5' is not carried (not a valid int16: 100000 is out of range for int16 (-32768...32767))"),
        ("Integer 16", "70000.0", "default '70000.0' is not carried (not a valid int16: 70000 is out of range for int16 (-32768...32767))"),
        ("Integer 32", "-3e9", "default '-3e9' is not carried (not a valid int32: -3000000000 is out of range for int32 (-2147483648...2147483647))"),
        ("Integer 64", "1e300", "default '1e300' is not carried (not a valid int64: '1e300' is not an integer)"),
        ("Integer 64", "9.3e18", "default '9.3e18' is not carried (not a valid int64: '9.3e18' is not an integer)"),
        ("Integer 64", "inf", "default 'inf' is not carried (not a valid int64: 'inf' is not an integer)"),
        ("Integer 16", "nan", "default 'nan' is not carried (not a valid int16: 'nan' is not an integer)"),
        ("Integer 16", "2.5", "default '2.5' is not carried (not a valid int16: '2.5' is not an integer)"),
    ]

    @Test(arguments: invalidDefaults) func invalidDefaultIsListedNotFatal(_ type: String, _ xml: String, _ reason: String) throws {
        let result = try Self.single(#"<entity name="E"><attribute name="value" attributeType="\#(type)" defaultValueString="\#(xml)"/></entity>"#)
        #expect(result.notCarried.map(\.reason) == [reason])
        #expect(!result.versions[0].yaml.contains("default"))
        _ = try ModelLoader.load(yaml: result.versions[0].yaml, file: "1.yaml")
    }

    static let listed: [(String, [String])] = [
        (#"<attribute name="d" optional="YES" attributeType="Date" defaultDateTimeInterval="1e300"/>"#,
         ["default '1e300' is not carried (the date is outside years 1583–9999)"]),
        (#"<attribute name="n" optional="YES" attributeType="Integer 64" minValueString="9223372036854775808"/>"#,
         ["minimum '9223372036854775808' is not carried (not a valid int64: '9223372036854775808' is not an integer)"]),
        (#"<attribute name="x" optional="YES" attributeType="Double" minValueString="5" maxValueString="1"/>"#,
         ["bounds 5.0…1.0 are not carried (minimum above maximum)"]),
        (#"<attribute name="m" optional="YES" attributeType="Integer 16" minValueString="-1e5" maxValueString="9e4"/>"#,
         ["minimum '-1e5' is not carried (not a valid int16: -100000 is out of range for int16 (-32768...32767))",
          "maximum '9e4' is not carried (not a valid int16: 90000 is out of range for int16 (-32768...32767))"]),
        (#"<attribute name="t" optional="YES" attributeType="Date" minDateTimeInterval="0" maxDateTimeInterval="-1"/>"#,
         ["bounds 2001-01-01T00:00:00Z…2000-12-31T23:59:59Z are not carried (minimum above maximum)"]),
        (#"<attribute name="t" optional="YES" attributeType="Date" minDateTimeInterval="0" defaultDateTimeInterval="-86400.5"/>"#,
         ["default '-86400.5' is not carried (it breaks the attribute's own rule: less than min 2001-01-01T00:00:00Z)"]),
        (#"<attribute name="t" optional="YES" attributeType="Date" maxValueString="86400" defaultDateTimeInterval="1e6"/>"#,
         ["default '1e6' is not carried (it breaks the attribute's own rule: greater than max 2001-01-02T00:00:00Z)"]),
        (#"<attribute name="z" optional="perhaps" attributeType="String" indexed="sometimes"/>"#,
         [#"optional="perhaps" is not YES or NO: read as NO"#, #"indexed="sometimes" is not YES or NO: read as NO"#]),
        (#"<attribute name="y" optional="YES" transient="1?" attributeType="Binary" allowsExternalBinaryDataStorage=""/>"#,
         [#"transient="1?" is not YES or NO: read as NO"#, #"allowsExternalBinaryDataStorage="" is not YES or NO: read as NO"#]),
        (#"<relationship name="r" optional="Y" toMany="YES" ordered="often" minCount="two" maxCount="-1" destinationEntity="E"/>"#,
         [#"ordered="often" is not YES or NO: read as NO"#, #"optional="Y" is not YES or NO: read as NO"#,
          #"minCount="two" is not a count: read as 0 (no bound)"#, #"maxCount="-1" is not a count: read as 0 (no bound)"#]),
        (#"<relationship name="r" optional="YES" toMany="many" maxCount="1" destinationEntity="E"/>"#,
         [#"toMany="many" is not YES or NO: read as NO"#]),
        (#"<attribute name="s" optional="YES" attributeType="String" regularExpressionString="[a-"/>"#,
         ["regular expression '[a-' is not carried (invalid pattern)"]),
        (#"<attribute name="o" optional="YES" attributeType="ObjectID"/>"#,
         ["attribute type 'ObjectID' is not carried (Strata has no such stored type)"]),
        (#"<relationship name="r" optional="YES" toMany="YES" indexed="YES" deletionRule="Nullify" destinationEntity="E"/>"#,
         ["index over a to-many relationship is not carried (a to-many has no column to index)"]),
        (#"<fetchIndex name="f"><fetchIndexElement expression="length:(s)" expressionType="Integer 64" type="Binary"/></fetchIndex>"#,
         ["fetch index 'f' indexes an expression: not carried (indexes name stored properties)"]),
        (#"<attribute name="s" optional="YES" attributeType="String"/><fetchIndex name="f"><fetchIndexElement property="s" type="Binary" order="descending"/></fetchIndex>"#,
         ["descending order in fetch index 'f' is not carried (the index is kept, ascending; SQLite reads it both ways)"]),
        (#"<attribute name="p" optional="YES" attributeType="Binary"/><fetchIndex name="g"><fetchIndexElement property="p" type="RTree"/></fetchIndex>"#,
         ["fetch index 'g' is an R-tree index: not carried (SQLite indexes are B-trees)"]),
        (#"<uniquenessConstraints><uniquenessConstraint><constraint value="ghost"/></uniquenessConstraint></uniquenessConstraints>"#,
         ["uniqueness constraint [ghost] is not carried ('ghost' is not a stored attribute of 'E')"]),
    ]

    @Test(arguments: listed) func oddInputIsListedAndTheRestLoads(_ body: String, _ reasons: [String]) throws {
        let result = try Self.single("<entity name=\"E\">\(body)</entity>")
        #expect(result.notCarried.map(\.reason) == reasons)
        _ = try ModelLoader.load(yaml: result.versions[0].yaml, file: "1.yaml")
    }

    @Test func defaultBreakingItsOwnRuleIsListed() throws {
        let result = try Self.single(#"<entity name="E"><attribute name="n" attributeType="Integer 32" minValueString="1" maxValueString="5" defaultValueString="0"/></entity>"#)
        #expect(result.notCarried.map(\.reason) == ["default '0' is not carried (it breaks the attribute's own rule: less than min 1)"])
        #expect(result.versions[0].yaml.contains(#"      "n": { type: int32, optional: false, min: 1, max: 5 }"#))
    }

    @Test(arguments: [0.0, -978_307_200.5, 1_714_867_200, 951_782_400, -12_212_553_600, 253_402_300_799.25, 1e9 + 0.0004, -1])
    func datesAreWrittenAsDateTextWritesThem(_ seconds: Double) {
        #expect(ImportYAMLWriter.iso8601(seconds) == DateText.format((seconds * 1000).rounded() / 1000))
        #expect(DateText.parse(ImportYAMLWriter.iso8601(seconds)).map { ($0 * 1000).rounded() } == (seconds * 1000).rounded())
    }

    static let relationships: [(String, String)] = [
        (#"optional="YES" maxCount="1" deletionRule="Nullify""#, "{ destination: B, inverse: a }"),
        (#"minCount="1" maxCount="1" deletionRule="Cascade""#, "{ destination: B, inverse: a, optional: false, deleteRule: cascade }"),
        (#"optional="YES" toMany="YES" deletionRule="Deny""#, "{ destination: B, inverse: a, toMany: true, deleteRule: deny }"),
        (#"optional="YES" toMany="YES" ordered="YES" deletionRule="No Action""#, "{ destination: B, inverse: a, toMany: true, ordered: true, deleteRule: noAction }"),
        (#"toMany="YES" minCount="2" maxCount="9" deletionRule="Nullify""#, "{ destination: B, inverse: a, toMany: true, optional: false, minCount: 2, maxCount: 9 }"),
        (#"optional="YES" toMany="YES" maxCount="0""#, "{ destination: B, inverse: a, toMany: true }"),
    ]

    @Test(arguments: relationships) func relationshipOptions(_ xml: String, _ yaml: String) throws {
        let result = try Self.single("""
            <entity name="A"><relationship name="b" \(xml) destinationEntity="B" inverseName="a" inverseEntity="B"/></entity>
            <entity name="B"><relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="A"/></entity>
            """)
        #expect(result.versions[0].yaml.contains("\n      b: \(yaml)\n"), "\(result.versions[0].yaml)")
        let model = try ModelLoader.load(yaml: result.versions[0].yaml, file: "1.yaml")
        #expect(model.entity("A")?.relationship("b")?.destination == "B")
    }

    @Test func keywordsOneToOnesAndMissingInversesLoad() throws {
        let result = try Self.single("""
            <entity name="Order"><attribute name="index" optional="YES" attributeType="Integer 32"/><attribute name="desc" optional="YES" attributeType="String"/>
              <relationship name="select" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Group" inverseName="order" inverseEntity="Group"/>
              <relationship name="from" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Group"/></entity>
            <entity name="Group"><attribute name="true" optional="YES" attributeType="Boolean"/>
              <relationship name="order" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Order" inverseName="select" inverseEntity="Order"/></entity>
            """)
        let text = result.versions[0].yaml
        #expect(text.contains(#"      "true": { type: bool }"#))
        let model = try ModelLoader.load(yaml: text, file: "1.yaml")
        #expect(model.entity("Group")?.attribute("true")?.type == .bool)
        #expect(model.warnings.map(\.message) == ["relationship 'Order.from' has no inverse"])
    }

    @Test func caseClashesGetTheirOwnColumnAndTable() throws {
        let result = try Self.single("""
            <entity name="Group"><attribute name="URL" optional="YES" attributeType="URI"/><attribute name="url" optional="YES" attributeType="String"/>
              <relationship name="Url" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="GROUP"/></entity>
            <entity name="GROUP"><attribute name="x" optional="YES" attributeType="String"/></entity>
            """)
        let text = result.versions[0].yaml
        #expect(text.contains("      url: { type: string, column: url_2 }\n"))
        #expect(text.contains("      Url: { destination: GROUP, column: Url_3 }\n"))
        #expect(text.contains("  GROUP:\n    table: GROUP_2\n"))
        let model = try ModelLoader.load(yaml: text, file: "1.yaml")
        #expect(model.entity("Group")?.attribute("url")?.column == "url_2")
    }

    @Test func selfInversesOrderedManyToManyAndHierarchiesLoad() throws {
        let result = try Self.single("""
            <entity name="Person"><attribute name="name" optional="YES" attributeType="String"/>
              <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
              <relationship name="spouse" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="spouse" inverseEntity="Person"/>
              <relationship name="pets" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Animal" inverseName="owner" inverseEntity="Animal"/>
              <relationship name="tags" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="people" inverseEntity="Tag"/></entity>
            <entity name="Tag"><relationship name="people" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="tags" inverseEntity="Person"/></entity>
            <entity name="Animal" isAbstract="YES"><attribute name="name" optional="YES" attributeType="String"/>
              <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/></entity>
            <entity name="Dog" parentEntity="Animal"><attribute name="Name" optional="YES" attributeType="String"/><attribute name="size" optional="YES" attributeType="Integer 16"/></entity>
            <entity name="Cat" parentEntity="Animal"><attribute name="size" optional="YES" attributeType="String"/></entity>
            <entity name="Kitten" parentEntity="Cat"/>
            """)
        #expect(result.notCarried.isEmpty)
        let model = try ModelLoader.load(yaml: result.versions[0].yaml, file: "1.yaml")
        #expect(model.warnings.isEmpty)
        #expect(model.entity("Kitten")?.parent == "Cat" && model.entity("Animal")?.isAbstract == true)
    }

    @Test func unreadableFlagsAndCountsAreListedAndReadAsNoAndZero() throws {
        let result = try Self.single("""
            <entity name="C" isAbstract="maybe"><attribute name="z" optional="perhaps" attributeType="String" indexed="sometimes"/>
              <relationship name="ds" optional="YES" toMany="YES" minCount="two" deletionRule="Obliterate" destinationEntity="C"/></entity>
            """)
        #expect(result.notCarried.map { [$0.entity ?? "-", $0.property ?? "-", $0.reason] } == [
            ["C", "-", #"isAbstract="maybe" is not YES or NO: read as NO"#],
            ["C", "z", #"optional="perhaps" is not YES or NO: read as NO"#],
            ["C", "z", #"indexed="sometimes" is not YES or NO: read as NO"#],
            ["C", "ds", #"minCount="two" is not a count: read as 0 (no bound)"#],
            ["C", "ds", "delete rule 'Obliterate' is unknown: imported as nullify"],
        ])
        #expect(result.versions[0].yaml.contains("""
              C:
                attributes:
                  z: { type: string, optional: false }
                relationships:
                  ds: { destination: C, toMany: true }

            """), "\(result.versions[0].yaml)")
        _ = try ModelLoader.load(yaml: result.versions[0].yaml, file: "1.yaml")
    }

    @Test func abstractEntityWithoutSubEntitiesIsImportedConcrete() throws {
        let result = try Self.single(#"<entity name="Base" isAbstract="YES"><attribute name="x" optional="YES" attributeType="String"/></entity>"#)
        #expect(!result.versions[0].yaml.contains("abstract"))
        #expect(result.notCarried.map(\.reason) == ["abstract entity without sub-entities: imported as a concrete entity"])
        _ = try ModelLoader.load(yaml: result.versions[0].yaml, file: "1.yaml")
    }
}
