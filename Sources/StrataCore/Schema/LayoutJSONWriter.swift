/// Writes JSON bytes as Foundation's `JSONEncoder` does with `outputFormatting = [.sortedKeys]` (swift-foundation's
/// `JSONWriter`), for ``LayoutJSON``: no whitespace, object keys in the order of their UTF-8 bytes.
package struct LayoutJSONWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// The text written so far.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends ASCII text as it is (punctuation and keys known to need no escape).
    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    /// Appends a string in quotes with `JSONWriter`'s escapes (`JSONString.Style.foundation`).
    package mutating func string(_ value: String) {
        JSONString.append(value, to: &bytes, style: .foundation)
    }

    package mutating func strings(_ values: [String]) {
        array(values) { $0.string($1) }
    }

    package mutating func array<T>(_ values: [T], _ element: (inout LayoutJSONWriter, T) -> Void) {
        raw("[")
        for (i, value) in values.enumerated() {
            if i > 0 { raw(",") }
            element(&self, value)
        }
        raw("]")
    }

    /// Appends a dictionary as an object, keys sorted by their UTF-8 bytes.
    package mutating func dictionary<T>(_ values: [String: T], _ value: (inout LayoutJSONWriter, T) -> Void) {
        raw("{")
        for (i, member) in values.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if i > 0 { raw(",") }
            string(member.key)
            raw(":")
            value(&self, member.value)
        }
        raw("}")
    }
}
