import Foundation
import Testing
import StrataTestSupport

/// Symbolic link loops (`loop1 -> loop2`, `loop2 -> loop1`) as the store, on the real binary. A loop leads
/// to no file: it was "no store at 'loop1'" (exit 2, hint `--create`), and `migrate --create` was exit 1
/// "already exists" with a lock file left.
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
}
