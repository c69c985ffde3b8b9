import Foundation
import Testing
import StrataTestSupport

/// Symbolic link loops (`loop1 -> loop2`, `loop2 -> loop1`) as the store or as an output, on the real binary.
/// A loop leads to no file: as the store it was "no store at 'loop1'" (exit 2, hint `--create`), and
/// `migrate --create` was exit 1 "already exists" with a lock file left; as `--report` or `--changes-out` it
/// was replaced by a regular file, exit 0 (Docs/operations.md: a link is followed and its target written).
@Suite struct LinkLoopCLITests {
    /// The names in `dir` and where each link points, to show that nothing was created or replaced.
    static func entries(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted().map { name in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + name)
            return name + (target.map { " -> " + $0 } ?? "")
        }
    }

    @Test(arguments: ["two links", "a link to itself"])
    func aStoreThatIsALinkLoopIsExit2AndNothingIsCreated(kind: String) throws {
        let dir = try CLI.exampleProject()
        if kind == "two links" {
            #expect(symlink("loop2", dir + "/loop1") == 0)
            #expect(symlink("loop1", dir + "/loop2") == 0)
        } else {
            #expect(symlink("loop1", dir + "/loop1") == 0)
        }
        let before = try Self.entries(dir)
        let commands: [[String]] = [
            ["status"], ["status", "--check"], ["history"], ["audit"], ["meta", "list"], ["meta", "get", "strata.version"],
            ["meta", "set", "k", "v"], ["migrate", "--dry-run"], ["migrate"], ["migrate", "--create"],
            ["migrate", "--create", "--dry-run"], ["batch", "delete", "--entity", "Recipe"], ["repair"], ["adopt", "--version", "1"],
        ]
        for command in commands {
            let r = try CLI.run(command + ["--store", "loop1"] + StoreHardeningCLITests.extra(command), in: dir)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr == "error: the store 'loop1' is a symbolic link loop, not a regular file\nhint: check --store (or STRATA_STORE)\n",
                    "\(command)")
            #expect(try Self.entries(dir) == before, "\(command)")
        }
    }

    /// Each output option that writes through a link, with the command that takes it.
    static let outputs: [[String]] = [
        ["batch", "update", "--entity", "Recipe", "--set", "rating=1", "--changes-out"],
        ["audit", "--report"],
        ["migrate", "--report"],
        ["migrate", "--changes-out"],
        ["migrate", "--dry-run", "--report"],
        ["status", "--stores", "*.sqlite", "--report"],
    ]

    @Test func anOutputThatIsALinkLoopIsExit2BeforeAnyWork() throws {
        let (dir, path) = try StoreHardeningCLITests.hookProject(recipes: 20)
        #expect(symlink("loop2", dir + "/loop1") == 0)
        #expect(symlink("loop1", dir + "/loop2") == 0)
        let before = E2E.storeHashes(path)
        let files = try Self.entries(dir)
        for command in Self.outputs {
            let option = command.last!
            let store = command.contains("--stores") ? [] : ["--store", "app.sqlite"]
            let r = try CLI.run(command + ["loop1"] + store + StoreHardeningCLITests.extra(command), in: dir)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr == "error: \(option) 'loop1' is a symbolic link loop: following it never reaches a file\n"
                    + "hint: fix the link or choose another \(option) path; nothing was written\n", "\(command)")
            #expect(r.stdout.isEmpty, "\(command): \(r.stdout)")
            #expect(E2E.storeHashes(path) == before, "\(command)")
            #expect(try Self.entries(dir) == files, "\(command)")
        }
    }

    /// A dangling link is no loop: its target is created, as before, and the link kept.
    @Test func aDanglingOutputLinkStillHasItsTargetWritten() throws {
        let (dir, _) = try StoreHardeningCLITests.hookProject(recipes: 20)
        #expect(symlink("changes.json", dir + "/out.json") == 0)
        #expect(symlink("report.txt", dir + "/report-link.txt") == 0)
        let batch = try CLI.run(["batch", "update", "--entity", "Recipe", "--set", "rating=1", "--changes-out", "out.json",
                                 "--store", "app.sqlite"] + StoreHardeningCLITests.now, in: dir)
        #expect(batch.status == 0, "\(batch.stderr)")
        let audit = try CLI.run(["audit", "--report", "report-link.txt", "--store", "app.sqlite", "--no-progress"], in: dir)
        #expect(audit.status == 0, "\(audit.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/out.json") == "changes.json")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/report-link.txt") == "report.txt")
        #expect(FileManager.default.contents(atPath: dir + "/changes.json")?.isEmpty == false)
        #expect(FileManager.default.contents(atPath: dir + "/report.txt")?.isEmpty == false)
    }
}
