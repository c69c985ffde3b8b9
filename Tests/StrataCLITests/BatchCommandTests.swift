import Foundation
import Testing

/// End-to-end: `strata batch update|delete` on a temporary store created from the repository's models.
@Suite struct BatchCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binary = root.appendingPathComponent(".build/debug/strata").path

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    static func strata(_ args: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = args
        process.currentDirectoryURL = root
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    static func sqlite(_ path: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A store at the newest example model with two recipes, a chef and an ingredient.
    static func makeStore() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("s.sqlite").path
        let created = try strata(["migrate", "--create", "--store", path, "--models", root.appendingPathComponent("models").path])
        #expect(created.status == 0, "\(created.stderr)")
        _ = try sqlite(path, """
            INSERT INTO Chef(_pk, name) VALUES (1, 'Ana');
            INSERT INTO Recipe(_pk, name, rating, favorite, lastUsed, author) VALUES (1, 'Soup', 3, 0, 1716000000, 1), (2, 'Tea', 5, 0, 1600000000, NULL);
            INSERT INTO Ingredient(_pk, name, recipe) VALUES (1, 'salt', 1);
            """)
        return path
    }

    @Test func updatePrintsIDsAndChangesTheRows() throws {
        guard FileManager.default.fileExists(atPath: Self.binary) else { Issue.record("build the strata binary first"); return }
        let store = try Self.makeStore()
        let run = try Self.strata(["batch", "update", "--store", store, "--entity", "Recipe", "--where", "lastUsed >= $NOW - 30 days",
                                   "--set", "favorite=true", "--now", "2024-05-21T00:00:00Z", "--result", "ids"])
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("/Recipe/p1\n"))
        #expect(run.stdout.hasPrefix("x-strata://"))
        #expect(try Self.sqlite(store, "SELECT group_concat(favorite) FROM (SELECT favorite FROM Recipe ORDER BY _pk)") == "1,0")
    }

    @Test func badPredicateExits2WithLocation() throws {
        guard FileManager.default.fileExists(atPath: Self.binary) else { Issue.record("build the strata binary first"); return }
        let store = try Self.makeStore()
        let run = try Self.strata(["batch", "update", "--store", store, "--entity", "Recipe", "--where", "rating >= 3 AND lastUsd > 1", "--set", "favorite=true"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("predicate:1:17: error: Recipe has no attribute 'lastUsd' (did you mean 'lastUsed'?)\n"))
        #expect(try Self.sqlite(store, "SELECT SUM(favorite) FROM Recipe") == "0")
    }

    @Test func setValueOutOfRangeExits2() throws {
        guard FileManager.default.fileExists(atPath: Self.binary) else { Issue.record("build the strata binary first"); return }
        let store = try Self.makeStore()
        let run = try Self.strata(["batch", "update", "--store", store, "--entity", "Recipe", "--set", "rating=70000"])
        #expect(run.status == 2)
        #expect(try Self.sqlite(store, "SELECT group_concat(rating) FROM Recipe") == "3,5")
    }

    @Test func setInjectionIsStoredAsText() throws {
        guard FileManager.default.fileExists(atPath: Self.binary) else { Issue.record("build the strata binary first"); return }
        let store = try Self.makeStore()
        let run = try Self.strata(["batch", "update", "--store", store, "--entity", "Recipe", "--where", "name == 'Tea'",
                                   "--set", "notes='); DROP TABLE Chef; --"])
        #expect(run.status == 0)
        #expect(try Self.sqlite(store, "SELECT notes FROM Recipe WHERE _pk = 2") == "'); DROP TABLE Chef; --")
        #expect(try Self.sqlite(store, "SELECT COUNT(*) FROM Chef") == "1")
    }

    @Test func deleteCascadesAndWritesChanges() throws {
        guard FileManager.default.fileExists(atPath: Self.binary) else { Issue.record("build the strata binary first"); return }
        let store = try Self.makeStore()
        let changes = store + ".changes.json"
        let run = try Self.strata(["batch", "delete", "--store", store, "--entity", "Recipe", "--where", "name == %@", "--arg", "Soup",
                                   "--changes-out", changes, "--format", "json"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("\"schemaVersion\" : 1"))
        #expect(run.stdout.contains("\"count\" : 1"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: changes))) as? [String: [String: [String]]]
        #expect(json?["deleted"]?["Recipe"]?.count == 1)
        #expect(json?["deleted"]?["Ingredient"]?.count == 1)
        #expect(try Self.sqlite(store, "SELECT COUNT(*) FROM Ingredient") == "0")
    }
}
