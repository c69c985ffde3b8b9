import Foundation
import Testing
@testable import Strata
import StrataTestSupport

/// `DecodedLayouts` gives the layout `JSONDecoder` gives, once per text, and starts over when full.
@Suite struct DecodedLayoutsTests {
    static func layoutText() throws -> (StoreLayout, String) {
        let history = try ModelHistory.load(directory: TestStore.packageRoot + "/models")
        let store = try StoreCreator.create(at: Temporary.directory("decoded-layouts") + "/s.sqlite", model: history.latest!)
        let metadata = try store.metadata()
        let text = metadata.systemValues.first { $0.key == "strata.layout" }!.value
        return (metadata.layout, text)
    }

    @Test func aTextDecodesOnceToTheLayoutJSONDecoderGives() throws {
        let cache = DecodedLayouts()
        let (layout, text) = try Self.layoutText()
        #expect(try cache.layout(text) == layout)
        #expect(try cache.layout(text) == layout)
        #expect(cache.count == 1)
        #expect(try cache.layout(text) == JSONDecoder().decode(StoreLayout.self, from: Data(text.utf8)))
    }

    @Test func aTextThatIsNoLayoutThrowsAndIsNotKept() throws {
        let cache = DecodedLayouts()
        #expect(throws: DecodingError.self) { try cache.layout(#"{"tables": 3}"#) }
        #expect(cache.count == 0)
    }

    @Test func aFullCacheStartsOver() throws {
        let cache = DecodedLayouts()
        let (_, text) = try Self.layoutText()
        // The same layout under other texts (trailing spaces are still valid JSON).
        for i in 0..<DecodedLayouts.capacity { _ = try cache.layout(text + String(repeating: " ", count: i)) }
        #expect(cache.count == DecodedLayouts.capacity)
        _ = try cache.layout(text + String(repeating: " ", count: DecodedLayouts.capacity))
        #expect(cache.count == 1)
    }
}
