/// An `sql:` hook step (SPEC §11.1): one or more SQL statements, run as written in the step's transaction,
/// with `{{Entity}}`, `{{Entity.property}}`, `{{Entity:filter}}`, `{{$NOW}}` and `{{$NAME}}` placeholders.
public struct SQLStep: Sendable, Hashable {
    /// The statements as the hook file holds them, placeholders unexpanded.
    public var text: String
    /// Where the step's text starts in the hook file (a block's first content line).
    public var origin: SourceLocation
    /// Where the rest of `text` is in the hook file (a block drops its indentation, folding joins lines, quotes
    /// decode escapes), read once when the hook is loaded; nil for a step not read from a file.
    public var map: ScalarLayout.Map?

    /// The step for a PostgreSQL store (`sql: { sqlite: …, postgresql: … }`); nil when the hook gives only
    /// SQLite's text (a plain `sql:` string), which a PostgreSQL store refuses before any step runs.
    public var postgresql: SQLStep? {
        get { engines.first }
        set { engines = newValue.map { [$0] } ?? [] }
    }
    /// Whether the hook gives SQLite text: false for `sql: { postgresql: … }` alone, whose `text` is then the
    /// PostgreSQL text and which an SQLite store refuses before any step runs.
    public var hasSQLiteText = true
    /// Storage of `postgresql` (a struct cannot hold an optional of itself).
    private var engines: [SQLStep] = []

    public init(text: String, origin: SourceLocation) {
        self.text = text
        self.origin = origin
    }

    /// The hook-file location of the character `utf8Offset` bytes into `text` (leading white space and SQL
    /// comments skipped, so a statement after `;`, a comment and a line break points at its first word).
    public func location(atUTF8Offset utf8Offset: Int) -> SourceLocation {
        let utf8 = text.utf8
        var index = utf8.index(utf8.startIndex, offsetBy: min(max(0, utf8Offset), utf8.count))
        index = Self.skippingSpaceAndComments(in: utf8, from: index)
        let offset = text.unicodeScalars[..<index].count
        if let (line, column) = map?.position(ofScalarOffset: offset) {
            return SourceLocation(file: origin.file, line: line, column: column)
        }
        return origin.location(atScalarOffset: offset, in: text)
    }

    /// The first index at or after `start` that is neither white space nor inside a `--` or `/* */` comment.
    static func skippingSpaceAndComments(in utf8: String.UTF8View, from start: String.Index) -> String.Index {
        var index = start
        func byte(_ i: String.Index) -> UInt8? { i < utf8.endIndex ? utf8[i] : nil }
        while let b = byte(index) {
            if [0x20, 0x09, 0x0A, 0x0D].contains(b) {
                index = utf8.index(after: index)
            } else if b == UInt8(ascii: "-"), byte(utf8.index(after: index)) == UInt8(ascii: "-") {
                while let c = byte(index), c != 0x0A { index = utf8.index(after: index) }
            } else if b == UInt8(ascii: "/"), byte(utf8.index(after: index)) == UInt8(ascii: "*") {
                index = utf8.index(index, offsetBy: 2)
                while let c = byte(index), !(c == UInt8(ascii: "*") && byte(utf8.index(after: index)) == UInt8(ascii: "/")) {
                    index = utf8.index(after: index)
                }
                if index < utf8.endIndex { index = utf8.index(index, offsetBy: 2) }
            } else {
                break
            }
        }
        return index
    }
}
