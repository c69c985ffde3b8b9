import Testing
@testable import StrataCore

/// The source line a diagnostic shows: found by line number in the file's text, for `\n` and `\r\n` files
/// (model files through `YAMLReader.finished`, hook files and SQL through `Diagnostic.withSource`).
@Suite struct SourceLinesTests {
    @Test func theWantedLinesWithoutTheirBreaks() {
        let text = "version: 1\r\nentities:\n  Récipe: {}\r\n\n  last"
        #expect(SourceLines.lines([1, 2, 3, 4, 5], of: text) == [1: "version: 1", 2: "entities:", 3: "  Récipe: {}", 4: "", 5: "  last"])
        #expect(SourceLines.lines([3, 9], of: text) == [3: "  Récipe: {}"])   // no line 9
        #expect(SourceLines.lines([2], of: "a\nb\n") == [2: "b"])
        #expect(SourceLines.lines([3], of: "a\nb\n") == [3: ""])             // after the last break
        #expect(SourceLines.lines([], of: "a\nb") == [:])
        #expect(SourceLines.lines([1], of: "") == [1: ""])
    }

    /// A model file saved with Windows line breaks: the error on line 5 shows line 5 (splitting by
    /// `Character` kept `\r\n` together, so the whole file was one line).
    @Test(arguments: ["\n", "\r\n"])
    func aModelErrorShowsItsOwnLine(_ lineBreak: String) throws {
        let yaml = ["version: 1", "entities:", "  Recipe:", "    attributes:", "      name: { type: strin }", ""]
            .joined(separator: lineBreak)
        let error = #expect(throws: DiagnosticList.self) { try ModelLoader.load(yaml: yaml, file: "models/1.yaml") }
        let diagnostic = try #require(error?.diagnostics.first)
        #expect(diagnostic.location?.line == 5)
        #expect(diagnostic.sourceLine == "      name: { type: strin }")
    }

    @Test(arguments: ["\n", "\r\n"])
    func aHookDiagnosticShowsItsOwnLine(_ lineBreak: String) {
        let source = ["hooks:", "  - id: tidy", "    sql: UPDATE nope SET x = 1", ""].joined(separator: lineBreak)
        let located = Diagnostic.error("no such table: nope", at: SourceLocation(file: "migrations/tidy.yaml", line: 3, column: 10))
            .withSource(source)
        #expect(located.sourceLine == "    sql: UPDATE nope SET x = 1")
        let beyond = Diagnostic.error("x", at: SourceLocation(file: "migrations/tidy.yaml", line: 9, column: 1)).withSource(source)
        #expect(beyond.sourceLine == nil)
    }
}
