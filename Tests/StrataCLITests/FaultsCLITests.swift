import Foundation
import GRDB
import Strata
@testable import StrataCore   // SHA256, internal to the library
import Testing

/// Faults a deploy pipeline meets (SPEC §8, §10, issue 7): each gets its exit code and a message that says
/// what to do, and the store's bytes are unchanged.
@Suite struct FaultsCLITests {
    static let now = ["--now", ExampleData.now, "--no-progress"]

    @Test func missingStoreDirectoryIsExit2() throws {
        let dir = try CLI.exampleProject()
        for create in [false, true] {
            let r = try CLI.run(["migrate", "--store", "nowhere/app.sqlite"] + (create ? ["--create"] : []) + Self.now, in: dir)
            #expect(r.status == 2)
            #expect(r.stderr == """
                error: the directory of 'nowhere/app.sqlite' does not exist
                hint: create the directory or fix the path

                """)
            #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere"))
        }
        let missing = try CLI.run(["migrate", "--store", "app.sqlite"] + Self.now, in: dir)
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: no store at 'app.sqlite'\nhint: check the path, or pass --create to create a new store there\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/app.sqlite"))
    }

    /// Tests run as root, who could write the file anyway: Preflight goes by the permission bits.
    @Test func readOnlyStoreFileOrDirectoryIsExit1() throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 200)
        let before = E2E.storeHashes(path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let r = try CLI.run(["migrate", "--store", "app.sqlite"] + Self.now, in: dir)
        #expect(r.status == 1)
        #expect(r.stderr == "error: the store 'app.sqlite' is read-only\nhint: check the permissions of the file and its directory\n")
        #expect(E2E.storeHashes(path) == before)
        // A dry run only reads: it works on a read-only file.
        #expect(try CLI.run(["migrate", "--dry-run", "--store", "app.sqlite"] + Self.now, in: dir).status == 0)
        #expect(E2E.storeHashes(path) == before)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try FileManager.default.createDirectory(atPath: dir + "/ro", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: path, toPath: dir + "/ro/app.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir + "/ro")
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir + "/ro") }
        let inDirectory = try CLI.run(["migrate", "--store", "ro/app.sqlite"] + Self.now, in: dir)
        #expect(inDirectory.status == 1)
        #expect(inDirectory.stderr == "error: the store 'ro/app.sqlite' is read-only\nhint: check the permissions of the file and its directory\n")
        #expect(E2E.storeHashes(dir + "/ro/app.sqlite") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/ro") == ["app.sqlite"])
    }

    @Test func aFileThatIsNotSQLiteIsExit2() throws {
        let dir = try CLI.exampleProject()
        let path = dir + "/app.sqlite"
        try Data("name,lastUsed\nSoup,2024-05-01\n".utf8).write(to: URL(fileURLWithPath: path))
        let before = E2E.storeHashes(path)
        for extra in [[], ["--dry-run"]] {
            let r = try CLI.run(["migrate", "--store", "app.sqlite"] + extra + Self.now, in: dir)
            #expect(r.status == 2)
            #expect(r.stderr == "error: 'app.sqlite' is not an SQLite database\nhint: check --store (or STRATA_STORE)\n")
        }
        #expect(E2E.storeHashes(path) == before)
    }

    @Test func aCorruptDatabaseIsRefusedWithExit1() throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 3_000)
        // Scribble over three pages in the middle of the file (b-tree pages of the data).
        let pageSize = try #require(try E2E.rows(path, "PRAGMA page_size").first.flatMap { Int($0) })
        let pages = (E2E.fileSize(path) ?? 0) / pageSize
        try #require(pages > 20, "the fixture is too small to scribble in its middle")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        for page in [pages / 2 - 1, pages / 2, pages / 2 + 1] {
            try handle.seek(toOffset: UInt64(page * pageSize))
            handle.write(Data(repeating: 0x7f, count: pageSize))
        }
        try handle.close()
        let before = E2E.storeHashes(path)
        for extra in [[], ["--dry-run"]] {
            let r = try CLI.run(["migrate", "--store", "app.sqlite"] + extra + Self.now, in: dir)
            #expect(r.status == 1, "\(extra): \(r.stderr)")
            // A dry run checks its snapshot (a page copy of the store) but names the store.
            #expect(r.stderr.hasPrefix("error: the store 'app.sqlite' is corrupt: "), "\(r.stderr)")
            #expect(r.stderr.hasSuffix("\nhint: restore it from a backup; Strata will not migrate a corrupt store\n"), "\(r.stderr)")
        }
        #expect(E2E.storeHashes(path) == before)
    }

    @Test func aStoreNewerThanTheNewestModelIsExit6() throws {
        let dir = try E2E.benchProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 100)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite"] + Self.now, in: dir).status == 0)
        // An older release's files: models and hooks up to v4.
        try FileManager.default.removeItem(atPath: dir + "/models/5.yaml")
        try FileManager.default.removeItem(atPath: dir + "/migrations/more-salt.yaml")
        let before = E2E.storeHashes(path)
        for extra in [[], ["--dry-run"], ["--to", "4"]] {
            let r = try CLI.run(["migrate", "--store", "app.sqlite"] + extra + Self.now, in: dir)
            #expect(r.status == 6, "\(extra)")
            #expect(r.stderr == """
                error: the store 'app.sqlite' is at version 5, newer than the newest model (4): it was written by a later app version
                hint: deploy the model files of version 5 (or later); Strata never migrates a store backwards

                """, "\(extra)")
        }
        #expect(E2E.storeHashes(path) == before)
    }

    @Test func targetsOutsideTheModelsAreExit2() throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 100)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite", "--to", "2"] + Self.now, in: dir).status == 0)
        let before = E2E.storeHashes(path)
        let above = try CLI.run(["migrate", "--store", "app.sqlite", "--to", "9"] + Self.now, in: dir)
        #expect(above.status == 2)
        #expect(above.stderr == "error: --to 9: there is no model version 9\nhint: versions: 1, 2, 3, 4\n")
        let below = try CLI.run(["migrate", "--store", "app.sqlite", "--to", "1"] + Self.now, in: dir)
        #expect(below.status == 2)
        #expect(below.stderr == "error: --to 1 is below the store's version 2\nhint: Strata migrates forward only; restore a backup to go back\n")
        #expect(E2E.storeHashes(path) == before)
    }

    @Test func backupToAnExistingFileNeedsForce() throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 1_000)
        let backup = dir + "/backup.sqlite"
        try Data("an older backup".utf8).write(to: URL(fileURLWithPath: backup))
        let before = E2E.storeHashes(path)
        let refused = try CLI.run(["migrate", "--store", "app.sqlite", "--backup", "backup.sqlite"] + Self.now, in: dir)
        #expect(refused.status == 2)
        #expect(refused.stderr == """
            error: the backup file 'backup.sqlite' already exists
            hint: choose another --backup path, remove the file, or pass --force to overwrite it

            """)
        #expect(E2E.storeHashes(path) == before)
        #expect(E2E.hash(backup) == SHA256.hex(Array("an older backup".utf8)))

        let original = try E2E.rows(path, #"SELECT count(*), sum("_pk"), sum(length("name")), total("lastUsed") FROM "Recipe""#)
        let forced = try CLI.run(["migrate", "--store", "app.sqlite", "--backup", "backup.sqlite", "--force", "--format", "json"] + Self.now, in: dir)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect((try CLI.json(forced.stdout)["migration"] as? [String: Any])?["backup"] as? String == "backup.sqlite")
        // The backup is the store as it was before the first change: v1, every row, intact.
        #expect(try E2E.rows(backup, "PRAGMA integrity_check") == ["ok"])
        #expect(try E2E.rows(backup, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["1"])
        #expect(try E2E.rows(backup, #"SELECT count(*), sum("_pk"), sum(length("name")), total("lastUsed") FROM "Recipe""#) == original)
        #expect(try E2E.rows(path, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["4"])
    }

    /// `PRAGMA max_page_count` belongs to a connection, so the CLI cannot be given one: this drives the
    /// library's `Migrator` on a store whose connection is capped, through the v4 → v5 Ingredient rebuild.
    @Test func diskFullDuringARebuildRollsTheStepBackWithExit1() throws {
        let dir = try E2E.benchProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 5_000)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite", "--to", "4"] + Self.now, in: dir).status == 0)
        let before = E2E.storeHashes(path)
        let history = try ModelHistory.load(directory: dir + "/models")

        do {   // the capped connection closes at the end of this block
            let store = try Store.open(path: path)
            try store.write { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count")!
                _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages + 10)")   // no room for a second Ingredient table
            }
            let error = #expect(throws: PipelineError.self) { try Migrator.migrate(store, history: history) }
            #expect(error?.exitCode == .runtimeFailure)
            #expect(error?.description == """
                error: out of space while writing '\(path)' (database or disk is full); the step was rolled back and the store is unchanged
                hint: free disk space (a table rebuild needs room for a second copy of the table) and rerun
                """)
        }
        #expect(E2E.storeHashes(path) == before)
        #expect(try E2E.rows(path, "PRAGMA integrity_check") == ["ok"])
        // With room again, the run completes.
        let rerun = try CLI.run(["migrate", "--store", "app.sqlite"] + Self.now, in: dir)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try E2E.rows(path, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["5"])
    }
}
