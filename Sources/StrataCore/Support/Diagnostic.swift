/// One message for a person: an error or a warning, located in a file when it can be.
///
/// Rendered like a compiler's message:
/// ```
/// models/4.yaml:12:5: error: unknown type 'int23'
///       type: int23
///             ^
/// hint: did you mean 'int32'?
/// ```
public struct Diagnostic: Hashable, Sendable, Codable, Error, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable { case error, warning }

    public var severity: Severity
    public var message: String
    public var location: SourceLocation?
    /// The source line the location points into, when known (used to draw the caret).
    public var sourceLine: String?
    /// A one-line suggestion for fixing the problem.
    public var hint: String?

    public init(_ severity: Severity = .error, _ message: String, at location: SourceLocation? = nil,
                sourceLine: String? = nil, hint: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.sourceLine = sourceLine
        self.hint = hint
    }

    public static func error(_ message: String, at location: SourceLocation? = nil, hint: String? = nil) -> Diagnostic {
        Diagnostic(.error, message, at: location, hint: hint)
    }

    public static func warning(_ message: String, at location: SourceLocation? = nil, hint: String? = nil) -> Diagnostic {
        Diagnostic(.warning, message, at: location, hint: hint)
    }

    /// The first line: `file:line:column: error: message` (or `error: message` without a location).
    public var headline: String {
        if let location { return "\(location): \(severity.rawValue): \(message)" }
        return "\(severity.rawValue): \(message)"
    }

    /// Headline, source line with a caret under the column, and hint.
    public var description: String {
        var lines = [headline]
        if let sourceLine, let location {
            // A very long line (a generated predicate) is shown as a window around the column.
            var scalars = Array(sourceLine.unicodeScalars)
            var column = max(0, location.column - 1)
            if scalars.count > 160 {
                let start = max(0, min(column - 60, scalars.count - 120))
                let end = min(scalars.count, start + 120)
                let lead: [Unicode.Scalar] = start > 0 ? ["…"] : []
                scalars = lead + scalars[start..<end] + (end < scalars.count ? ["…"] : [])
                column = column - start + lead.count
            }
            var shown = ""
            shown.unicodeScalars.append(contentsOf: scalars)
            lines.append("    " + shown)
            let pad = String(scalars.prefix(column).map { $0 == "\t" ? "\t" : " " })
            lines.append("    " + pad + "^")
        }
        if let hint { lines.append("hint: \(hint)") }
        return lines.joined(separator: "\n")
    }
}

/// Several diagnostics reported together (all the errors of one run, not just the first).
public struct DiagnosticList: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

extension Diagnostic {
    /// Fills `sourceLine` from the text the location points into.
    public func withSource(_ text: String) -> Diagnostic {
        [self].withSources(text)[0]
    }
}

extension Array where Element == Diagnostic {
    /// Each diagnostic with `sourceLine` filled from the text its location points into (one that has a source
    /// line keeps it), the lines found in one pass over `text`.
    func withSources(_ text: String) -> [Diagnostic] {
        let lines = SourceLines.lines(Set(compactMap { $0.sourceLine == nil ? $0.location?.line : nil }), of: text)
        return map { d in
            guard d.sourceLine == nil, let line = d.location?.line else { return d }
            var located = d
            located.sourceLine = lines[line]
            return located
        }
    }
}
