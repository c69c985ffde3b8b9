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

    /// Appends a string in quotes with `JSONWriter`'s escapes: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, other
    /// control characters as `\u00xx` (lowercase hex), every other byte as it is.
    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for i in utf8.indices {
                let byte = utf8[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/") else {
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                escape(byte)
                start = i + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The escape of a quote, backslash, slash or control character.
    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case ..<0x20:
            raw("\\u00")
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0xF)])
        default:
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(byte)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    package mutating func strings(_ values: [String]) {
        raw("[")
        for (i, value) in values.enumerated() {
            if i > 0 { raw(",") }
            string(value)
        }
        raw("]")
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
