import Testing
import StrataCore

/// `PathText.directory(of:)` gives what `NSString.deletingLastPathComponent` gives, on the paths where that traps too.
@Suite struct PathTextTests {
    @Test(arguments: [
        ("f", ""), (".", ""), ("a/", ""), ("f/", ""), ("app.sqlite", ""), ("models/4.yaml", "models"), ("a/b/c", "a/b"),
        ("/f", "/"), ("/", "/"), ("//", "/"), ("a//b", "a"), ("a/b/", "a"), ("/srv/app.sqlite", "/srv"), ("./x", "."), ("../x", ".."),
    ])
    func directoryOfAPath(path: String, directory: String) {
        #expect(PathText.directory(of: path) == directory, "\(path)")
    }

    /// A slash a combining mark follows is one `Character` with it; the system still reads it as a slash.
    @Test func slashesAreFoundByScalar() {
        #expect(Array(PathText.directory(of: "a/\u{301}b").unicodeScalars) == ["a"])
        #expect(PathText.directory(of: "/\u{301}") == "/")
        #expect(Array(PathText.directory(of: "x\u{301}/\u{301}/f").unicodeScalars) == Array("x\u{301}/\u{301}".unicodeScalars))
        #expect(PathText.isAbsolute("/\u{301}x"))
        #expect(!PathText.isAbsolute("\u{301}/x"))
        #expect(PathText.components("a//\u{301}b/").map { Array($0.unicodeScalars) } == [["a"], Array("\u{301}b".unicodeScalars)])
        #expect(PathText.components("a//b/", keepingEmpty: true) == ["a", "", "b", ""])
    }

    /// Bytes that are not UTF-8 as `\xHH`, valid sequences (several bytes too) as they are: a truncated or
    /// overlong sequence, a surrogate and a byte past F4 are each escaped byte by byte.
    @Test(arguments: [
        ([0x63, 0x61, 0x66, 0xE9], #"caf\xE9"#), (Array("café".utf8), "café"), ([0xC3], #"\xC3"#),
        ([0xE2, 0x82, 0x41], #"\xE2\x82A"#), ([0xC0, 0xAF], #"\xC0\xAF"#), ([0xED, 0xA0, 0x80], #"\xED\xA0\x80"#),
        ([0xF5, 0x0A], "\\xF5\n"), (Array("𝄞".utf8) + [0xFF], #"𝄞\xFF"#), ([], ""),
    ] as [([UInt8], String)])
    func escapesBytesThatAreNotUTF8(bytes: [UInt8], expected: String) {
        #expect(PathText.escaped(bytes) == expected)
    }
}
