import Foundation
import Testing
@testable import StrataCore

/// Merges, TODOs, how the step is found, and what is listed instead of converted.
extension ImportCoreDataMappingTests {
    static let media1 = """
        <entity name="Photo"><attribute name="caption" optional="YES" attributeType="String"/><attribute name="width" optional="YES" attributeType="Integer 32"/></entity>
        <entity name="Video"><attribute name="caption" optional="YES" attributeType="String"/><attribute name="seconds" optional="YES" attributeType="Double"/></entity>
        <entity name="Album"><attribute name="title" optional="YES" attributeType="String"/></entity>
        """
    static let media2 = """
        <entity name="Media"><attribute name="caption" optional="YES" attributeType="String"/><attribute name="duration" optional="YES" attributeType="Double"/></entity>
        <entity name="Album"><attribute name="title" optional="YES" attributeType="String"/><attribute name="rank" optional="YES" attributeType="Integer 16"/></entity>
        """

    @Test func aMergeIsASourceListWithPerSourceExpressions() throws {
        let xml = Self.xcmapping([
            EntityMapping(fields: ["name": "PhotoToMedia", "sourcename": "Photo", "destinationname": "Media", "mappingtypename": "Transform"],
                          attributes: [("caption", "$source.caption"), ("duration", "0")]),
            EntityMapping(fields: ["name": "VideoToMedia", "sourcename": "Video", "destinationname": "Media", "mappingtypename": "Transform"],
                          attributes: [("caption", "$source.caption"), ("duration", "$source.seconds")]),
            EntityMapping(fields: ["sourcename": "Album", "destinationname": "Album", "mappingtypename": "Copy"],
                          attributes: [("title", "$source.title")]),
        ], source: "App/Model.xcdatamodeld/M 1.xcdatamodel", destination: "App/Model.xcdatamodeld/M 2.xcdatamodel")
        let path = try Self.bundle([("M 1", Self.media1), ("M 2", Self.media2)], mappings: [("Media", xml)])
        let result = try CoreDataImport.read(path: path)
        #expect(result.mappings.first?.yaml == """
            # Imported from Media.xcmappingmodel by `strata import coredata`: the step v1 → v2.
            # What inference does by itself (same-name values, re-linked relationships) is left out; edit the TODOs (each is exit 4 until edited).
            mapping: { from: 1, to: 2 }
            entities:
              # Core Data: PhotoToMedia (Transform), VideoToMedia (Transform)
              Media:
                source: [Photo, Video]
                attributes:
                  duration:
                    Photo: "0"
                    Video: "seconds"

            """)
        #expect(result.mappings.first?.todos == 0)
    }

    @Test func customPoliciesAndUntranslatedExpressionsAreTodosCarryingTheOriginal() throws {
        let xml = Self.xcmapping([
            EntityMapping(fields: ["name": "AlbumToAlbum", "sourcename": "Album", "destinationname": "Album", "mappingtypename": "Custom",
                                   "migrationpolicyclassname": "App.AlbumMigrationPolicy",
                                   "sourceexpressionstring": #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:" , "Album", "title != nil"), $manager.sourceContext, NO)"#],
                          attributes: [("title", #"FUNCTION($source.title, "uppercaseString")"#), ("rank", "$source.title")]),
        ])
        let path = try Self.bundle([("M 1", Self.media1), ("M 2", Self.media2)], mappings: [("M1toM2", xml)])
        let result = try CoreDataImport.read(path: path)
        let mapping = try #require(result.mappings.first)
        #expect(mapping.from == 1 && mapping.to == 2 && mapping.todos == 3)
        let lines = try #require(mapping.yaml).split(separator: "\n").map(String.init)
        #expect(Array(lines.dropFirst(4)) == [
            "  # Core Data: AlbumToAlbum (Custom)",
            "  Album:",
            "    source: Album",
            "    filter: TODO   # AlbumToAlbum ran the custom migration policy App.AlbumMigrationPolicy: port what its code does to expressions here or to a hook, then remove this TODO; the mapping's filter: title != nil",
            "    attributes:",
            #"      title: TODO   # FUNCTION has no equivalent in a mapping file, not translated: FUNCTION($source.title, "uppercaseString")"#,
            "      rank: TODO   # Album.rank is int16, but title is string (wrap in int16(): int16(title)); translated as title",
        ])
        // Written as it is, the file is a valid mapping file whose TODOs stop the step (exit 4).
        let file = try MappingFileLoader.load(yaml: try #require(mapping.yaml), file: "v2-mapping.yaml")
        #expect(file.todos.map { "\($0.entity).\($0.property ?? "-")" } == ["Album.-", "Album.title", "Album.rank"])
    }

    @Test func withoutModelPathsTheStepIsFoundByNames() throws {
        let three = [("M 1", Self.media1), ("M 2", Self.media2), ("M 3", Self.media2 + #"<entity name="Extra"/>"#)]
        let merge = Self.xcmapping([
            EntityMapping(fields: ["sourcename": "Video", "destinationname": "Media"], attributes: [("duration", "$source.seconds * 2")]),
        ])
        // Only v1 has Video: the step is v1 → v2.
        let found = try CoreDataImport.read(path: try Self.bundle(three, mappings: [("Videos", merge)]))
        #expect(found.mappings.map { "v\($0.from)→v\($0.to)" } == ["v1→v2"])
        // Album has no entity mapping, so Core Data did not migrate it: the file drops it too, and says so.
        #expect(found.mappings.first?.yaml?.hasSuffix("""
              # Core Data: no entity mapping reads Album, its objects were not migrated
              Album:
                source: Album
                filter: "FALSEPREDICATE"

            """) == true)
        #expect(found.notCarried.map(\.reason) == [
            "no entity mapping of Videos.xcmappingmodel reads Album, so Core Data did not migrate its objects: the mapping file drops them too (filter: FALSEPREDICATE); remove that entry to carry them",
        ])

        // Album → Album fits v1 → v2 and v2 → v3 alike: the numbers ending the name decide, else it is listed.
        let album = Self.xcmapping([EntityMapping(fields: ["sourcename": "Album", "destinationname": "Album"], attributes: [("title", "\"x\"")])])
        let named = try CoreDataImport.read(path: try Self.bundle(three, mappings: [("Albums2to3", album)]))
        #expect(named.mappings.map { "v\($0.from)→v\($0.to)" } == ["v2→v3"])
        let unnamed = try CoreDataImport.read(path: try Self.bundle(three, mappings: [("Albums", album)]))
        #expect(unnamed.mappings.isEmpty)
        #expect(unnamed.notCarried.map(\.reason) == [
            "not converted: it fits several steps (v1 → v2, v2 → v3) and its model paths name no version of the bundle: rename it to end in the two version numbers (Model3to4)",
        ])
        // Recorded paths that skip a version: listed, never written as a mapping file.
        let skipping = Self.xcmapping([EntityMapping(fields: ["sourcename": "Album", "destinationname": "Album"])],
                                      source: "M 1.xcdatamodel", destination: "M 3.xcdatamodel")
        let listed = try CoreDataImport.read(path: try Self.bundle(three, mappings: [("Skip", skipping)]))
        #expect(listed.mappings.isEmpty)
        #expect(listed.notCarried.first?.reason == "not converted: it maps v1 → v3, which is not one step: a Strata mapping file maps adjacent versions; write one per step")
    }

    @Test func malformedMappingXMLIsExit2AtItsLine() throws {
        let bad = "<?xml version=\"1.0\"?>\n<database>\n    <object type=\"XDDEVENTITYMAPPING\" id=\"z1\">\n        <attribute name=\"sourcename\">A</attribut>\n</database>\n"
        let path = try Self.bundle([("M 1", Self.media1), ("M 2", Self.media2)], mappings: [("Bad", bad)])
        #expect {
            try CoreDataImport.read(path: path)
        } throws: { error in
            let d = (error as? DiagnosticList)?.diagnostics.first
            return d?.location?.file == path + "/Bad.xcmappingmodel/xcmapping.xml" && d?.location?.line == 4
                && d?.message.hasPrefix("malformed mapping model XML: ") == true
        }
        let wrongRoot = try Self.bundle([("M 1", Self.media1)], mappings: [("Plist", "<plist version=\"1.0\"><dict/></plist>")])
        #expect(throws: DiagnosticList.self) { try CoreDataImport.read(path: wrongRoot) }
    }

    @Test func unknownFieldsAndMissingXMLAreListed() throws {
        var xml = Self.xcmapping([EntityMapping(fields: ["sourcename": "Album", "destinationname": "Album", "futurefield": "1"], attributes: [("rank", "7")])],
                                 source: "M 1", destination: "M 2")
        xml = xml.replacingOccurrences(of: "</database>", with: "    <object type=\"XDDEVNEWTHING\" id=\"z999\"></object>\n</database>")
        let path = try Self.bundle([("M 1", Self.media1), ("M 2", Self.media2)], mappings: [("Known", xml)])
        try FileManager.default.createDirectory(atPath: path + "/Empty.xcmappingmodel", withIntermediateDirectories: true)
        let result = try CoreDataImport.read(path: path)
        #expect(result.mappings.map(\.name) == ["Known.xcmappingmodel"])
        #expect(result.notCarried.map { "\($0.versionName): \($0.reason)" } == [
            "Empty.xcmappingmodel: no readable xcmapping.xml in the mapping model: not converted",
            "Known.xcmappingmodel: unknown object type 'XDDEVNEWTHING' at line 25: skipped",
            "Known.xcmappingmodel: unknown field 'futurefield' of XDDEVENTITYMAPPING at line 13: skipped",
        ])
    }
}
