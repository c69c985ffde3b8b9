import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCLI

/// `StagedFiles`, the all-or-none writer of `import coredata`: every file staged beside its target, renamed into
/// place only when all are written; a failure puts back what was replaced and removes what was added.
@Suite struct StagedFilesTests {
    static func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    static func listing(_ dir: String) -> [String] {
        ((FileManager.default.subpaths(atPath: dir)) ?? []).sorted()
    }

    @Test func everyFileIsWrittenAndMissingDirectoriesAreCreated() throws {
        let dir = Temporary.directory("staged")
        try "old\n".write(toFile: dir + "/a.yaml", atomically: true, encoding: .utf8)
        var files = StagedFiles()
        files.add("one\n", to: dir + "/a.yaml")
        files.add("two\n", to: dir + "/new/deeper/b.yaml")
        try files.commit()
        #expect(Self.read(dir + "/a.yaml") == "one\n")
        #expect(Self.read(dir + "/new/deeper/b.yaml") == "two\n")
        #expect(Self.listing(dir) == ["a.yaml", "new", "new/deeper", "new/deeper/b.yaml"])
    }

    /// The third target is a directory: its rename fails after the first two files were renamed into place. The
    /// replaced file is back (the same file: its inode and mode), the symbolic link is a link again, the new file
    /// and the directories created for it are gone, and no temporary is left.
    @Test func aFailedRenamePutsEverythingBack() throws {
        let dir = Temporary.directory("staged")
        try "hand edit\n".write(toFile: dir + "/1.yaml", atomically: true, encoding: .utf8)
        #expect(chmod(dir + "/1.yaml", 0o444) == 0)
        try "target\n".write(toFile: dir + "/target.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/2.yaml", withDestinationPath: "target.yaml")
        try FileManager.default.createDirectory(atPath: dir + "/4.yaml/inside", withIntermediateDirectories: true)
        let inode = try FileManager.default.attributesOfItem(atPath: dir + "/1.yaml")[.systemFileNumber] as? UInt64
        let before = Self.listing(dir)

        var files = StagedFiles()
        files.add("new 1\n", to: dir + "/1.yaml")
        files.add("new 2\n", to: dir + "/2.yaml")
        files.add("new 3\n", to: dir + "/made/3.yaml")
        files.add("new 4\n", to: dir + "/4.yaml")
        #expect {
            try files.commit()
        } throws: { error in
            (error as? StagedFiles.WriteError)?.description == """
                error: cannot replace '\(dir)/4.yaml': Is a directory
                hint: nothing was written: the output is as it was before the import
                """
        }
        #expect(Self.listing(dir) == before)
        #expect(Self.read(dir + "/1.yaml") == "hand edit\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/1.yaml")
        #expect(attributes[.systemFileNumber] as? UInt64 == inode)
        #expect((attributes[.posixPermissions] as? Int) == 0o444)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/2.yaml") == "target.yaml")
        #expect(Self.read(dir + "/target.yaml") == "target\n")
    }

    /// A file that cannot be staged (its folder is a file) stops before any rename; the directories created for
    /// the files before it are removed.
    @Test func aFileThatCannotBeStagedChangesNothing() throws {
        let dir = Temporary.directory("staged")
        try "kept\n".write(toFile: dir + "/a.yaml", atomically: true, encoding: .utf8)
        try "a file\n".write(toFile: dir + "/plain", atomically: true, encoding: .utf8)
        let before = Self.listing(dir)
        var files = StagedFiles()
        files.add("new\n", to: dir + "/a.yaml")
        files.add("new\n", to: dir + "/fresh/b.yaml")
        files.add("new\n", to: dir + "/plain/c.yaml")
        #expect {
            try files.commit()
        } throws: { error in
            (error as? StagedFiles.WriteError)?.description == """
                error: cannot write '\(dir)/plain/c.yaml': Not a directory
                hint: nothing was written: the output is as it was before the import
                """
        }
        #expect(Self.listing(dir) == before)
        #expect(Self.read(dir + "/a.yaml") == "kept\n")
    }
}
