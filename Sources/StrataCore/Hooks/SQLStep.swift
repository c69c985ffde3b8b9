/// An `sql:` hook step (SPEC §11.1): one or more SQL statements, run as written in the step's transaction,
/// with `{{Entity}}`, `{{Entity.property}}`, `{{Entity:filter}}`, `{{$NOW}}` and `{{$NAME}}` placeholders.
public struct SQLStep: Sendable, Hashable {
    /// The statements as the hook file holds them, placeholders unexpanded.
    public var text: String
    /// Where the step's value starts in the hook file.
    public var origin: SourceLocation
    /// Where each line of `text` starts in the hook file (a literal block scalar); an empty list when only
    /// `origin` is known (a one-line or folded value: offsets then count from `origin`).
    public var lineOrigins: [SourceLocation]

    public init(text: String, origin: SourceLocation, lineOrigins: [SourceLocation] = []) {
        self.text = text
        self.origin = origin
        self.lineOrigins = lineOrigins
    }

    /// The hook-file location of the character `utf8Offset` bytes into `text` (leading white space skipped,
    /// so a statement after `;` and a line break points at its first word).
    public func location(atUTF8Offset utf8Offset: Int) -> SourceLocation {
        let utf8 = text.utf8
        var index = utf8.index(utf8.startIndex, offsetBy: min(max(0, utf8Offset), utf8.count))
        while index < utf8.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(utf8[index]) { index = utf8.index(after: index) }
        var line = 0, column = 0
        for scalar in text.unicodeScalars[..<index] {
            if scalar == "\n" { line += 1; column = 0 } else { column += 1 }
        }
        if lineOrigins.isEmpty { return line == 0 ? origin.advanced(by: column) : origin }
        guard line < lineOrigins.count else { return lineOrigins.last ?? origin }
        return lineOrigins[line].advanced(by: column)
    }
}
