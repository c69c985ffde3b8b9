import Testing
import StrataCore

/// SQL quoting doubles every quote scalar, also one a combining mark joins into a single `Character` (Foundation's
/// `replacingOccurrences`, used before, left `'` + U+0301 alone and broke the statement).
@Suite struct QuoteDoublingTests {
    @Test(arguments: [
        ("", ""), ("plain", "plain"), ("'", "''"), ("''", "''''"), ("it's", "it''s"), ("it'\u{301}s", "it''\u{301}s"),
        ("\u{301}'", "\u{301}''"), ("\"'\"", "\"''\""), ("é'😀'", "é''😀''"),
    ])
    func singleQuotes(text: String, doubled: String) {
        #expect(Array(text.doublingQuotes("'").unicodeScalars) == Array(doubled.unicodeScalars))
    }

    @Test func identifiersInBothDialects() {
        let name = "a\"\u{301}b"
        #expect(Array(SQLDialect.sqlite.quote(name).unicodeScalars) == Array("\"a\"\"\u{301}b\"".unicodeScalars))
        #expect(SQLDialect.postgresql.quote(name) == SQLDialect.sqlite.quote(name))
        #expect(SQLDialect.sqlite.quote("order") == "\"order\"")
    }
}
