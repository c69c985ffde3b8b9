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
}
