import Foundation
import GRDB
import Strata
import Testing
import StrataTestSupport

/// Output paths and store paths at their edges on the real binary (SPEC §9): spellings that a path-tidying
/// writer reads as the store, side files of another name of the store, a store reached through a symbolic
/// link, and outputs that are devices or links.
@Suite struct OutputPathCLITests {
    /// `app.sqlite/`, `app.sqlite/x/..` and the like name the store (or a model or hook file) for a writer
    /// that tidies paths; they were written over with exit 0 by `--changes-out`.
    @Test func spellingsThatTidyToAProtectedFileAreExit2() throws {
        let (dir, path) = try StoreHardeningCLITests.hookProject(recipes: 50)
        #expect(symlink("app.sqlite", dir + "/alias.sqlite") == 0)
        #expect(link(path, dir + "/hard.sqlite") == 0)
        _ = FileManager.default.createFile(atPath: path + "-strata.lock", contents: nil)
        let model = try #require(FileManager.default.contents(atPath: dir + "/models/4.yaml"))
        let before = E2E.storeHashes(path)
        let batch = ["batch", "update", "--entity", "Recipe", "--set", "rating=1", "--changes-out"]
        let cases: [([String], String, String)] = [
            (batch, "app.sqlite/", "the store"),
            (batch, "app.sqlite/.", "the store"),
            (batch, "./app.sqlite//", "the store"),
            (batch, "app.sqlite/x/..", "the store"),
            (batch, "alias.sqlite/", "the store"),
            (batch, "hard.sqlite/", "the store"),
            (batch, "app.sqlite-strata.lock/", "the store's lock file"),
            (batch, "models/4.yaml/", "a model file"),
            (["migrate", "--changes-out"], "migrations/bump-ratings.yaml/", "a hook file"),
            (["migrate", "--dry-run", "--report"], "app.sqlite/.", "the store"),
            (["audit", "--report"], "models/nothing/../4.yaml", "a model file"),
        ]
        for (command, output, what) in cases {
            let option = command.last!
            let r = try CLI.run(command + [output, "--store", "app.sqlite"] + StoreHardeningCLITests.extra(command), in: dir)
            #expect(r.status == 2, "\(command) \(output): \(r.stderr)")
            #expect(r.stderr == "error: \(option) '\(output)' is \(what); Strata never writes over it\nhint: choose another \(option) path\n",
                    "\(command) \(output)")
            #expect(E2E.storeHashes(path) == before, "\(command) \(output)")
        }
        #expect(FileManager.default.contents(atPath: dir + "/models/4.yaml") == model)
        #expect(FileManager.default.contents(atPath: path + "-strata.lock") == Data())
    }

    /// A store with committed pages in its `-wal`, copied while a connection held them (the app is gone).
    static func walStore(in dir: String, name: String = "app.sqlite") throws -> String {
        let source = try ExampleData.v1Store(in: dir, recipes: 100)
        let queue = try DatabaseQueue(path: source)
        try queue.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            _ = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: #"INSERT INTO "Recipe" ("name", "servings", "rating") VALUES ('InTheWAL', 2, 1)"#)
        }
        let path = dir + "/wal-" + name
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: source + suffix, toPath: path + suffix) }
        try queue.close()
        return path
    }

    /// Through a hard link SQLite keeps `hard.sqlite-wal` apart from `app.sqlite-wal`, which may hold the
    /// committed pages: an output naming a side file of any name of the store is exit 2 (the WAL was lost).
    @Test func sideFilesOfAnotherNameOfTheStoreAreExit2() throws {
        let dir = try CLI.exampleProject()
        let path = try Self.walStore(in: dir)
        #expect(link(path, dir + "/hard.sqlite") == 0)
        let before = E2E.storeHashes(path)
        let cases: [([String], String, String)] = [
            (["migrate", "--dry-run", "--report"], "wal-app.sqlite-wal", "the store's -wal file"),
            (["migrate", "--changes-out"], "wal-app.sqlite-journal", "the store's -journal file"),
            (["migrate", "--force", "--backup"], "./wal-app.sqlite-strata.lock", "the store's lock file"),
        ]
        for (command, output, what) in cases {
            let option = command.last!
            let r = try CLI.run(command + [output, "--store", "hard.sqlite", "--now", ExampleData.now, "--no-progress"], in: dir)
            #expect(r.status == 2, "\(command) \(output): \(r.stderr)")
            #expect(r.stderr == "error: \(option) '\(output)' is \(what) (under another name of the store); Strata never writes over it\n"
                    + "hint: choose another \(option) path\n", "\(command) \(output)")
            #expect(E2E.storeHashes(path) == before, "\(command) \(output)")
        }
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "Recipe" WHERE "name" = 'InTheWAL'"#) == ["1"])
    }

    /// SQLite names a store's journals after its resolved path: a dry run through a symbolic link keeps a
    /// WAL store byte-identical (it checkpointed and deleted the `-wal`), and a hot journal through the link
    /// is named as one (it was "read-only").
    @Test func aStoreThroughASymlinkHasItsJournalsFound() throws {
        let dir = try CLI.exampleProject()
        let path = try Self.walStore(in: dir)
        #expect(symlink("wal-app.sqlite", dir + "/link.sqlite") == 0)
        let before = E2E.storeHashes(path)
        let dry = try CLI.run(["migrate", "--dry-run", "--store", "link.sqlite", "--now", ExampleData.now, "--no-progress"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(E2E.storeHashes(path) == before)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))

        let hotDir = try CLI.exampleProject()
        let hot = try ExampleData.v1Store(in: hotDir, recipes: 2_000)
        try E2E.killWriterMidTransaction(hot)
        #expect(symlink("app.sqlite", hotDir + "/link.sqlite") == 0)
        let hashes = E2E.storeHashes(hot)
        let refused = try CLI.run(["migrate", "--dry-run", "--store", "link.sqlite", "--now", ExampleData.now], in: hotDir)
        #expect(refused.status == 1)
        #expect(refused.stderr == """
            error: 'link.sqlite' has a hot rollback journal (a writer died mid-transaction)
            hint: run `strata status` or `strata migrate` (a real run) once to recover it, then retry the dry run

            """)
        #expect(E2E.storeHashes(hot) == hashes)
    }

    /// A report into a device or a link writes through it: `--report /dev/null` (as root) or a link to a
    /// file never turns into a plain file. A backup never replaces a link.
    @Test func outputsWriteThroughLinksAndDevices() throws {
        let dir = try CLI.exampleProject()
        _ = try ExampleData.v1Store(in: dir, recipes: 10)
        #expect(symlink("/dev/null", dir + "/null") == 0)
        try FileManager.default.createDirectory(atPath: dir + "/reports", withIntermediateDirectories: false)
        #expect(symlink("reports/latest.md", dir + "/latest.md") == 0)
        let audit = try CLI.run(["audit", "--store", "app.sqlite", "--report", "null"], in: dir)
        #expect(audit.status == 0, "\(audit.stderr)")
        let dry = try CLI.run(["migrate", "--dry-run", "--store", "app.sqlite", "--now", ExampleData.now, "--report", "latest.md"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        var info = stat()
        #expect(lstat(dir + "/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        #expect(lstat(dir + "/latest.md", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        let written = try String(contentsOfFile: dir + "/reports/latest.md", encoding: .utf8)
        #expect(written.hasPrefix("## Strata migrate (dry run)"), "\(written.prefix(80))")

        let backup = try CLI.run(["migrate", "--store", "app.sqlite", "--now", ExampleData.now, "--backup", "latest.md", "--force"], in: dir)
        #expect(backup.status == 1)
        #expect(backup.stderr.hasPrefix("error: could not write the backup 'latest.md': it is a symbolic link, not a regular file; the store was not changed"), "\(backup.stderr)")
        #expect(lstat(dir + "/latest.md", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try String(contentsOfFile: dir + "/reports/latest.md", encoding: .utf8) == written)
    }

    /// The change set is written after the commit and is an app's only record of it: a `--changes-out` whose
    /// directory is missing is exit 2 before anything is written (the update committed, then exit 1).
    @Test func aChangesOutWithoutItsDirectoryIsExit2BeforeAnyWrite() throws {
        let (dir, path) = try StoreHardeningCLITests.hookProject(recipes: 20)
        let before = E2E.storeHashes(path)
        for command in [["batch", "update", "--entity", "Recipe", "--set", "rating=1"], ["migrate"]] {
            let r = try CLI.run(command + ["--changes-out", "nodir/changes.json", "--store", "app.sqlite"] + StoreHardeningCLITests.extra(command), in: dir)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr == "error: --changes-out 'nodir/changes.json': the directory 'nodir' does not exist\nhint: create it first; nothing was written\n")
            #expect(E2E.storeHashes(path) == before)
        }
    }

    /// Foundation's `deletingLastPathComponent` stops the process on one-character paths (`b`, `.`, `a/`):
    /// a store, report, backup or change set named so crashed (exit 132).
    @Test func oneCharacterPathsWork() throws {
        let dir = try CLI.exampleProject()
        let created = try CLI.run(["migrate", "--create", "--to", "3", "--store", "b", "--now", ExampleData.now], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        let migrated = try CLI.run(["migrate", "--store", "b", "--now", ExampleData.now, "--backup", "k", "--report", "r"], in: dir)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let batch = try CLI.run(["batch", "update", "--entity", "Recipe", "--set", "rating=1", "--store", "b", "--changes-out", "q"], in: dir)
        #expect(batch.status == 0, "\(batch.stderr)")
        for file in ["b", "k", "r", "q"] { #expect(FileManager.default.fileExists(atPath: dir + "/" + file), "\(file)") }
        let missing = try CLI.run(["migrate", "--dry-run", "--store", "c"], in: dir)
        #expect(missing.status == 2 && missing.stderr.hasPrefix("error: no store at 'c'"), "\(missing.stderr)")
        let directory = try CLI.run(["status", "--store", "."], in: dir)
        #expect(directory.status == 2 && directory.stderr.hasPrefix("error: the store '.' is a directory, not a regular file"), "\(directory.stderr)")
    }
}
