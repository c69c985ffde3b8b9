import Foundation
import StrataTestSupport
import Testing

/// A byte that is not UTF-8, or a character YAML does not allow (NUL), is an error where it stands (SPEC §2, §9:
/// each error with its location), in model, hook and mapping files alike; it was reported at 1:1.
@Suite struct BadBytesLocationCLITests {
    static func lint(_ files: [String: [UInt8]]) throws -> CLI.Result {
        let dir = Temporary.directory("bad-bytes")
        for folder in ["models", "migrations"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
        }
        let model = "version: 1\nentities:\n  Recipe:\n    attributes:\n      name: { type: string }\n"
        try model.write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        try "version: 2\nentities:\n  Recipe:\n    attributes:\n      name: { type: int64 }\n"
            .write(toFile: dir + "/models/2.yaml", atomically: true, encoding: .utf8)
        for (path, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: dir + "/" + path)) }
        return try CLI.run(["lint"], in: dir)
    }

    @Test(arguments: [
        ("models/1.yaml", "version: 1\nentities:\n  Recipe:\n    attributes:\n      name: { type: string, default: \"caf", "model"),
        ("migrations/h.yaml", "id: h\nafter: 1\nsteps:\n  - batchUpdate:\n      entity: Recipe\n      propertiesToUpdate: { name: \"caf", "hook"),
        // A file in migrations/ that cannot be read as text cannot be told for a mapping file: named as a hook file.
        ("migrations/v2.yaml", "mapping: { from: 1, to: 2 }\nentities:\n  Recipe:\n    attributes:\n      name: \"int64(\\\"caf", "hook"),
    ])
    func aByteThatIsNotUTF8IsLocated(_ path: String, _ before: String, _ kind: String) throws {
        let r = try Self.lint([path: Array(before.utf8) + [0xE9] + Array("\")\"\n".utf8)])
        #expect(r.status == 2, "\(r.stderr)")
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        let location = "\(lines.count):\(lines.last!.unicodeScalars.count + 1)"
        #expect(r.stderr.contains("\(path):\(location): error: \(kind) file is not UTF-8 text\n"), "\(r.stderr)")
    }

    @Test func aNULIsLocatedInScalars() throws {
        let text = "version: 1\nentities:\n  Recipe:\n    attributes:\n      né: { type: string, default: \"a"
        let r = try Self.lint(["models/1.yaml": Array(text.utf8) + [0] + Array("b\" }\n".utf8)])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("models/1.yaml:5:38: error: cannot read YAML: control characters are not allowed\n"), "\(r.stderr)")
    }
}
