/// A diagnostic in JSON documents: `severity`, `message`, and `file`, `line`, `column`, `hint` when known. The
/// command line's documents encode it; `JSONReport` (a stopped run's `error`) writes its `object`.
package struct JSONDiagnostic: Encodable, Sendable {
    package var severity: String
    package var message: String
    package var file: String?
    package var line: Int?
    package var column: Int?
    package var hint: String?

    package init(_ d: Diagnostic) {
        severity = d.severity.rawValue
        message = d.message
        file = d.location?.file
        line = d.location?.line
        column = d.location?.column
        hint = d.hint
    }

    /// The same members for `JSONSerialization` (absent when nil, as the encoder leaves them out).
    package var object: [String: Any] {
        var entry: [String: Any] = ["severity": severity, "message": message]
        entry["file"] = file
        entry["line"] = line
        entry["column"] = column
        entry["hint"] = hint
        return entry
    }
}
