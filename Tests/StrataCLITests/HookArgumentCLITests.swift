import Foundation
import Testing

/// A hook's `arguments:` on the real binary: YAML null is nil (Core Data's NSNull), not the text "null".
@Suite struct HookArgumentCLITests {
    static let v1 = "version: 1\nentities:\n  Item:\n    attributes:\n      name: { type: string }\n      n: { type: int64 }\n"

    static func project(arguments: String, predicate: String) throws -> String {
        let dir = try CLI.project("hook-arguments", models: ["1.yaml": v1, "2.yaml": v1.replacingOccurrences(of: "version: 1", with: "version: 2")])
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", "s.sqlite"], in: dir).status == 0)
        try E2E.execute(dir + "/s.sqlite", #"INSERT INTO "Item" ("name", "n") VALUES ('null', 1), (NULL, NULL), ('~', 2), ('x', 3)"#)
        let hook = "id: h\nafter: 2\nsteps:\n  - batchDelete: { entity: Item, predicate: \"\(predicate)\", arguments: \(arguments) }\n"
        try hook.write(toFile: dir + "/migrations/h.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    /// `[null]` deleted the object named "null" and `[~]` the one named "~"; both now delete the one whose name is nil.
    @Test(arguments: ["[null]", "[~]", "[NULL]"])
    func yamlNullIsNil(_ arguments: String) throws {
        let dir = try Self.project(arguments: arguments, predicate: "name == %@")
        #expect(try CLI.run(["lint"], in: dir).status == 0)
        let run = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT group_concat(quote("name")) FROM "Item""#) == ["'null','~','x'"])
    }

    /// Quoted, it stays text.
    @Test func quotedNullIsText() throws {
        let dir = try Self.project(arguments: #"["null"]"#, predicate: "name == %@")
        #expect(try CLI.run(["migrate", "--store", "s.sqlite"], in: dir).status == 0)
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT group_concat(quote("name")) FROM "Item""#) == ["NULL,'~','x'"])
    }

    /// In a list for `IN %@` a null is nil, which never matches IN; it matched the object named "null".
    @Test func nullInAListMatchesNothing() throws {
        let dir = try Self.project(arguments: "[[x, null, ~]]", predicate: "name IN %@")
        let run = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT group_concat(quote("name")) FROM "Item""#) == ["'null',NULL,'~'"])
    }

    /// A nested list, an empty one or a map inside a list argument was dropped: `NOT (name IN %@)` with
    /// `[["x", ["null"]]]` deleted the object named "null", `[[[]]]` matched nothing, and `[[1, {a: 2}, 3]]` was
    /// `BETWEEN 1 AND 3`. Each is exit 2 at the element, at lint and before any write.
    @Test(arguments: [
        (#"[["x", ["null"]]]"#, "NOT (name IN %@)", 83, "a list"),
        ("[[[]]]", "name IN %@", 72, "a list"),
        ("[[1, {a: 2}, 3]]", "n BETWEEN %@", 77, "a map"),
    ])
    func aListOrMapInAListIsExit2(_ arguments: String, _ predicate: String, _ column: Int, _ what: String) throws {
        let dir = try Self.project(arguments: arguments, predicate: predicate)
        let expected = "migrations/h.yaml:4:\(column): error: each element of a list argument is a value, not \(what)\n"
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.hasPrefix(expected), "\(lint.stderr)")
        #expect(lint.stderr.contains(#"hint: write the values in one flat list, as in [["Soup", "Stew"]]"#), "\(lint.stderr)")
        let before = E2E.hash(dir + "/s.sqlite")
        let run = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(expected), "\(run.stderr)")
        #expect(E2E.hash(dir + "/s.sqlite") == before)
    }

    /// A null in a list is a nil element, as in `{1, nil, 3}`: it was left out, so `[[1, ~, 3]]` was
    /// `BETWEEN 1 AND 3` and deleted 1..3; it is three values (exit 2), and `[[1, ~]]` matches nothing.
    @Test func nullInABetweenListCounts() throws {
        let dir = try Self.project(arguments: "[[1, ~, 3]]", predicate: "n BETWEEN %@")
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.hasPrefix("migrations/h.yaml:4:56: error: BETWEEN needs exactly two values, got 3\n"), "\(lint.stderr)")
        let hook = try String(contentsOfFile: dir + "/migrations/h.yaml", encoding: .utf8)
        try hook.replacingOccurrences(of: "[[1, ~, 3]]", with: "[[1, ~]]").write(toFile: dir + "/migrations/h.yaml", atomically: true, encoding: .utf8)
        let run = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT group_concat(quote("n")) FROM "Item""#) == ["1,NULL,2,3"])
    }

    /// `variables: { X: ~ }` was the text "~": `name == $X` deleted the object named "~". A variable is text, so
    /// YAML null is exit 2 at lint and before any write, located; quoted it is that text.
    @Test func aNullVariableIsExit2() throws {
        let dir = try Self.project(arguments: "[x]", predicate: "name == %@")
        let hook = "id: h\nafter: 2\nvariables: { X: ~ }\nsteps:\n  - batchDelete: { entity: Item, predicate: \"name == $X\" }\n"
        try hook.write(toFile: dir + "/migrations/h.yaml", atomically: true, encoding: .utf8)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stderr.hasPrefix("migrations/h.yaml:3:17: error: variable X is null, but a variable is text\n"), "\(lint.stderr)")
        let before = E2E.hash(dir + "/s.sqlite")
        #expect(try CLI.run(["migrate", "--store", "s.sqlite"], in: dir).status == 2)
        #expect(E2E.hash(dir + "/s.sqlite") == before)
        try hook.replacingOccurrences(of: "X: ~", with: #"X: "~""#).write(toFile: dir + "/migrations/h.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["migrate", "--store", "s.sqlite"], in: dir).status == 0)
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT group_concat(quote("name")) FROM "Item""#) == ["'null',NULL,'x'"])
    }

    /// On an int64 it was exit 2 ("'null' is not an integer"); `n != %@` with nil keeps only the nil one.
    @Test func nullOnANumberIsNil() throws {
        let dir = try Self.project(arguments: "[~]", predicate: "n != %@")
        let run = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT group_concat(quote("n")) FROM "Item""#) == ["NULL"])
    }
}
