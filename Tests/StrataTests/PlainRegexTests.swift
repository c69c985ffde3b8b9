import Foundation
import StrataTestSupport
import Testing
@testable import StrataCore

/// `PlainRegex` may only say "valid" for a pattern ICU compiles, alone and wrapped as `MatchesRegex.compile`
/// wraps it; what it does not recognize is compiled by ICU as before.
@Suite struct PlainRegexTests {
    /// Whether ICU compiles `pattern` the way `MatchesRegex.compile` does.
    static func icuAccepts(_ pattern: String) -> Bool {
        (try? MatchesRegex.compile(pattern, caseInsensitive: false)) != nil
    }

    /// Patterns of the shapes models use take the plain path (so the shortcut is exercised), and ICU agrees.
    @Test(arguments: ["[^@ ]+@[^@ ]+", "[A-Z].*", "^[0-9]{5}$", "\\d{3}-\\d{4}", "(?:ab|cd)+", "[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}",
                      "[-a-z]*", "a{2,4}?", "x*+y", "(a(b(c)))", "\\(\\)\\[\\]\\{\\}\\.\\*", "[\\d\\w\\s]", "a|b|c", "https?://[^/ ]+/.*", "[ -~]+"])
    func plainPatternsNeedNoCompile(_ pattern: String) {
        #expect(PlainRegex.isCertainlyValid(pattern))
        #expect(Self.icuAccepts(pattern))
    }

    /// Valid patterns outside the subset and invalid ones go to ICU: the first pass, the second fail as before.
    @Test(arguments: [("(?i)abc", true), ("\\bword\\b", true), ("[[:alpha:]]", true), ("\\p{L}+", true), ("é+", true),
                      ("(?=a)b", true), ("a|", true), ("[a-z&&[^q]]", true), ("[a-z", false), ("a)(b", false), ("*a", false),
                      ("a{3,2}", false), ("[z-a]", false), ("(?<name", false), ("\\", false), ("a**", false)])
    func otherPatternsAreLeftToICU(_ pattern: String, valid: Bool) {
        #expect(!PlainRegex.isCertainlyValid(pattern))
        #expect(Self.icuAccepts(pattern) == valid)
        #expect(((try? MatchesRegex.check(pattern, caseInsensitive: false)) != nil) == valid)
    }

    /// Random strings over the subset's metacharacters and some outside it: every one the recognizer accepts
    /// ICU compiles, alone and wrapped (and enough are accepted that the check means something).
    @Test func everyAcceptedRandomPatternCompiles() {
        var random = SeededGenerator(seed: 0x5EED_4E6E)
        let alphabet = Array("ab09 .*+?^$|()[]{}\\-,:dwsSnz@&#/").map(String.init)
        var accepted = 0
        for _ in 0..<50_000 {
            let pattern = (0..<(1 + random.next(10))).map { _ in random.pick(alphabet) }.joined()
            guard PlainRegex.isCertainlyValid(pattern) else { continue }
            accepted += 1
            #expect(Self.icuAccepts(pattern), "ICU refuses \(pattern)")
        }
        #expect(accepted > 2_000)
    }

    /// A model's invalid pattern is still an error where it is written.
    @Test func anInvalidModelPatternIsStillLocated() {
        let yaml = "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string, pattern: \"[b-a]\" }\n"
        let error = #expect(throws: DiagnosticList.self) { _ = try ModelLoader.load(yaml: yaml, file: "m.yaml") }
        let line = "          x: { type: string, pattern: \"[b-a]\" }", caret = String(repeating: " ", count: 38) + "^"
        #expect(error?.diagnostics.map(\.description) == [
            "m.yaml:5:35: error: invalid regular expression '[b-a]'\n\(line)\n\(caret)\nhint: check brackets, parentheses and escapes",
        ])
    }
}
