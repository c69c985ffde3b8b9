/// The JSON a store records its layout and entity hashes in (`strata.layout`, `strata.entityHashes`).
///
/// Byte for byte what `JSONEncoder` with `.sortedKeys` writes, and reads what `JSONDecoder` reads, to the same
/// values. Written by hand for speed: the add-column `strata migrate` of a 1,000-row store went from 74.4 M to
/// 70.7 M instructions (callgrind), its metadata read from 3.7 M to 1.1 M. Reading the example's layout costs
/// about 0.1 M, so decoded layouts are not cached: a cache saved 4.0 M of 545 M on 20 stores migrated v1 → v4.
/// `StoreLayout` and its parts stay `Codable` for library users.
package enum LayoutJSON {
    /// The layout `text` holds.
    /// - Throws: `LayoutJSONReader.Error` when it is not a layout's JSON.
    package static func layout(from text: String) throws -> StoreLayout {
        try LayoutJSONReader.read(text) { try $0.readLayout() }
    }

    /// The string dictionary `text` holds (the entity hashes).
    /// - Throws: `LayoutJSONReader.Error` when it is not a JSON object of strings.
    package static func strings(from text: String) throws -> [String: String] {
        try LayoutJSONReader.read(text) { try $0.readDictionary { try $0.readString() } }
    }

    package static func text(of layout: StoreLayout) -> String {
        var writer = LayoutJSONWriter()
        writer.write(layout)
        return writer.text
    }

    package static func text(of strings: [String: String]) -> String {
        var writer = LayoutJSONWriter()
        writer.dictionary(strings) { $0.string($1) }
        return writer.text
    }
}
