/// Reads JSON from a text's UTF-8 bytes by the rules of Foundation's `JSONDecoder` (swift-foundation's
/// `JSONScanner`), for ``LayoutJSON``.
///
/// Whitespace is space, tab, LF and CR; a leading UTF-8 byte order mark is skipped; a comma may follow an
/// object's last member or an array's last element; more than 512 nested arrays and objects are an error. What
/// the caller reads (every key of an object it reads, strings, booleans) is checked in full. What it skips is
/// checked for shape only, as `JSONDecoder` checks a value no property asks for: a skipped string's escapes and
/// control characters and a skipped number's digits are not looked at.
///
/// `JSONDecoder` also reads a text whose first bytes hold NULs as UTF-16 or UTF-32; this reader reads UTF-8 only.
package struct LayoutJSONReader {
    /// What is wrong with the text, and where.
    package struct Error: Swift.Error, CustomStringConvertible {
        package let offset: Int
        package let reason: String
        package var description: String { "\(reason) at byte \(offset)" }
    }

    /// `JSONScanner`'s limit.
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Reads `text` with `body`, which reads its one value; only whitespace may follow it.
    /// - Throws: ``Error`` when the text is not JSON, or `body`'s error.
    package static func read<T>(_ text: String, _ body: (inout LayoutJSONReader) throws -> T) throws -> T {
        var text = text
        return try text.withUTF8 { bytes in
            var reader = LayoutJSONReader(bytes: bytes)
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.index = 3 }
            let value = try body(&reader)
            reader.skipWhitespace()
            guard reader.index == bytes.count else { throw reader.error("text after the value") }
            return value
        }
    }

    package func error(_ reason: String) -> Error { Error(offset: index, reason: reason) }

    // MARK: Values the caller reads

    /// Reads an object, calling `member` with each key (in full: escapes decoded); `member` reads or skips the value.
    package mutating func readObject(_ member: (inout LayoutJSONReader, String) throws -> Void) throws {
        try object(key: { try $0.readString() }, member)
    }

    /// Reads an array, calling `element` for each element.
    package mutating func readArray(_ element: (inout LayoutJSONReader) throws -> Void) throws {
        guard try next() == .openBracket else { throw error("expected an array") }
        try enter()
        defer { depth -= 1 }
        if try next() == .closeBracket { index += 1; return }
        repeat { try element(&self) } while try !closed(by: .closeBracket)
    }

    /// Reads `null` and returns true, or returns false when the next value is something else.
    package mutating func readNull() throws -> Bool {
        guard try next() == UInt8(ascii: "n") else { return false }
        try expect("null")
        return true
    }

    package mutating func readBool() throws -> Bool {
        switch try next() {
        case UInt8(ascii: "t"): try expect("true"); return true
        case UInt8(ascii: "f"): try expect("false"); return false
        default: throw error("expected true or false")
        }
    }

    /// Reads a string, decoding its escapes (`\uXXXX` surrogate pairs included); an unescaped control
    /// character, an unknown escape or an unpaired surrogate is an error, as in `JSONDecoder`.
    package mutating func readString() throws -> String {
        guard try next() == .quote else { throw error("expected a string") }
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .quote {
                defer { index += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            if byte == .backslash || byte < 0x20 { break }
            index += 1
        }
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case .quote:
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case .backslash:
                index += 1
                try readEscape(into: &utf8)
            case ..<0x20:
                throw error("control character in a string")
            default:
                utf8.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    // MARK: Values the caller skips

    /// Skips a value, checking its shape as `JSONScanner` does.
    package mutating func skipValue() throws {
        switch try next() {
        case .quote:
            try skipString()
        case .openBrace:
            try object(key: { try $0.skipString(); return "" }) { reader, _ in try reader.skipValue() }
        case .openBracket:
            try readArray { try $0.skipValue() }
        case UInt8(ascii: "t"): try expect("true")
        case UInt8(ascii: "f"): try expect("false")
        case UInt8(ascii: "n"): try expect("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // `JSONScanner.skipNumber`: the characters a number may hold, in any order.
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"),
                     UInt8(ascii: "e"), UInt8(ascii: "E"):
                    index += 1
                default:
                    return
                }
            }
        default:
            throw error("expected a value")
        }
    }

    /// Skips a string up to its closing quote: after a backslash the next byte, after `\u` the next four (none a quote).
    private mutating func skipString() throws {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case .quote:
                index += 1
                return
            case .backslash:
                guard index + 1 < bytes.count else { throw error("unterminated string") }
                if bytes[index + 1] == UInt8(ascii: "u") {
                    guard index + 6 <= bytes.count, !bytes[index + 2..<index + 6].contains(.quote) else {
                        throw error("expected four hex digits")
                    }
                    index += 6
                } else {
                    index += 2
                }
            default:
                index += 1
            }
        }
        throw error("unterminated string")
    }

    // MARK: Pieces

    /// An object whose keys `key` reads (in full, or skipped for shape only), calling `member` for each value.
    private mutating func object(key: (inout LayoutJSONReader) throws -> String,
                                 _ member: (inout LayoutJSONReader, String) throws -> Void) throws {
        guard try next() == .openBrace else { throw error("expected an object") }
        try enter()
        defer { depth -= 1 }
        if try next() == .closeBrace { index += 1; return }
        repeat {
            guard try next() == .quote else { throw error("expected a key") }
            let name = try key(&self)
            guard try next() == .colon else { throw error("expected ':'") }
            index += 1
            try member(&self, name)
        } while try !closed(by: .closeBrace)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The next byte after whitespace, not consumed.
    private mutating func next() throws -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of text") }
        return bytes[index]
    }

    /// Consumes an opening bracket or brace, one level deeper.
    private mutating func enter() throws {
        guard depth < Self.maximumDepth else { throw error("more than \(Self.maximumDepth) nested arrays and objects") }
        depth += 1
        index += 1
    }

    /// After a member or element: consumes a comma (and a closing bracket right after it) or the closing
    /// bracket; true when the container is closed.
    private mutating func closed(by closing: UInt8) throws -> Bool {
        let byte = try next()
        guard byte == closing || byte == .comma else {
            throw error("expected ',' or '\(Character(Unicode.Scalar(closing)))'")
        }
        index += 1
        if byte == closing { return true }
        if try next() == closing { index += 1; return true }
        return false
    }

    private mutating func expect(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
              word.withUTF8Buffer({ $0.elementsEqual(bytes[index..<index + count]) }) else {
            throw error("expected \(word)")
        }
        index += count
    }

    /// Decodes the escape after a backslash.
    private mutating func readEscape(into utf8: inout [UInt8]) throws {
        guard index < bytes.count else { throw error("unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case .quote, .backslash, UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex()
            let scalar: Unicode.Scalar?
            if UTF16.isLeadSurrogate(unit) {
                guard index + 1 < bytes.count, bytes[index] == .backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate")
                }
                index += 2
                let trail = try readHex()
                guard UTF16.isTrailSurrogate(trail) else { throw error("unpaired surrogate") }
                scalar = Unicode.Scalar(0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(trail - 0xDC00))
            } else {
                scalar = Unicode.Scalar(unit)
            }
            guard let scalar else { throw error("unpaired surrogate") }
            utf8.append(contentsOf: UTF8.encode(scalar)!)
        default:
            throw error("unknown escape")
        }
    }

    /// Four hex digits, either case.
    private mutating func readHex() throws -> UInt16 {
        guard index + 4 <= bytes.count else { throw error("expected four hex digits") }
        var value: UInt16 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hex digits")
            }
            value = value << 4 | UInt16(digit)
        }
        index += 4
        return value
    }
}

extension UInt8 {
    fileprivate static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":"),
                           comma = UInt8(ascii: ","), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}"),
                           openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
}
