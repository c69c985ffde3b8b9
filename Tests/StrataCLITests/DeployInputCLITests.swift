import Foundation
import Testing

/// Deploy inputs that were taken silently (SPEC §8: a typo in a deploy path must not yield a fresh empty store
/// or skip work): a `STRATA_*` variable that is not UTF-8, a `--migrations` folder that is not there, a hand-typed
/// `strata.version` of 0, a `--dry-run` asked for `--changes-out`.
@Suite struct DeployInputCLITests {
    @Test(arguments: ["STRATA_STORE", "STRATA_MODELS", "STRATA_MIGRATIONS"])
    func aVariableThatIsNotUTF8IsExit2(_ name: String) throws {
        let project = try NotUTF8NamesCLITests.project()
        let before = try NotUTF8NamesCLITests.listing(project.dir)
        let run = try NotUTF8NamesCLITests.shell(
            "\(name)=\"$(printf 'tenants/caf\\351.sqlite')\" strata migrate --create --store tenants/a.sqlite --quiet", in: project.dir)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("error: the environment variable \(name) ('tenants/caf\\xE9.sqlite') is not UTF-8 text\n"), "\(run.stderr)")
        #expect(try NotUTF8NamesCLITests.listing(project.dir) == before)
        #expect(try project.version("tenants/a.sqlite") == "1")
    }

    @Test func aMigrationsFolderThatIsNotThereIsExit2() throws {
        let project = try FleetProject()
        let store = try project.store("app.sqlite")
        let before = E2E.storeHashes(store)
        try "x".write(toFile: project.dir + "/file.yaml", atomically: true, encoding: .utf8)
        for (args, environment, message) in [
            (["migrate", "--store", "app.sqlite", "--migrations", "migratons"], [:], "migrations directory 'migratons' does not exist"),
            (["status", "--store", "app.sqlite"], ["STRATA_MIGRATIONS": "migratons"], "migrations directory 'migratons' does not exist"),
            (["lint", "--migrations", "file.yaml"], [:], "migrations directory 'file.yaml' is not a directory"),
        ] as [([String], [String: String], String)] {
            let run = try CLI.run(args, in: project.dir, environment: environment)
            #expect(run.status == 2, "\(args): \(run.stderr)")
            #expect(run.stderr.hasPrefix("error: \(message)\n"), "\(args): \(run.stderr)")
        }
        #expect(E2E.storeHashes(store) == before)
        // The default `migrations` may be missing: a project without hooks.
        try FileManager.default.removeItem(atPath: project.dir + "/migrations")
        let run = try project.run(["migrate", "--store", "app.sqlite", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try project.version("app.sqlite") == "4")
    }

    @Test(arguments: ["0", "-1"])
    func aVersionBelow1IsDamageNotDrift(_ version: String) throws {
        let project = try FleetProject()
        let store = try project.store("app.sqlite")
        try E2E.execute(store, "UPDATE strata_metadata SET value = '\(version)' WHERE key = 'strata.version'")
        for args in [["status", "--store", "app.sqlite"], ["migrate", "--store", "app.sqlite"]] {
            let run = try CLI.run(args, in: project.dir)
            #expect(run.status == 1, "\(args): \(run.stderr)")
            #expect(run.stderr.contains("metadata key 'strata.version' does not hold a version number"), "\(args): \(run.stderr)")
        }
    }

    @Test func aDryRunWritesTheChangeSetItWouldMake() throws {
        let project = try FleetProject()
        let store = try project.store("app.sqlite", version: 3, recipes: 0)
        try E2E.execute(store, #"INSERT INTO "Recipe" ("name", "lastUsed", "rating") VALUES ('Soup', 1717113600, 4)"#)
        try #"{"stale":1}"#.write(toFile: project.dir + "/changes.json", atomically: true, encoding: .utf8)
        let before = E2E.storeHashes(store)
        let dry = try project.run(["migrate", "--store", "app.sqlite", "--dry-run", "--changes-out", "changes.json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(E2E.storeHashes(store) == before)
        let preview = try String(contentsOfFile: project.dir + "/changes.json", encoding: .utf8)
        let real = try project.run(["migrate", "--store", "app.sqlite", "--changes-out", "changes.json"])
        #expect(real.status == 0, "\(real.stderr)")
        let written = try String(contentsOfFile: project.dir + "/changes.json", encoding: .utf8)
        #expect(preview == written)
        #expect(written.contains("/Recipe/p1"), "\(written)")
    }
}
