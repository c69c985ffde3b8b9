/// A 1-based position in a source file (a model, a hook, or a predicate string).
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file path as the user gave it, or `predicate` for a predicate typed on the command line.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in Unicode scalars (as libyaml counts).
    public var column: Int
    /// Where the rest of a YAML scalar's text is written, when this is where that text starts (see
    /// `ModelParser.stringStart`): `location(atScalarOffset:in:)` then follows the file's lines. Equality,
    /// hashing and coding see `file:line:column` only.
    public var layout: ScalarLayout?

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    private enum CodingKeys: String, CodingKey { case file, line, column }

    public static func == (a: SourceLocation, b: SourceLocation) -> Bool {
        a.file == b.file && a.line == b.line && a.column == b.column
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(column)
    }

    /// `file:line:column`
    public var description: String { "\(file):\(line):\(column)" }

    /// This location moved `offset` scalars to the right on the same line.
    public func advanced(by offset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + offset)
    }

    /// Where the Unicode scalar `offset` into `text`, which starts here, is written. A YAML scalar's text is
    /// placed through its `layout` (blocks, folded lines, escapes); otherwise each line break in `text` starts
    /// a line at column 1 (a predicate given on the command line).
    public func location(atScalarOffset offset: Int, in text: String) -> SourceLocation {
        let scalars = text.unicodeScalars
        let offset = min(max(0, offset), scalars.count)
        if let layout, let (line, column) = layout.position(ofScalarOffset: offset, in: text) {
            return SourceLocation(file: file, line: line, column: column)
        }
        var line = self.line, column = self.column
        for scalar in scalars.prefix(offset) {
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// Where the first byte of `bytes` that is not part of valid UTF-8 stands in `file` (line, and column in the
    /// scalars before it), or nil when all of it is UTF-8: a file that is not UTF-8 text is an error there, not
    /// at 1:1.
    public static func firstInvalidUTF8(in bytes: some Collection<UInt8>, file: String) -> SourceLocation? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var line = 1, column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
            case .emptyInput:
                return nil
            case .error:
                return SourceLocation(file: file, line: line, column: column)
            }
        }
    }

    /// Where the Unicode scalar `offset` into the whole of `text` stands in `file`.
    public static func atScalarOffset(_ offset: Int, in text: String, file: String) -> SourceLocation {
        SourceLocation(file: file, line: 1, column: 1).location(atScalarOffset: offset, in: text)
    }
}
