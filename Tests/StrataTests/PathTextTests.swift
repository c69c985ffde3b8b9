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
}
