import Foundation
import Testing
@testable import StrataCore

/// Mapping models (`.xcmappingmodel/xcmapping.xml`) → mapping files (SPEC §11.3, §12): the translations,
/// the step a mapping model maps, merges, TODOs, and malformed files.
@Suite struct ImportCoreDataMappingTests {
    static let fixtures = ImportCoreDataTests.fixtures

    /// One entity mapping of an xcmapping.xml: its fields (`sourcename`, …) and property mappings (name, value expression).
    struct EntityMapping {
        var fields: [String: String]
        var attributes: [(String, String?)] = []
        var relationships: [(String, String?)] = []
    }

    /// An xcmapping.xml as Xcode writes it (objects of Xcode's editing model, values as element text).
    static func xcmapping(_ entities: [EntityMapping], source: String? = nil, destination: String? = nil) -> String {
        var objects = ""
        var ids: [String] = []
        var next = 200
        func escaped(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        for e in entities {
            let id = "z\(next)"; next += 1
            ids.append(id)
            var refs: [String: [String]] = ["attributemappings": [], "relationshipmappings": []]
            for (kind, key, list) in [("XDDEVATTRIBUTEMAPPING", "attributemappings", e.attributes), ("XDDEVRELATIONSHIPMAPPING", "relationshipmappings", e.relationships)] {
                for (name, expression) in list {
                    let pid = "z\(next)"; next += 1
                    refs[key]!.append(pid)
                    objects += "    <object type=\"\(kind)\" id=\"\(pid)\">\n        <attribute name=\"name\" type=\"string\">\(name)</attribute>\n"
                    if let expression { objects += "        <attribute name=\"valueexpressionstring\" type=\"string\">\(escaped(expression))</attribute>\n" }
                    objects += "        <relationship name=\"entitymapping\" type=\"1/1\" destination=\"XDDEVENTITYMAPPING\" idrefs=\"\(id)\"></relationship>\n    </object>\n"
                }
            }
            objects += "    <object type=\"XDDEVENTITYMAPPING\" id=\"\(id)\">\n"
            for (k, v) in e.fields.sorted(by: { $0.key < $1.key }) { objects += "        <attribute name=\"\(k)\" type=\"string\">\(escaped(v))</attribute>\n" }
            for (k, list) in refs.sorted(by: { $0.key < $1.key }) {
                objects += "        <relationship name=\"\(k)\" type=\"0/0\" destination=\"X\" idrefs=\"\(list.joined(separator: " "))\"></relationship>\n"
            }
            objects += "    </object>\n"
        }
        var model = "    <object type=\"XDDEVMAPPINGMODEL\" id=\"z101\">\n"
        if let source { model += "        <attribute name=\"sourcemodelpath\" type=\"string\">\(source)</attribute>\n" }
        if let destination { model += "        <attribute name=\"destinationmodelpath\" type=\"string\">\(destination)</attribute>\n" }
        model += "        <relationship name=\"entitymappings\" type=\"0/0\" destination=\"XDDEVENTITYMAPPING\" idrefs=\"\(ids.joined(separator: " "))\"></relationship>\n    </object>\n"
        return "<?xml version=\"1.0\" standalone=\"yes\"?>\n<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">\n\n<database>\n"
            + "    <databaseInfo>\n        <version>134481920</version>\n    </databaseInfo>\n" + objects + model + "</database>\n"
    }

    /// A bundle of model versions with mapping models inside it (name → xcmapping.xml).
    static func bundle(_ versions: [(String, String)], mappings: [(String, String)]) throws -> String {
        let path = try ImportCoreDataTests.bundle(versions.map { ($0.0, ImportCoreDataTests.model($0.1)) })
        for (name, xml) in mappings {
            try FileManager.default.createDirectory(atPath: path + "/\(name).xcmappingmodel", withIntermediateDirectories: true)
            try xml.write(toFile: path + "/\(name).xcmappingmodel/xcmapping.xml", atomically: true, encoding: .utf8)
        }
        return path
    }

    @Test(arguments: [
        ("$source.title", CoreDataExpression.Translation.keyPath("title")),
        ("  $source.author.name ", .expression("author.name")),
        ("$source.price * 100 + $source.tax", .expression("price * 100 + tax")),
        ("\"n/a\"", .expression("\"n/a\"")),
        ("\"a\\\"\u{301}b\\\\\u{301}\"", .expression("\"a\\\"\u{301}b\\\\\u{301}\"")),   // quote and backslash a mark follows stay escaped
        (#"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "NoteToNote", $source.notes)"#, .relink("notes")),
        (#"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "notes", $source.notes)"#, .relink("notes")),
        (#"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BlogToBlog", $source)"#, .sameSource),
        (#"FUNCTION($source.title, "uppercaseString")"#, .untranslatable("FUNCTION has no equivalent in a mapping file")),
        ("$entityPolicy.value", .untranslatable("$entityPolicy has no equivalent in a mapping file")),
        ("$source", .untranslatable("$source is used as a value")),
        ("uppercase:($source.title)", .untranslatable("':' (a Foundation function, aggregate or format argument) has no equivalent in a mapping file")),
        ("\"open", .untranslatable("the expression cannot be read (an unclosed string)")),
    ])
    func valueExpressionsTranslateAsTheSpecLists(text: String, expected: CoreDataExpression.Translation) {
        #expect(CoreDataExpression.translate(text) == expected)
    }

    @Test func sourceFetchesGiveTheEntityAndFilter() {
        let fetch = #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:" , "Note", "TRUEPREDICATE"), $manager.sourceContext, NO)"#
        #expect(CoreDataExpression.sourceFetch(fetch).map { "\($0.entity) \($0.predicate ?? "-")" } == "Note -")
        let filtered = #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Author", "kind == \"person\" AND age > 3"), $manager.sourceContext, NO)"#
        #expect(CoreDataExpression.sourceFetch(filtered).map { "\($0.entity) \($0.predicate ?? "-")" } == #"Author kind == "person" AND age > 3"#)
        #expect(CoreDataExpression.sourceFetch("FETCH($custom, $manager.sourceContext, NO)") == nil)
    }

    /// An archived (binary) value expression, `$source.seconds * 1000` as a keyed archive.
    @Test func archivedExpressionsAreReadBack() {
        let archive = "YnBsaXN0MDDUAQIDBAUGUVRZJGFyY2hpdmVyWCRvYmplY3RzVCR0b3BYJHZlcnNpb25fEA9OU0tleWVkQXJjaGl2ZXKvEBYHCA8SFxgaHR4jJCcoLTA1PkBBRUdMVSRudWxs0gkKCwxYJGNsYXNzZXNaJGNsYXNzbmFtZaMMDQ5fEBROU0Z1bmN0aW9uRXhwcmVzc2lvblxOU0V4cHJlc3Npb25YTlNPYmplY3TSCQoQEaMRDQ5fEBlOU0NvbnN0YW50VmFsdWVFeHByZXNzaW9u0hMUFRZWJGNsYXNzXxAQTlNFeHByZXNzaW9uVHlwZYACEABcbXVsdGlwbHk6Ynk60gkKGQyjDA0O0gkKGxyjHA0OXxAUTlNWYXJpYWJsZUV4cHJlc3Npb25Wc291cmNl0xMUHyAhIlpOU1ZhcmlhYmxlgAYQAoAHXxAQdmFsdWVGb3JLZXlQYXRoOtIJCiUmoyYNDl8QE05TS2V5UGF0aEV4cHJlc3Npb25Xc2Vjb25kc9MTFCkqKyxZTlNLZXlQYXRogAoQA4AL0gkKLi+iLw5XTlNBcnJhedITMTIzWk5TLm9iamVjdHOADaE0gAzVEzYUNzg5Ojs8PVtOU0FyZ3VtZW50c1lOU09wZXJhbmReTlNTZWxlY3Rvck5hbWWABYAOEASACIAJ0gkKPxGjEQ0OEQPo0xNCFENEFl8QD05TQ29uc3RhbnRWYWx1ZYAQgBHSCQpGL6IvDtITMUhJgBOiSkuAD4AS1RM2FDc4TU47T1CAAYAUgAOABNFSU1Ryb290gBUSAAGGoAAIABEAGwAkACkAMgBEAF0AYwBoAHEAfACAAJcApACtALIAtgDSANcA3gDxAPMA9QECAQcBCwEQARQBKwEyATkBRAFGAUgBSgFdAWIBZgF8AYQBiwGVAZcBmQGbAaABowGrAbABuwG9Ab8BwQHMAdgB4gHxAfMB9QH3AfkB+wIAAgQCBwIOAiACIgIkAikCLAIxAjMCNgI4AjoCRQJHAkkCSwJNAlACVQJXAAAAAAAAAgEAAAAAAAAAVQAAAAAAAAAAAAAAAAAAAlw="
        let text = CoreDataExpression.archivedText(base64: archive)
        #expect(text == "($source.seconds * 1000)")
        #expect(text.map(CoreDataExpression.translate) == .expression("(seconds * 1000)"))
        #expect(CoreDataExpression.archivedText(base64: "bm90IGEgcGxpc3Q=") == nil)
    }

    @Test func theNotesMappingModelBecomesItsMappingFile() throws {
        let result = try CoreDataImport.read(path: Self.fixtures + "/Notes/Notes.xcdatamodeld")
        #expect(result.mappings.map { "\($0.name) v\($0.from)→v\($0.to) \($0.todos)" } == ["Notes1to2.xcmappingmodel v1→v2 0"])
        #expect(result.mappings.first?.yaml == """
            # Imported from Notes1to2.xcmappingmodel by `strata import coredata`: the step v1 → v2.
            # What inference does by itself (same-name values, re-linked relationships) is left out; edit the TODOs (each is exit 4 until edited).
            mapping: { from: 1, to: 2 }
            entities:
              # Core Data: AuthorToCompany (Transform)
              Company:
                source: Author
                filter: "kind == 'company'"
              # Core Data: AuthorToPerson (Transform)
              Person:
                source: Author
                filter: "kind == \\"person\\""
              # Core Data: NoteToNote (Transform)
              Note:
                source: Note
                filter: "deleted == NO"
                attributes:
                  length: "words"
                  price: "price"
              # Core Data: TagToLabel (Transform)
              Label:
                source: Tag
                attributes:
                  text: "label"

            """)
        let models = try ModelHistory.load(yaml: Dictionary(uniqueKeysWithValues: result.versions.map { ("\($0.number).yaml", $0.yaml) }))
        let file = try MappingFileLoader.load(yaml: try #require(result.mappings.first?.yaml), file: "v2-mapping.yaml")
        #expect(MappingFileSet.check(file, models: models).filter { $0.severity == .error }.isEmpty)
    }
}
