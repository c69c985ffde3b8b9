/// A JSON string literal's bytes, in the two spellings Strata writes.
enum JSONString {
    enum Style {
        /// RFC 8259's required escapes only (`\"`, `\\`, `\n`, `\r`, `\t`, other control characters as `\u00xx`):
        /// `CanonicalJSON`, which version hashes are taken over, so it never changes.
        case canonical
        /// Foundation's `JSONEncoder` (swift-foundation's `JSONWriter`): also `\/`, `\b` and `\f`: `LayoutJSON`,
        /// byte-compatible with the layouts stores hold.
        case foundation
    }

    /// Appends `s` in quotes, its UTF-8 bytes between escapes appended as runs; non-ASCII bytes as they are.
    static func append(_ s: String, to out: inout [UInt8], style: Style) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var run = 0   // the first byte not appended yet
            for i in utf8.indices {
                let byte = utf8[i]
                let escape: StaticString
                var hex = false   // `\u00` then the byte's two lowercase hex digits
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "/") where style == .foundation: escape = "\\/"
                case 0x08 where style == .foundation: escape = "\\b"
                case 0x0C where style == .foundation: escape = "\\f"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case ..<0x20: escape = "\\u00"; hex = true
                default: continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
                escape.withUTF8Buffer { out.append(contentsOf: $0) }
                if hex {
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xF)])
                }
                run = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
