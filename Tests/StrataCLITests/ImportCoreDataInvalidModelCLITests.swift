import Foundation
import Testing
import StrataTestSupport

/// Models that Xcode's model compiler refuses, on the built binary: exit 2 at the element, nothing written. Before,
/// each was a not-carried line and exit 0: an `<entity>` without a name was skipped, so the import wrote "A is
/// removed with all its objects" into the next step; a second entity or property of one name was dropped; a
/// relationship to an entity the model does not have was left out.
@Suite struct ImportCoreDataInvalidModelCLITests {
    static let cases: [(body: String, error: String)] = [
        ("  <entity>\n    <attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/>\n  </entity>",
         "3:3: error: invalid model: an <entity> has no name"),
        ("  <entity name=\"A\"/>\n  <entity name=\"A\"/>",
         "4:3: error: invalid model: a second entity named 'A' (the first is at line 3)"),
        ("  <entity name=\"A\">\n    <attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/>\n    <relationship name=\"x\" maxCount=\"1\" destinationEntity=\"A\"/>\n  </entity>",
         "5:5: error: invalid model: a second property named 'x' in entity 'A' (the first is at line 4)"),
        ("  <entity name=\"A\">\n    <attribute name=\"x\" optional=\"YES\" transient=\"YES\" attributeType=\"String\"/>\n    <attribute name=\"x\" attributeType=\"String\"/>\n  </entity>",
         "5:5: error: invalid model: a second property named 'x' in entity 'A' (the first is at line 4)"),
        ("  <entity name=\"A\">\n    <relationship name=\"b\" maxCount=\"1\" destinationEntity=\"B\"/>\n  </entity>",
         "4:5: error: invalid model: the destination entity 'B' of relationship 'A.b' is not in the model"),
        ("  <entity name=\"A\">\n    <relationship name=\"b\" maxCount=\"1\"/>\n  </entity>",
         "4:5: error: invalid model: relationship 'A.b' has no destinationEntity"),
        ("  <entity name=\"A\" parentEntity=\"P\"/>", "3:3: error: invalid model: the parent entity 'P' of 'A' is not in the model"),
        ("  <entity name=\"A\">\n    <attribute optional=\"YES\" attributeType=\"String\"/>\n  </entity>",
         "4:5: error: invalid model: an <attribute> of entity 'A' has no name"),
        ("  <entity name=\"A\">\n    <attribute name=\"x\" optional=\"YES\" attributeType=\"Strnig\"/>\n  </entity>",
         "4:5: error: invalid model: attribute 'A.x' has an unknown attributeType 'Strnig'"),
    ]

    @Test(arguments: cases) func refusedModelIsExit2AtTheElementAndWritesNothing(_ body: String, _ error: String) throws {
        let dir = try ImportCoreDataCLITests.directory()
        let valid = #"<model><entity name="A"><attribute name="x" optional="YES" attributeType="String"/></entity></model>"#
        let path = try ImportCoreDataCLITests.bundle([
            ("App", valid),
            ("App 2", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n\(body)\n</model>\n"),
        ], in: dir)
        let run = try CLI.run(["import", "coredata", path], in: dir)
        #expect(run.status == 2, "\(run.stdout)")
        #expect(run.stdout == "")
        #expect(run.stderr == """
            \(path)/App 2.xcdatamodel/contents:\(error)
            hint: Xcode's model compiler refuses it too: fix the model in Xcode, or fix the XML by hand

            """)
        #expect(!FileManager.default.fileExists(atPath: dir + "/models"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/migrations"))
        let json = try CLI.run(["import", "coredata", path, "--format", "json"], in: dir)
        #expect(json.status == 2)
        #expect((try CLI.json(json.stdout)["error"] as? [String: Any])?["exitCode"] as? Int == 2)
        #expect(!FileManager.default.fileExists(atPath: dir + "/models"))
    }

    /// Every refusal of a file is reported, in file order, and both versions' at once.
    @Test func everyRefusalOfEveryVersionIsReported() throws {
        let dir = try ImportCoreDataCLITests.directory()
        let path = try ImportCoreDataCLITests.bundle([
            ("App", "<model>\n<entity name=\"A\"/>\n<entity name=\"A\"/>\n</model>"),
            ("App 2", "<model>\n<entity/>\n<entity name=\"B\">\n<relationship name=\"c\" maxCount=\"1\" destinationEntity=\"C\"/>\n</entity>\n</model>"),
        ], in: dir)
        let run = try CLI.run(["import", "coredata", path], in: dir)
        #expect(run.status == 2)
        let errors = run.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map { $0.replacingOccurrences(of: path + "/", with: "") }
        #expect(errors == [
            "App.xcdatamodel/contents:3:1: error: invalid model: a second entity named 'A' (the first is at line 2)",
            "App 2.xcdatamodel/contents:2:1: error: invalid model: an <entity> has no name",
            "App 2.xcdatamodel/contents:4:1: error: invalid model: the destination entity 'C' of relationship 'B.c' is not in the model",
        ], "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/models"))
    }

    /// `Undefined` and `ObjectID` are Core Data types Strata does not store: listed, as Docs/coredata.md says.
    @Test func undefinedAndObjectIDAreListedNotRefused() throws {
        let dir = try ImportCoreDataCLITests.directory()
        let path = try ImportCoreDataCLITests.bundle([
            ("App", #"<model><entity name="A"><attribute name="u" optional="YES" attributeType="Undefined"/><attribute name="o" optional="YES" attributeType="ObjectID"/></entity></model>"#),
        ], in: dir)
        let run = try CLI.run(["import", "coredata", path], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("""
            not carried (2):
              v1 A.u: attribute type 'Undefined' is not carried (Strata has no such stored type)
              v1 A.o: attribute type 'ObjectID' is not carried (Strata has no such stored type)

            """), "\(run.stdout)")
    }
}
