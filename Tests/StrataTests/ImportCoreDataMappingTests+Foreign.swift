import Foundation
import Testing
@testable import StrataCore

/// A mapping model is applied only to the two models it records (SPEC §12, Docs/coredata.md "Which step"): one
/// whose recorded model paths name another bundle, or versions this bundle does not have, is ignored with a warning
/// naming it, as Core Data never applies a mapping model made for other models. Before, such a mapping model was
/// applied to the step its last path components named (another bundle's `M 2` taken for this one's) or to the step
/// its entities fitted.
extension ImportCoreDataMappingTests {
    static let album = [EntityMapping(fields: ["sourcename": "Album", "destinationname": "Album"], attributes: [("rank", "7")])]

    /// The warning for the mapping model `name` of the bundle at `path`, located at the object recording the paths.
    static func ignored(_ name: String, in path: String, xml: String, reason: String) -> Diagnostic {
        let line = xml.components(separatedBy: "\n").firstIndex { $0.contains("type=\"XDDEVMAPPINGMODEL\"") }! + 1
        return .warning("\(name).xcmappingmodel is not a mapping model of Model.xcdatamodeld: \(reason); ignored",
                        at: SourceLocation(file: path + "/\(name).xcmappingmodel/xcmapping.xml", line: line, column: 1),
                        hint: "Core Data applies a mapping model only to the two models it was made for; to import it with this bundle, "
                            + "set its source and destination models to versions of Model.xcdatamodeld in Xcode")
    }

    @Test func aMappingModelOfAnotherBundleIsIgnoredWithAWarning() throws {
        // Another bundle whose versions have this bundle's names: the last path components alone matched v1 → v2.
        let other = Self.xcmapping(Self.album, source: "Cache/Cache.xcdatamodeld/M 1.xcdatamodel", destination: "Cache/Cache.xcdatamodeld/M 2.xcdatamodel")
        let path = try Self.bundle([("M 1", Self.media1), ("M 2", Self.media2)], mappings: [("Album1to2", other)])
        let result = try CoreDataImport.read(path: path)
        #expect(result.mappings.isEmpty)
        #expect(result.notCarried.isEmpty, "\(result.notCarried.map(\.reason))")
        #expect(result.warnings == [Self.ignored("Album1to2", in: path, xml: other, reason:
            "it maps 'Cache/Cache.xcdatamodeld/M 1.xcdatamodel' → 'Cache/Cache.xcdatamodeld/M 2.xcdatamodel', models of Cache.xcdatamodeld")])
    }

    @Test func aMappingModelOfVersionsTheBundleDoesNotHaveIsIgnored() throws {
        // Its entities fit v1 → v2, which was the step before.
        let stale = Self.xcmapping(Self.album, source: "Model.xcdatamodeld/M 7.xcdatamodel", destination: "Model.xcdatamodeld/M 8.xcdatamodel")
        let path = try Self.bundle([("M 1", Self.media1), ("M 2", Self.media2)], mappings: [("Album7to8", stale)])
        let result = try CoreDataImport.read(path: path)
        #expect(result.mappings.isEmpty)
        #expect(result.warnings == [Self.ignored("Album7to8", in: path, xml: stale, reason:
            "it maps 'Model.xcdatamodeld/M 7.xcdatamodel' → 'Model.xcdatamodeld/M 8.xcdatamodel', and Model.xcdatamodeld has no version 'M 7' (its versions: M 1, M 2)")])
    }

    @Test func theRecordedModelsOfThisBundleDecideTheStep() throws {
        let three = [("M 1", Self.media1), ("M 2", Self.media2), ("M 3", Self.media2)]
        // Both paths, the bundle in a group folder: the step they name.
        let own = Self.xcmapping(Self.album, source: "App/Model.xcdatamodeld/M 2.xcdatamodel", destination: "App/Model.xcdatamodeld/M 3.xcdatamodel")
        let named = try CoreDataImport.read(path: try Self.bundle(three, mappings: [("Albums", own)]))
        #expect(named.mappings.map { "\($0.name) v\($0.from)→v\($0.to)" } == ["Albums.xcmappingmodel v2→v3"])
        #expect(named.warnings.isEmpty)
        // One path: the entities decide among the steps it names (Album fits v2 → v3 only from 'M 2').
        let half = Self.xcmapping(Self.album, source: "Model.xcdatamodeld/M 2.xcdatamodel")
        let fromTwo = try CoreDataImport.read(path: try Self.bundle(three, mappings: [("Albums", half)]))
        #expect(fromTwo.mappings.map { "v\($0.from)→v\($0.to)" } == ["v2→v3"])
        #expect(fromTwo.warnings.isEmpty)
    }
}
