import Foundation
import GRDB
import Testing

/// Full file systems on the real binary (issue 12 items 19 and 23), on small tmpfs mounts; skipped
/// where this process may not mount one.
@Suite struct FullDiskCLITests {
    /// Mounts a tmpfs of `kilobytes` at a new directory inside `dir`; nil when mounting is not allowed.
    static func mountTmpfs(in dir: String, name: String, kilobytes: Int) throws -> String? {
        let point = dir + "/" + name
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: false)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mount")
        process.arguments = ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", point]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? point : nil
    }

    static func unmount(_ point: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/umount")
        process.arguments = [point]
        try? process.run()
        process.waitUntilExit()
    }

    /// Before: the raw "SQLite: database or disk is full" with the hook's SQL.
    @Test func aHookThatFillsTheDiskIsTheOutOfSpaceErrorAndChangesNothing() throws {
        let dir = try CLI.exampleProject()
        guard let fs = try Self.mountTmpfs(in: dir, name: "fs", kilobytes: 700) else { return }
        defer { Self.unmount(fs) }
        let path = try ExampleData.v1Store(in: dir, recipes: 1_000, name: "fs/app.sqlite")
        #expect(try CLI.run(["migrate", "--store", "fs/app.sqlite", "--to", "4"] + StoreHardeningCLITests.now, in: dir).status == 0)
        try StoreHardeningCLITests.v5.write(toFile: dir + "/models/5.yaml", atomically: true, encoding: .utf8)
        try """
            id: long-notes
            after: 5
            steps:
              - batchUpdate: { entity: Recipe, propertiesToUpdate: { notes: "\(String(repeating: "n", count: 1_900))" } }
            """.write(toFile: dir + "/migrations/long-notes.yaml", atomically: true, encoding: .utf8)
        let before = E2E.storeHashes(path)
        let r = try CLI.run(["migrate", "--store", "fs/app.sqlite"] + StoreHardeningCLITests.now, in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasSuffix("""
            error: out of space while writing 'fs/app.sqlite' (database or disk is full); the step was rolled back and the store is unchanged
            hint: free disk space (a table rebuild needs room for a second copy of the table) and rerun

            """), "\(r.stderr)")
        #expect(!r.stderr.contains("UPDATE"))
        #expect(E2E.storeHashes(path) == before)
        #expect(try E2E.rows(path, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["4"])
    }

    /// `strata batch` and `meta set` filling the disk: the same message (before: SQLite's raw text and SQL).
    @Test func aBatchThatFillsTheDiskIsTheOutOfSpaceError() throws {
        let dir = try CLI.exampleProject()
        guard let fs = try Self.mountTmpfs(in: dir, name: "fs", kilobytes: 700) else { return }
        defer { Self.unmount(fs) }
        let path = try ExampleData.v1Store(in: dir, recipes: 1_000, name: "fs/app.sqlite")
        let before = E2E.storeHashes(path)
        let r = try CLI.run(["batch", "update", "--entity", "Recipe", "--set", "name=\(String(repeating: "n", count: 1_000))",
                             "--audit", "none", "--store", "fs/app.sqlite"], in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr == """
            error: out of space while writing 'fs/app.sqlite' (database or disk is full); the step was rolled back and the store is unchanged
            hint: free disk space (a table rebuild needs room for a second copy of the table) and rerun

            """)
        #expect(E2E.storeHashes(path) == before)
    }

    /// Before: the failed backup's hidden `-journal` stayed in the backup directory.
    @Test func aBackupThatFillsTheDiskLeavesNothingBehind() throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 2_000)
        guard let fs = try Self.mountTmpfs(in: dir, name: "backups", kilobytes: 64) else { return }
        defer { Self.unmount(fs) }
        let before = E2E.storeHashes(path)
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--backup", "backups/app.sqlite"] + StoreHardeningCLITests.now, in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: could not write the backup 'backups/app.sqlite': "), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fs) == [])
        #expect(E2E.storeHashes(path) == before)
    }
}

extension FullDiskCLITests {
    /// A dry run whose snapshot does not fit where snapshots go (TMPDIR): exit 1 saying so, the store and
    /// the full directory left as they were (no partial copy behind).
    @Test(arguments: ["delete", "wal"])
    func aSnapshotThatDoesNotFitIsExit1AndLeavesNothing(journalMode: String) throws {
        let dir = try CLI.exampleProject()
        guard let fs = try Self.mountTmpfs(in: dir, name: "tmp", kilobytes: 256) else { return }
        defer { Self.unmount(fs) }
        let path = try ExampleData.v1Store(in: dir, recipes: 3_000)
        try DatabaseQueue(path: path).writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = \(journalMode)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try #require(before.count > 256 * 1024, "the store must not fit the 256 KiB file system")
        let result = try CLI.run(["migrate", "--store", "app.sqlite", "--to", "4", "--dry-run"] + StoreHardeningCLITests.now,
                                 in: dir, environment: ["TMPDIR": fs])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no room for the snapshot in '\(fs)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fs) == [])
    }
}
