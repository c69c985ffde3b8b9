import Foundation
import Testing

/// Output options checked against each other and against the project before any work (exit 2, store and
/// files unchanged): two options naming one file (a report replaced the backup, exit 0), a `--changes-out`
/// that is a directory or whose directory is missing behind a link (the store was changed, then the change
/// set lost, exit 1), and a new YAML file in the models or hooks directory (the next run
/// failed, reading a report as a hook).
@Suite struct OutputConflictCLITests {
    static func project() throws -> (dir: String, path: String) {
        try StoreHardeningCLITests.hookProject(recipes: 30)
    }

    static func refused(_ command: [String], in dir: String, path: String, stderr: String) throws {
        let before = E2E.storeHashes(path)
        let listing = try FileManager.default.subpathsOfDirectory(atPath: dir).sorted()
        let r = try CLI.run(command + ["--store", "app.sqlite"] + StoreHardeningCLITests.extra(command), in: dir)
        #expect(r.status == 2, "\(command): \(r.stderr)")
        #expect(r.stderr == stderr, "\(command)")
        #expect(E2E.storeHashes(path) == before, "\(command)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: dir).sorted() == listing, "\(command)")
        let json = try CLI.run(command + ["--store", "app.sqlite", "--format", "json"] + StoreHardeningCLITests.extra(command), in: dir)
        #expect(json.status == 2, "\(command)")
        let error = try CLI.json(json.stdout)["error"] as? [String: Any]
        #expect((error?["diagnostics"] as? [[String: Any]])?.first?["message"] as? String
                == String(stderr.dropFirst("error: ".count).prefix { $0 != "\n" }), "\(command): \(json.stdout)")
    }

    @Test func twoOptionsNamingOneFileAreExit2() throws {
        let (dir, path) = try Self.project()
        try "an older report".write(toFile: dir + "/old.txt", atomically: true, encoding: .utf8)
        #expect(symlink("x.json", dir + "/alias.json") == 0)
        let cases: [([String], String)] = [
            (["migrate", "--backup", "before.sqlite", "--report", "before.sqlite"], "--report and --backup name the same file 'before.sqlite'"),
            (["migrate", "--backup", "./before.sqlite", "--report", "before.sqlite"], "--report and --backup name the same file './before.sqlite'"),
            (["migrate", "--changes-out", "x.json", "--report", "alias.json"], "--report and --changes-out name the same file 'x.json'"),
            (["migrate", "--dry-run", "--changes-out", "old.txt", "--report", "./old.txt"], "--report and --changes-out name the same file 'old.txt'"),
        ]
        for (command, message) in cases {
            try Self.refused(command, in: dir, path: path, stderr: "error: \(message)\nhint: give each output its own path\n")
        }
        #expect(try String(contentsOfFile: dir + "/old.txt", encoding: .utf8) == "an older report")
    }

    @Test func aDirectoryOrAMissingDirectoryBehindALinkIsExit2() throws {
        let (dir, path) = try Self.project()
        try FileManager.default.createDirectory(atPath: dir + "/changes", withIntermediateDirectories: false)
        #expect(symlink("/nonexistent-strata/dir/c.json", dir + "/dangling") == 0)
        #expect(symlink("changes", dir + "/to-changes") == 0)
        let batch = ["batch", "delete", "--entity", "Recipe", "--where", #"name BEGINSWITH "R""#, "--result", "ids"]
        let cases: [([String], String)] = [
            (batch + ["--changes-out", "changes"], "error: --changes-out 'changes' is a directory\nhint: name a file; nothing was written\n"),
            (batch + ["--changes-out", "to-changes"], "error: --changes-out 'to-changes' is a directory\nhint: name a file; nothing was written\n"),
            (batch + ["--changes-out", "dangling"],
             "error: --changes-out 'dangling': the directory '/nonexistent-strata/dir' does not exist\nhint: create it first; nothing was written\n"),
            (["migrate", "--changes-out", "changes"], "error: --changes-out 'changes' is a directory\nhint: name a file; nothing was written\n"),
        ]
        for (command, stderr) in cases { try Self.refused(command, in: dir, path: path, stderr: stderr) }
    }

    @Test func aNewYAMLFileInTheModelsOrHooksDirectoryIsExit2() throws {
        let (dir, path) = try Self.project()
        let cases: [([String], String)] = [
            (["migrate", "--dry-run", "--report", "migrations/plan.yaml"],
             "error: --report 'migrations/plan.yaml' is a YAML file in the hooks directory 'migrations', which the next run would read as one of its hooks\nhint: write it outside 'migrations'\n"),
            (["migrate", "--changes-out", "./migrations/../migrations/c.yml"],
             "error: --changes-out './migrations/../migrations/c.yml' is a YAML file in the hooks directory 'migrations', which the next run would read as one of its hooks\nhint: write it outside 'migrations'\n"),
            (["audit", "--report", "models/6.yaml"],
             "error: --report 'models/6.yaml' is a YAML file in the models directory 'models', which the next run would read as one of its models\nhint: write it outside 'models'\n"),
        ]
        for (command, stderr) in cases { try Self.refused(command, in: dir, path: path, stderr: stderr) }
        // Other files there are not read, and may be written.
        let notes = try CLI.run(["audit", "--store", "app.sqlite", "--report", "models/audit.md"], in: dir)
        #expect(notes.status == 0, "\(notes.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/models/audit.md"))
        #expect(try CLI.run(["lint"], in: dir).status == 0)
    }
}
