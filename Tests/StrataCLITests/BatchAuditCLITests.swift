import Foundation
import Testing

/// `strata batch` audits the rows it touched before commit (SPEC §8).
@Suite struct BatchAuditCLITests {
    static func store() throws -> (dir: String, path: String) {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 100)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite", "--now", ExampleData.now], in: dir).status == 0)
        return (dir, path)
    }

    @Test func violationsRollBackByDefault() throws {
        let (dir, path) = try Self.store()
        let r = try CLI.run(["batch", "update", "--store", "app.sqlite", "--entity", "Recipe", "--where", "rating == 5",
                             "--set", "portions=200"], in: dir)
        #expect(r.status == 3)
        #expect(r.stderr.contains("error: the batch update on Recipe broke the model's rules (16 violation(s)); it was rolled back"))
        #expect(r.stderr.contains("Recipe.portions max: 16"))
        #expect(try ExampleData.query(path, #"SELECT count(*) FROM "Recipe" WHERE "portions" = 200"#) == 0)
    }

    @Test func warnCommitsAndReports() throws {
        let (dir, path) = try Self.store()
        let r = try CLI.run(["batch", "update", "--store", "app.sqlite", "--entity", "Recipe", "--where", "rating == 5",
                             "--set", "portions=200", "--on-violation", "warn", "--format", "json"], in: dir)
        #expect(r.status == 0)
        let doc = try CLI.json(r.stdout)
        #expect(doc["count"] as? Int == 16)
        let rules = (doc["audit"] as? [String: Any])?["rules"] as? [[String: Any]]
        #expect(rules?.first { $0["count"] as? Int ?? 0 > 0 }?["code"] as? Int == 1610)
        #expect(try ExampleData.query(path, #"SELECT count(*) FROM "Recipe" WHERE "portions" = 200"#) == 16)
    }

    @Test func auditNoneRunsTheBareUpdate() throws {
        let (dir, path) = try Self.store()
        let r = try CLI.run(["batch", "update", "--store", "app.sqlite", "--entity", "Recipe", "--where", "rating == 5",
                             "--set", "portions=200", "--audit", "none"], in: dir)
        #expect(r.status == 0)
        #expect(r.stdout == "16\n")
        #expect(try ExampleData.query(path, #"SELECT count(*) FROM "Recipe" WHERE "portions" = 200"#) == 16)
    }

    @Test func cleanBatchesCommit() throws {
        let (dir, path) = try Self.store()
        let r = try CLI.run(["batch", "delete", "--store", "app.sqlite", "--entity", "Recipe", "--where", "rating == 0",
                             "--changes-out", "changes.json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let remaining: Int? = try ExampleData.query(path, #"SELECT count(*) FROM "Recipe" WHERE "rating" = 0"#)
        #expect(remaining == 0)
        let changes = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/changes.json"))) as? [String: Any]
        let deleted = changes?["deleted"] as? [String: [String]]
        #expect(deleted?["Recipe"]?.count == Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(deleted?["Ingredient"]?.count == 2 * (deleted?["Recipe"]?.count ?? -1))
    }
}
