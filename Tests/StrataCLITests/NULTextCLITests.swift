import Foundation
import Testing

/// Text holding U+0000 (YAML's "\0") is bound whole: GRDB binds a String as a C string, which SQLite cut at
/// the NUL, so a hook's `name == %@` with "keep\0me" deleted the row named "keep" and kept "keep\0me", and
/// values and defaults with a NUL were stored cut.
@Suite struct NULTextCLITests {
    static let v1 = "version: 1\nentities:\n  Item:\n    attributes:\n      name: { type: string }\n"

    static func project(v2: String, hook: String?) throws -> String {
        let dir = try CLI.project("nul", models: ["1.yaml": v1, "2.yaml": v2])
        if let hook { try hook.write(toFile: dir + "/migrations/h.yaml", atomically: true, encoding: .utf8) }
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", "s.sqlite"], in: dir).status == 0)
        try E2E.execute(dir + "/s.sqlite", #"INSERT INTO "Item" ("name") VALUES ('keep'), ('keep' || char(0) || 'me'), ('other')"#)
        return dir
    }

    @Test func aDeleteMatchesTheWholeText() throws {
        let hook = """
            id: h
            after: 2
            steps:
              - batchDelete: { entity: Item, predicate: "name == %@", arguments: ["keep\\0me"] }
            """
        let dir = try Self.project(v2: Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2"), hook: hook)
        let run = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT "_pk", hex("name") FROM "Item" ORDER BY "_pk""#) == ["1|6B656570", "3|6F74686572"])
    }

    @Test func updatedValuesAndDefaultsKeepTheirNUL() throws {
        let v2 = "version: 2\nentities:\n  Item:\n    attributes:\n      name: { type: string }\n"
            + "      tag: { type: string, optional: false, default: \"x\\0y\" }\n"
        let hook = """
            id: h
            after: 2
            steps:
              - batchUpdate: { entity: Item, predicate: "name == 'other'", propertiesToUpdate: { name: "a\\0b" } }
            """
        let dir = try Self.project(v2: v2, hook: hook)
        let run = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT "_pk", hex("name"), hex("tag") FROM "Item" ORDER BY "_pk""#)
            == ["1|6B656570|780079", "2|6B656570006D65|780079", "3|610062|780079"])
    }

    /// The audit judges a stored text whole: SQLite's `length` and a function's text argument stop at the
    /// first NUL, so 'ab\0cdefgh' (9 Characters) passed maxLength 5, '\0abc' failed minLength 1, and the
    /// pattern and the sample saw only 'ab'.
    @Test func theAuditJudgesAndShowsTheWholeText() throws {
        let model = "version: 1\nentities:\n  Item:\n    attributes:\n"
            + "      name: { type: string, maxLength: 5, minLength: 1, pattern: \"[a-z]*\" }\n"
            + "      code: { type: string, minLength: 3 }\n"
        let dir = try CLI.project("nul-audit", models: ["1.yaml": model])
        #expect(try CLI.run(["migrate", "--create", "--store", "s.sqlite"], in: dir).status == 0)
        try E2E.execute(dir + "/s.sqlite", """
            INSERT INTO "Item" ("name", "code") VALUES ('ab' || char(0) || 'cdefgh', 'ab' || char(0) || 'c'),
                (char(0) || 'a', 'a' || char(0)), ('abc', 'abcd');
            """)
        let run = try CLI.run(["audit", "--store", "s.sqlite", "--format", "json"], in: dir)
        #expect(run.status == 3)
        let rules = try CLI.json(run.stdout)["audit"] as? [String: Any]
        let violated = (rules?["rules"] as? [[String: Any]] ?? []).filter { ($0["count"] as? Int ?? 0) > 0 }
        let summary = violated.map { rule in
            let samples = (rule["samples"] as? [[String: Any]] ?? []).map { sample in
                (sample["objectID"] as? String ?? "").components(separatedBy: "/").last! + "=" + (sample["value"] as? String ?? "nil")
            }
            return "\(rule["property"] ?? "") \(rule["rule"] ?? "") \(samples)"
        }
        #expect(summary == [
            "name maxLength [\"p1=ab\\0cdefgh\"]",
            "name pattern [\"p1=ab\\0cdefgh\", \"p2=\\0a\"]",
            "code minLength [\"p2=a\\0\"]",
        ])
    }

    /// The string operators and functions read a stored text whole: Strata's SQLite functions took a text
    /// argument through GRDB's function API as a C string, so 'keep\0me' CONTAINS "me" was false, and a function's
    /// text result was cut at its NUL too (`uppercase(name)` stored 'KEEP').
    @Test(arguments: [
        (#"name CONTAINS "me""#, [2]), (#"name ENDSWITH "me""#, [2]), (#"name BEGINSWITH "keep""#, [1, 2]),
        (#"name LIKE "keep*me""#, [2]), (#"name LIKE "keep?me""#, [2]), (#"name MATCHES "keep.me""#, [2]),
        (#"name ENDSWITH[c] "ME""#, [2]), (#"name CONTAINS[cd] "MÉ""#, [2]), (#"name MATCHES[c] "KEEP.ME""#, [2]),
        ("length(name) == 7", [2]), (#"uppercase(name) ENDSWITH "ME""#, [2]), (#"trim(name) ENDSWITH "me""#, [2]),
        (#"substring(name, 6) == "me""#, [2]),
    ])
    func theStringOperatorsReadTheWholeText(predicate: String, expected: [Int]) throws {
        let dir = try Self.project(v2: Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2"), hook: nil)
        let run = try CLI.run(["batch", "update", "--entity", "Item", "--set", "name=hit", "--audit", "none", "--result", "ids",
                               "--where", predicate, "--store", "s.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").map { String($0.split(separator: "/").last!) } == expected.map { "p\($0)" })
    }

    @Test func functionResultsKeepTheirNUL() throws {
        let dir = try Self.project(v2: Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2"), hook: nil)
        let run = try CLI.run(["batch", "update", "--entity", "Item", "--where", #"name CONTAINS "me""#, "--set-expr",
                               #"name=uppercase(name) + lowercase(name) + trim(name) + substring(name, 4)"#, "--store", "s.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT "_pk", hex("name") FROM "Item" ORDER BY "_pk""#)
            == ["1|6B656570", "2|4B454550004D456B656570006D656B656570006D6570006D65", "3|6F74686572"])
    }

    /// A hook's predicate with an argument holding a NUL: bound whole, compared whole.
    @Test func aHookArgumentWithANULMatchesInsideTheText() throws {
        let hook = """
            id: h
            after: 2
            steps:
              - batchDelete: { entity: Item, predicate: "name ENDSWITH[c] %@", arguments: ["\\0ME"] }
            """
        let dir = try Self.project(v2: Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2"), hook: hook)
        let run = try CLI.run(["migrate", "--store", "s.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try E2E.rows(dir + "/s.sqlite", #"SELECT "_pk", hex("name") FROM "Item" ORDER BY "_pk""#) == ["1|6B656570", "3|6F74686572"])
    }
}
