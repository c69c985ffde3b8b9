import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCLI

/// The models a command names load while its arguments parse (`ModelPrefetch`); the command sees the
/// same history, the same errors and the same `--models` (the last one, `--models=DIR` too) as loading
/// them itself, and a subcommand that does not load models starts nothing.
@Suite struct ModelPrefetchTests {
    @Test func theDirectoryIsTheLastModelsOptionBeforeDoubleDash() throws {
        let last = try #require(ModelPrefetch.start(["migrate", "--models", "a", "--store", "s", "--models=b"]))
        #expect(last.directory == "b")
        let spaced = try #require(ModelPrefetch.start(["repair", "--skip", "h", "--models=a", "--models", "c d"]))
        #expect(spaced.directory == "c d")
        let afterDashes = try #require(ModelPrefetch.start(["status", "--models", "a", "--", "--models", "b"]))
        #expect(afterDashes.directory == "a")
        let none = try #require(ModelPrefetch.start(["lint", "--models"]))
        #expect(none.directory == GlobalOptions.modelsDirectory(nil))
    }

    @Test(arguments: [["init", "--models", "m"], ["import", "coredata", "A.xcdatamodeld"], ["history"], ["--version"], [],
                      ["batch", "update", "--entity", "Recipe", "--set", "rating=1"]])
    func aCommandThatDoesNotLoadModelsStartsNothing(_ arguments: [String]) {
        #expect(ModelPrefetch.start(arguments) == nil)
    }

    @Test func theHistoryAndTheErrorsAreTheDirectLoads() throws {
        let project = try CLI.exampleProject()
        let good = try #require(ModelPrefetch.start(["status", "--models", project + "/models"]))
        #expect(try good.history().versions == ModelHistory.load(directory: project + "/models").versions)
        #expect(try good.history().versions == [1, 2, 3, 4])

        try "version: 2\nentities:\n  Note: { attributes: { text: { type: strin } } }\n"
            .write(toFile: project + "/models/2.yaml", atomically: true, encoding: .utf8)
        let broken = try #require(ModelPrefetch.start(["migrate", "--models=" + project + "/models"]))
        let prefetched = #expect(throws: DiagnosticList.self) { try broken.history() }
        let direct = #expect(throws: DiagnosticList.self) { try CommandLineHints.loadModelsNow(directory: project + "/models") }
        #expect(prefetched?.diagnostics.map(\.description) == direct?.diagnostics.map(\.description))
        #expect(prefetched?.diagnostics.first?.description.contains("2.yaml:3:") == true)

        let missing = try #require(ModelPrefetch.start(["diff", "--models", project + "/nothing"]))
        #expect(throws: DiagnosticList.self) { try missing.history() }
    }

    /// End to end: the command runs on the models of the last `--models`, whichever of two directories
    /// is broken, in both spellings, and with `STRATA_MODELS`.
    @Test func theCommandUsesTheModelsItsArgumentsName() throws {
        let project = try CLI.exampleProject()
        let broken = project + "/broken"
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        try "version: 1\nentities: [\n".write(toFile: broken + "/1.yaml", atomically: true, encoding: .utf8)
        let created = try CLI.run(["migrate", "--store", "a.sqlite", "--create", "--to", "2", "--quiet"], in: project)
        #expect(created.status == 0)

        let good = try CLI.run(["status", "--store", "a.sqlite", "--models", "broken", "--models=models"], in: project)
        #expect(good.status == 0)
        #expect(good.stdout.contains("version:  2 (latest model: 4; created at 2)"))
        let bad = try CLI.run(["status", "--store", "a.sqlite", "--models=models", "--models", "broken"], in: project)
        #expect(bad.status == 2)
        #expect(bad.stdout == "")
        #expect(bad.stderr.hasPrefix("broken/1.yaml:"))
        let environment = try CLI.run(["status", "--store", "a.sqlite"], in: project, environment: ["STRATA_MODELS": "broken"])
        #expect(environment.status == 2)
        #expect(environment.stderr == bad.stderr)
        let option = try CLI.run(["status", "--store", "a.sqlite", "--models", "models"], in: project, environment: ["STRATA_MODELS": "broken"])
        #expect(option.status == 0)
        #expect(option.stdout == good.stdout)
    }

    /// On one CPU (a container's cpuset, `taskset -c 0`) the models still load at once. When they were a block on
    /// a dispatch queue, libdispatch started no worker for it while the command's thread waited, until its
    /// monitor noticed a second later: every such command took more than 1 s. The bound is generous (a debug
    /// build on a loaded CI machine) and still below that second.
    @Test func oneCPUDoesNotStallTheLoad() throws {
        let taskset = "/usr/bin/taskset"
        guard FileManager.default.isExecutableFile(atPath: taskset) else {
            Issue.record("taskset (util-linux) is missing: the one-CPU case is not checked")
            return
        }
        let project = try CLI.exampleProject()
        let started = Date()
        let created = try CLI.run(["-c", "0", CLI.binary, "migrate", "--store", "a.sqlite", "--create", "--to", "2", "--quiet"],
                                  in: project, executable: taskset)
        let elapsed = Date().timeIntervalSince(started)
        #expect(created.status == 0)
        #expect(created.stderr == "")
        let status = try CLI.run(["status", "--store", "a.sqlite"], in: project)
        #expect(status.stdout.contains("version:  2 (latest model: 4; created at 2)"))
        #expect(elapsed < 0.8, "taskset -c 0 strata migrate took \(elapsed) s")
    }
}
