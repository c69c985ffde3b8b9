import Foundation
import GRDB
import Testing
import StrataTestSupport

/// Renames that swap names, on the built binary. Core Data matches by renaming identifier, so two properties (or
/// entities) whose identifiers name each other swap their values; Strata's `renamedFrom` matches a name to itself
/// first and cannot say that. Before, the import dropped the identifiers without a word (the values stayed under
/// their names), and a `renamedFrom` swap written by hand was ignored the same way: now the import lists each such
/// match as not carried, with the mapping-file line that carries it, and the model check refuses the YAML (exit 2).
@Suite struct ImportCoreDataRenamesCLITests {
    static let header = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#

    static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func swappedAttributesAreListedNotCarriedAndAMappingFileMovesThem() throws {
        let dir = try ImportCoreDataCLITests.directory()
        let path = try ImportCoreDataCLITests.bundle([
            ("App", Self.header + #"<entity name="Person"><attribute name="first" optional="YES" attributeType="String"/><attribute name="last" optional="YES" attributeType="String"/></entity></model>"#),
            ("App 2", Self.header + #"<entity name="Person"><attribute name="last" optional="YES" attributeType="String" elementID="first"/><attribute name="first" optional="YES" attributeType="String" elementID="last"/></entity></model>"#),
        ], in: dir)
        let run = try CLI.run(["import", "coredata", path], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(ImportCoreDataCLITests.read(dir + "/models/2.yaml") == """
            # Imported from App 2.xcdatamodel by `strata import coredata`.
            version: 2
            entities:
              Person:
                attributes:
                  last: { type: string }
                  first: { type: string }

            """)
        let skeleton = "the mapping file of v1 → v2 (`strata mapping 1 2 > migrations/v2-mapping.yaml` prints a skeleton)"
        let why = "not carried (renamedFrom cannot swap names or take over one the previous version has; Strata keeps the values under their names)"
        #expect(run.stdout.contains("""
            not carried (2):
              v2 Person.last: renaming ID 'first' matches v1's attribute 'first', but v1 has a 'last' too: \(why); to move them as Core Data does, set `last: "first"` under Person's attributes in \(skeleton)
              v2 Person.first: renaming ID 'last' matches v1's attribute 'last', but v1 has a 'first' too: \(why); to move them as Core Data does, set `first: "last"` under Person's attributes in \(skeleton)
            lint: 2 model version(s), 0 error(s), 0 warning(s)

            """), "\(run.stdout)")
        let json = try CLI.json(try CLI.run(["import", "coredata", path, "--format", "json"], in: dir).stdout)
        let notCarried = try #require(json["notCarried"] as? [[String: Any]])
        #expect(notCarried.map { "\($0["version"] ?? "") \($0["entity"] ?? "").\($0["property"] ?? "")" } == ["2 Person.last", "2 Person.first"])
        #expect(notCarried.allSatisfy { ($0["file"] as? String)?.hasSuffix("App 2.xcdatamodel/contents") == true })

        // As imported, each value stays under its name.
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", "s.sqlite"], in: dir).status == 0)
        try E2E.execute(dir + "/s.sqlite", "INSERT INTO Person (first, last) VALUES ('Ada', 'Lovelace')")
        try FileManager.default.copyItem(atPath: dir + "/s.sqlite", toPath: dir + "/t.sqlite")
        #expect(try CLI.run(["migrate", "--store", "s.sqlite"], in: dir).status == 0)
        #expect(try E2E.rows(dir + "/s.sqlite", "SELECT first, last FROM Person") == ["Ada|Lovelace"])
        // With the lines the listing names, the values move as Core Data moves them.
        try Self.write("mapping: { from: 1, to: 2 }\nentities:\n  Person:\n    attributes: { last: \"first\", first: \"last\" }\n",
                       dir + "/migrations/v2-mapping.yaml")
        let mapped = try CLI.run(["migrate", "--store", "t.sqlite"], in: dir)
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(try E2E.rows(dir + "/t.sqlite", "SELECT first, last FROM Person") == ["Lovelace|Ada"])
    }

    @Test func swappedEntitiesAreListedNotCarried() throws {
        let dir = try ImportCoreDataCLITests.directory()
        let path = try ImportCoreDataCLITests.bundle([
            ("App", Self.header + #"<entity name="A"><attribute name="x" optional="YES" attributeType="String"/></entity><entity name="B"><attribute name="y" optional="YES" attributeType="String"/></entity></model>"#),
            ("App 2", Self.header + #"<entity name="B" elementID="A"><attribute name="x" optional="YES" attributeType="String"/></entity><entity name="A" elementID="B"><attribute name="y" optional="YES" attributeType="String"/></entity></model>"#),
        ], in: dir)
        let run = try CLI.run(["import", "coredata", path], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(ImportCoreDataCLITests.read(dir + "/models/2.yaml")?.contains("renamedFrom") == false)
        let skeleton = "the mapping file of v1 → v2 (`strata mapping 1 2 > migrations/v2-mapping.yaml` prints a skeleton)"
        let why = "not carried (renamedFrom cannot swap names or take over one the previous version has; Strata keeps the objects under their names)"
        #expect(run.stdout.contains("""
            not carried (2):
              v2 B: renaming ID 'A' matches v1's entity 'A', but v1 has a 'B' too: \(why); to move them as Core Data does, give B `source: A` in \(skeleton)
              v2 A: renaming ID 'B' matches v1's entity 'B', but v1 has a 'A' too: \(why); to move them as Core Data does, give A `source: B` in \(skeleton)

            """), "\(run.stdout)")
    }

    /// A relationship swap has no mapping-file line: the listing says so.
    @Test func swappedRelationshipsAreListedNotCarried() throws {
        let dir = try ImportCoreDataCLITests.directory()
        let body = { (p: String, q: String) in
            Self.header + #"<entity name="T"><relationship name="p" optional="YES" maxCount="1" destinationEntity="T"\#(p)/><relationship name="q" optional="YES" maxCount="1" destinationEntity="T"\#(q)/></entity></model>"#
        }
        let path = try ImportCoreDataCLITests.bundle([("App", body("", "")), ("App 2", body(#" elementID="q""#, #" elementID="p""#))], in: dir)
        let run = try CLI.run(["import", "coredata", path], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("""
              v2 T.p: renaming ID 'q' matches v1's relationship 'q', but v1 has a 'p' too: not carried (renamedFrom cannot swap names or take over one the previous version has; Strata keeps the links under their names); a mapping file cannot move links between relationships

            """), "\(run.stdout)")
    }

    @Test func renamedFromSwapIsExit2AtItAndTheStoreIsUntouched() throws {
        let dir = try ImportCoreDataCLITests.directory()
        try Self.write("version: 1\nentities:\n  Person:\n    attributes:\n      first: { type: string }\n      last: { type: string }\n",
                       dir + "/models/1.yaml")
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite"], in: dir).status == 0)
        try E2E.execute(dir + "/s.sqlite", "INSERT INTO Person (first, last) VALUES ('Ada', 'Lovelace')")
        try Self.write("""
            version: 2
            entities:
              Person:
                attributes:
                  last: { type: string, renamedFrom: first }
                  first: { type: string, renamedFrom: last }

            """, dir + "/models/2.yaml")
        let message = "v1 → v2: Person.last is renamedFrom 'first', but v1 has both last and first, and v2 keeps first: "
            + "renamedFrom cannot swap names or move them round a cycle (each name is matched to itself first)"
        for command in [["lint"], ["diff", "1", "2"], ["migrate", "--store", "s.sqlite"]] {
            let run = try CLI.run(command, in: dir)
            #expect(run.status == 2, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("models/2.yaml:5:42: error: \(message)\n"
                + "          last: { type: string, renamedFrom: first }\n" + String(repeating: " ", count: 45) + "^\n"
                + "hint: remove renamedFrom and move the values in a mapping file: `strata mapping 1 2 > migrations/v2-mapping.yaml` "
                + "prints a skeleton; set `last: \"first\"` under Person's attributes\n"), "\(command): \(run.stderr)")
            #expect(run.stderr.contains("models/2.yaml:6:43: error: v1 → v2: Person.first is renamedFrom 'last'"), "\(run.stderr)")
        }
        #expect(try E2E.rows(dir + "/s.sqlite", "SELECT first, last FROM Person") == ["Ada|Lovelace"])
        #expect(try E2E.rows(dir + "/s.sqlite", "SELECT value FROM strata_metadata WHERE key = 'strata.version'") == ["1"])

        // Entities: the same.
        try Self.write("version: 1\nentities:\n  A: { attributes: { x: { type: string } } }\n  B: { attributes: { y: { type: string } } }\n", dir + "/models/1.yaml")
        try Self.write("version: 2\nentities:\n  B: { renamedFrom: A, attributes: { x: { type: string } } }\n  A: { renamedFrom: B, attributes: { y: { type: string } } }\n", dir + "/models/2.yaml")
        let entities = try CLI.run(["lint"], in: dir)
        #expect(entities.status == 2)
        #expect(entities.stderr.contains("models/2.yaml:3:21: error: v1 → v2: B is renamedFrom 'A', but v1 has both B and A, and v2 keeps A: "), "\(entities.stderr)")
        #expect(entities.stderr.contains("hint: remove renamedFrom and carry the objects in a mapping file: `strata mapping 1 2 > migrations/v2-mapping.yaml` prints a skeleton; give B `source: A`"))
    }

    /// A `renamedFrom` kept from the version that renamed (SPEC §4: it may stay forever) is not a swap, even once
    /// the old name is used again.
    @Test func renamedFromKeptFromAnEarlierVersionStillLints() throws {
        let dir = try ImportCoreDataCLITests.directory()
        try Self.write("version: 1\nentities:\n  N:\n    attributes:\n      title: { type: string }\n", dir + "/models/1.yaml")
        try Self.write("version: 2\nentities:\n  N:\n    attributes:\n      name: { type: string, renamedFrom: title }\n", dir + "/models/2.yaml")
        let kept = "version: VERSION\nentities:\n  N:\n    attributes:\n      name: { type: string, renamedFrom: title }\n      title: { type: string }\n"
        try Self.write(kept.replacingOccurrences(of: "VERSION", with: "3"), dir + "/models/3.yaml")
        try Self.write(kept.replacingOccurrences(of: "VERSION", with: "4"), dir + "/models/4.yaml")
        let run = try CLI.run(["lint"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
    }
}
