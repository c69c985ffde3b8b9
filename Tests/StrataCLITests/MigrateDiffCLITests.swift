import Foundation
import Testing

@Suite struct MigrateDiffCLITests {
    @Test func migratesAnExistingStoreVersionByVersion() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "app.sqlite", "--to", "1"], in: dir).status == 0)
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(r.status == 0)
        let doc = try #require(try CLI.json(r.stdout)["migration"] as? [String: Any])
        #expect(doc["fromVersion"] as? Int == 1)
        #expect(doc["toVersion"] as? Int == 4)
        #expect((doc["steps"] as? [[String: Any]])?.map { "\($0["fromVersion"]!)→\($0["toVersion"]!)" } == ["1→2", "2→3", "3→4"])
        let status = try CLI.run(["status", "--check", "--store", "app.sqlite"], in: dir)
        #expect(status.status == 0)
    }

    @Test func diffTextAndJSON() throws {
        let dir = try CLI.exampleProject()
        let text = try CLI.run(["diff", "3", "4"], in: dir)
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("v3 → v4\n"))
        #expect(text.stdout.contains("    ALTER TABLE \"Recipe\" ADD COLUMN \"favorite\" INTEGER DEFAULT 0;\n"))
        let json = try CLI.run(["diff", "1", "4", "--format", "json"], in: dir)
        let doc = try CLI.json(json.stdout)
        #expect(doc["schemaVersion"] as? Int == 1)
        #expect((doc["steps"] as? [[String: Any]])?.map { $0["to"] as? Int } == [2, 3, 4])
    }

    @Test func notInferableIsExit4AndLeavesTheStoreBytes() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "app.sqlite", "--to", "4"], in: dir).status == 0)
        let four = try String(contentsOfFile: dir + "/models/4.yaml", encoding: .utf8)
        try four.replacingOccurrences(of: "version: 4", with: "version: 5")
            .replacingOccurrences(of: "favorite: { type: bool", with: "favorite: { type: string")
            .write(toFile: dir + "/models/5.yaml", atomically: true, encoding: .utf8)
        let before = FileManager.default.contents(atPath: dir + "/app.sqlite")
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 4)
        #expect(r.stderr.contains("error: v4 → v5: Recipe.favorite: type changes from bool to string, which Strata cannot infer"))
        #expect(FileManager.default.contents(atPath: dir + "/app.sqlite") == before)
        #expect(try CLI.run(["diff", "4", "5"], in: dir).status == 4)
    }

    @Test func handEditedSchemaIsExit6() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "app.sqlite", "--to", "3"], in: dir).status == 0)
        try E2E.execute(dir + "/app.sqlite", "ALTER TABLE Recipe ADD COLUMN hacked TEXT")
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 6)
        #expect(r.stderr.contains("Recipe.hacked: extraColumn: expected no column, found TEXT"))
    }
}
