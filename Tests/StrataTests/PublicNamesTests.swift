import Foundation
import Testing
import StrataTestSupport

/// Strata's public names (SPEC §13): none taken from GRDB, and every one listed in the consumer target's
/// `NameClashTests`, which names them unqualified next to GRDB, Foundation and CryptoKit.
@Suite struct PublicNamesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Top-level `public`/`open` type names declared in the Swift files under `directory`.
    static func publicTypes(under directory: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"^(?:public|open) (?:final )?(?:struct|enum|class|protocol|typealias|actor) ([A-Za-z_][A-Za-z0-9_]*)"#,
                                               options: [.anchorsMatchLines])
        var names: Set<String> = []
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files {
            guard let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else { continue }
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.matches(in: text, range: range) {
                names.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return names
    }

    static var strataTypes: Set<String> {
        publicTypes(under: root + "/Sources/Strata").union(publicTypes(under: root + "/Sources/StrataCore"))
            .union(publicTypes(under: root + "/Sources/StrataPostgres"))
    }

    @Test func theConsumerTargetNamesEveryPublicType() throws {
        let listed = try String(contentsOfFile: Self.root + "/Tests/StrataConsumerTests/NameClashTests.swift", encoding: .utf8)
        let missing = Self.strataTypes.filter { !listed.contains("\($0).self") && !listed.contains("\($0)).self") }.sorted()
        #expect(missing == [], "add these to NameClashTests.strataTypes")
        #expect(!Self.strataTypes.contains("SQL") && !Self.strataTypes.contains("SHA256"))
    }

    @Test func noPublicTypeTakesAGRDBName() throws {
        // GRDB's checkout, in the build folder this test was built in (`.build`, or another `--scratch-path` here).
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: Self.root)) ?? []).filter { $0.hasPrefix(".build") }.sorted()
        let grdb = try #require(folders.map { Self.root + "/" + $0 + "/checkouts/GRDB.swift/GRDB" }
                                    .first { FileManager.default.fileExists(atPath: $0) }, "no GRDB checkout under \(folders)")
        let grdbTypes = Self.publicTypes(under: grdb)
        #expect(grdbTypes.contains("SQL"))
        #expect(Self.strataTypes.intersection(grdbTypes).sorted() == [])
    }
}
