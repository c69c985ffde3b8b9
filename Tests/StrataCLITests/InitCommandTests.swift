import Foundation
import StrataTestSupport
import Testing
@testable import StrataCLI

/// `strata init` and the STRATA_MODELS / STRATA_MIGRATIONS defaults, on the real binary.
@Suite struct InitCommandTests {
    @Test func initWritesAModelThatLintsAndMigratesAndNeverOverwrites() throws {
        let dir = Temporary.directory("init")
        let first = try CLI.run(["init", "--format", "json"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let document = try CLI.json(first.stdout)
        #expect(document["written"] as? [String] == ["models/1.yaml", "migrations/README.md"])
        #expect(try String(contentsOfFile: dir + "/models/1.yaml", encoding: .utf8) == InitCommand.model)
        #expect(try String(contentsOfFile: dir + "/migrations/README.md", encoding: .utf8) == InitCommand.hooksReadme)

        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0)
        #expect(lint.stdout == "models: 1 model version(s) (1), migrations: 0 hook(s), 0 error(s), 0 warning(s)\n")
        #expect(try CLI.run(["migrate", "--create", "--store", "app.sqlite", "--quiet"], in: dir).status == 0)
        #expect(try E2E.rows(dir + "/app.sqlite", #"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'strata%' AND name NOT LIKE 'sqlite%' ORDER BY name"#)
                == ["Item", "Tag", "_Item_tags"])

        // A second init keeps every file as it is and says why.
        try "# edited\n".appending(InitCommand.model).write(toFile: dir + "/models/1.yaml", atomically: true, encoding: .utf8)
        let again = try CLI.run(["init"], in: dir)
        #expect(again.status == 2)
        #expect(again.stderr.contains("error: 'models' already has model files (1.yaml); init starts a new project"))
        #expect(try String(contentsOfFile: dir + "/models/1.yaml", encoding: .utf8).hasPrefix("# edited\n"))
    }

    @Test func environmentNamesTheDirectoriesAndFlagsWin() throws {
        let dir = Temporary.directory("init-env")
        #expect(try CLI.run(["init", "--models", "schema", "--migrations", "hooks"], in: dir).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/schema/1.yaml"))
        #expect(FileManager.default.fileExists(atPath: dir + "/hooks/README.md"))

        let env = ["STRATA_MODELS": "schema", "STRATA_MIGRATIONS": "hooks"]
        let lint = try CLI.run(["lint"], in: dir, environment: env)
        #expect(lint.status == 0, "\(lint.stderr)")
        #expect(lint.stdout.hasPrefix("schema: 1 model version(s) (1), hooks: 0 hook(s)"))

        // Without the variables the defaults apply (and there is no models/ here).
        let plain = try CLI.run(["lint"], in: dir)
        #expect(plain.status == 2)
        #expect(plain.stderr.contains("models directory 'models' does not exist"))

        // A flag beats the variable.
        let flagged = try CLI.run(["lint", "--models", "nowhere"], in: dir, environment: env)
        #expect(flagged.status == 2)
        #expect(flagged.stderr.contains("models directory 'nowhere' does not exist"))
    }
}
