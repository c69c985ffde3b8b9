import Foundation
import Testing

/// End-to-end: the real `strata` binary on temporary directories.
@Suite struct FoundationCLITests {
    @Test func missingStoreWithoutCreateIsExit2AndCreatesNothing() throws {
        let dir = try CLI.exampleProject()
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == "error: no store at 'app.sqlite'\nhint: check the path, or pass --create to create a new store there\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/app.sqlite"))
    }

    @Test func createThenStatusText() throws {
        let dir = try CLI.exampleProject()
        let created = try CLI.run(["migrate", "--create", "--store", "app.sqlite", "--to", "2"], in: dir)
        #expect(created.status == 0)
        #expect(created.stdout.hasPrefix("Migration: created store app.sqlite at v2 (UUID "))
        let status = try CLI.run(["status", "--store", "app.sqlite"], in: dir)
        #expect(status.status == 0)
        let lines = status.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "store:    app.sqlite")
        #expect(lines[2] == "version:  2 (latest model: 4; created at 2)")
        #expect(lines[4] == "drift:    none")
        #expect(lines[5].hasPrefix("pending:  versions 3, 4;"))
        let check = try CLI.run(["status", "--check", "--store", "app.sqlite"], in: dir)
        #expect(check.status == 7)
    }

    @Test func statusJSONShape() throws {
        let dir = try CLI.exampleProject()
        try CLI.run(["migrate", "--create", "--store", "app.sqlite"], in: dir)
        let r = try CLI.run(["status", "--format", "json"], in: dir, environment: ["STRATA_STORE": "app.sqlite"])
        #expect(r.status == 0)
        let doc = try CLI.json(r.stdout)
        #expect(Set(doc.keys) == ["schemaVersion", "path", "storeUUID", "version", "createdAtVersion", "modelHash",
                                  "latestVersion", "pendingVersions", "pendingHooks", "lateHooks", "drift", "userMetadata"])
        #expect(doc["schemaVersion"] as? Int == 1)
        #expect(doc["version"] as? Int == 4)
        #expect(doc["latestVersion"] as? Int == 4)
        #expect((doc["drift"] as? [Any])?.isEmpty == true)
        #expect((doc["modelHash"] as? String)?.count == 64)
    }

    @Test func lintReportsLocatedErrorsWithExit2() throws {
        let dir = try CLI.exampleProject()
        try "version: 5\nentities:\n  A:\n    attributes:\n      x: { type: strng }\n"
            .write(toFile: dir + "/models/5.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr == """
            models/5.yaml:5:18: error: unknown type 'strng'
                      x: { type: strng }
                                 ^
            hint: did you mean 'string'?

            """)
        #expect(r.stdout == "models: 0 model version(s), migrations: 0 hook(s), 1 error(s), 0 warning(s)\n")
        let json = try CLI.run(["lint", "--format", "json"], in: dir)
        #expect(json.status == 2)
        let doc = try CLI.json(json.stdout)
        #expect(doc["ok"] as? Bool == false)
        let first = (doc["diagnostics"] as? [[String: Any]])?.first
        #expect(first?["line"] as? Int == 5)
        #expect(first?["column"] as? Int == 18)
        #expect(first?["hint"] as? String == "did you mean 'string'?")
    }

    @Test func badModelNeverCreatesAStore() throws {
        let dir = try CLI.exampleProject()
        try "version: 5\nentities:\n  A: { parent: A }\n".write(toFile: dir + "/models/5.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["migrate", "--create", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("models/5.yaml:3:16: error: entity 'A' is its own ancestor (parent cycle)"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/app.sqlite"))
    }

    @Test func invalidArgumentsAreExit2() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--bogus"], in: dir).status == 2)
        #expect(try CLI.run(["migrate", "--create", "--store", "a.sqlite", "--to", "9"], in: dir).status == 2)
        #expect(try CLI.run(["status", "--format", "yaml", "--store", "a.sqlite"], in: dir).status == 2)
        #expect(try CLI.run(["status"], in: dir).stderr.contains("no store given"))
        let json = try CLI.run(["migrate", "--store", "nope.sqlite", "--format", "json"], in: dir)
        #expect(json.status == 2)
        let doc = try CLI.json(json.stdout)
        #expect(doc["schemaVersion"] as? Int == 1)
        #expect((doc["error"] as? [String: Any])?["exitCode"] as? Int == 2)
    }

    @Test func notSQLiteIsExit2() throws {
        let dir = try CLI.exampleProject()
        try String(repeating: "not a database ", count: 100).write(toFile: dir + "/x.sqlite", atomically: true, encoding: .utf8)
        let r = try CLI.run(["status", "--store", "x.sqlite"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("error: 'x.sqlite' is not an SQLite database"))
    }

    @Test func metaAndHistory() throws {
        let dir = try CLI.exampleProject()
        try CLI.run(["migrate", "--create", "--store", "app.sqlite"], in: dir)
        #expect(try CLI.run(["meta", "set", "deployedBy", "ci", "--store", "app.sqlite"], in: dir).status == 0)
        let get = try CLI.run(["meta", "get", "deployedBy", "--store", "app.sqlite"], in: dir)
        #expect(get.stdout == "ci\n")
        #expect(try CLI.run(["meta", "set", "strata.version", "1", "--store", "app.sqlite"], in: dir).status == 2)
        #expect(try CLI.run(["meta", "get", "strata.version", "--store", "app.sqlite"], in: dir).stdout == "4\n")
        let list = try CLI.json(try CLI.run(["meta", "list", "--store", "app.sqlite", "--format", "json"], in: dir).stdout)
        #expect(list["user"] as? [String: String] == ["deployedBy": "ci"])
        #expect((list["system"] as? [String: String])?["strata.version"] == "4")
        let history = try CLI.run(["history", "--store", "app.sqlite", "--format", "json"], in: dir)
        let doc = try CLI.json(history.stdout)
        let migrations = doc["migrations"] as? [[String: Any]]
        #expect(migrations?.count == 1)
        #expect(migrations?.first?["kind"] as? String == "create")
        #expect(migrations?.first?["toVersion"] as? Int == 4)
    }
}

@Suite struct LintHooksCLITests {
    @Test func lintChecksHooksAgainstTheirModelVersion() throws {
        let dir = try CLI.exampleProject()
        let ok = try CLI.run(["lint"], in: dir)
        #expect(ok.status == 0)
        #expect(ok.stdout == "models: 4 model version(s) (1, 2, 3, 4), migrations: 2 hook(s), 0 error(s), 0 warning(s)\n")
        try """
            id: broken
            after: 2
            steps:
              - batchUpdate: { entity: Recipe, predicate: "favorite == YES", propertiesToUpdate: { rating: 5 } }
            """.write(toFile: dir + "/migrations/broken.yaml", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["lint"], in: dir)
        #expect(bad.status == 2)
        // `favorite` arrives in v4: at v2 the hook cannot use it.
        #expect(bad.stderr.hasPrefix("migrations/broken.yaml:4:48: error: Recipe has no attribute 'favorite'"))
    }
}
