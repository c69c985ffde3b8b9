import Foundation
import GRDB
import Strata
import Testing
import StrataTestSupport

/// The store's edges on the real binary (SPEC §9, issue 12): one store whatever the path, outputs that
/// would overwrite it, the lock file, read-only stores, atomic creation, batch under the lock, numeric
/// options, FIFOs and directories, private snapshots and backups.
@Suite struct StoreHardeningCLITests {
    static let now = ["--now", ExampleData.now, "--no-progress"]

    /// `--now` for the commands that take it (migrate, batch); `--no-progress` for all.
    static func extra(_ command: [String]) -> [String] {
        ["migrate", "batch"].contains(command[0]) ? now : ["--no-progress"]
    }

    /// v5 changes nothing in the schema (a metadata-only step); its hook is not idempotent.
    static let v5 = (try? String(contentsOfFile: CLI.packageRoot + "/models/4.yaml", encoding: .utf8))?
        .replacingOccurrences(of: "version: 4", with: "version: 5") ?? ""
    static let bump = """
        id: bump-ratings
        after: 5
        steps:
          - batchUpdate: { entity: Recipe, predicate: "rating < 4", propertiesToUpdate: { rating: { expression: "rating + 1" } } }
        """

    /// v5 with a new column: its step is DDL (ALTER TABLE ADD COLUMN).
    static let v5WithColumn = v5.replacingOccurrences(
        of: "      favorite: { type: bool, default: false, optional: false }\n",
        with: "      favorite: { type: bool, default: false, optional: false }\n      source:   { type: string }\n")

    static func hookProject(recipes: Int, addColumn: Bool = false) throws -> (dir: String, path: String) {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: recipes)
        let upTo4 = try CLI.run(["migrate", "--store", "app.sqlite", "--to", "4"] + now, in: dir)
        precondition(upTo4.status == 0, upTo4.stderr)
        precondition(v5WithColumn != v5)
        try (addColumn ? v5WithColumn : v5).write(toFile: dir + "/models/5.yaml", atomically: true, encoding: .utf8)
        try bump.write(toFile: dir + "/migrations/bump-ratings.yaml", atomically: true, encoding: .utf8)
        return (dir, path)
    }

    /// Item 1: runs through the store's name, a symlink and a hard link at once apply the step and the
    /// non-idempotent hook once; the others find nothing to do (exit 0). With a DDL step, the second run
    /// used to fail with "duplicate column name".
    @Test(arguments: [false, true])
    func runsThroughALinkAndAHardLinkApplyAHookOnce(addColumn: Bool) throws {
        for round in 0..<2 {
            let (dir, path) = try Self.hookProject(recipes: 20_000, addColumn: addColumn)
            #expect(symlink("app.sqlite", dir + "/symlinked.sqlite") == 0)
            #expect(link(path, dir + "/hardlinked.sqlite") == 0)
            let sums = try E2E.rows(path, #"SELECT sum("rating"), sum("rating" < 4) FROM "Recipe""#)[0].split(separator: "|").map { Int($0)! }
            let children = try ["app.sqlite", "symlinked.sqlite", "hardlinked.sqlite"].map {
                try E2E.Child(["migrate", "--store", $0, "--lock-timeout", "120", "--format", "json"] + Self.now, in: dir)
            }
            let results = children.map { $0.wait() }
            #expect(results.map(\.status) == [0, 0, 0], "round \(round): \(results.map(\.stderr))")
            let hookRuns = try results.map { try (CLI.json($0.stdout)["migration"] as? [String: Any])?["hooks"] as? [[String: Any]] ?? [] }
            #expect(hookRuns.map(\.count).sorted() == [0, 0, 1], "round \(round)")
            #expect(try E2E.rows(path, #"SELECT sum("rating") FROM "Recipe""#) == ["\(sums[0] + sums[1])"], "round \(round)")
            #expect(try E2E.rows(path, #"SELECT count(*) FROM "strata_history" WHERE "toVersion" = 5"#) == ["1"])
            #expect(try E2E.rows(path, #"SELECT "id", "status" FROM "strata_hooks" WHERE "afterVersion" = 5"#) == ["bump-ratings|applied"])
            #expect(try E2E.rows(path, #"SELECT count(*) FROM pragma_table_info('Recipe') WHERE "name" = 'source'"#) == [addColumn ? "1" : "0"])
        }
    }

    /// Item 2: an output path naming the store, its companions, its lock, a model or a hook file is exit 2
    /// before any work, whatever its spelling; nothing is written.
    @Test func outputsThatNameProtectedFilesAreExit2() throws {
        let (dir, path) = try Self.hookProject(recipes: 200)
        #expect(symlink("app.sqlite", dir + "/alias.sqlite") == 0)
        #expect(link(path, dir + "/hard.sqlite") == 0)
        _ = FileManager.default.createFile(atPath: path + "-strata.lock", contents: nil)
        let model = try #require(FileManager.default.contents(atPath: dir + "/models/4.yaml"))
        let hook = try #require(FileManager.default.contents(atPath: dir + "/migrations/bump-ratings.yaml"))
        let before = E2E.storeHashes(path)
        let cases: [([String], String, String, String)] = [
            (["migrate", "--dry-run", "--report"], "app.sqlite", "--report", "the store"),
            (["migrate", "--report-format", "json", "--report"], "./alias.sqlite", "--report", "the store"),
            (["migrate", "--changes-out"], "app.sqlite", "--changes-out", "the store"),
            (["migrate", "--changes-out"], "hard.sqlite", "--changes-out", "the store"),
            (["migrate", "--force", "--backup"], "app.sqlite-strata.lock", "--backup", "the store's lock file"),
            (["migrate", "--force", "--backup"], "app.sqlite-journal", "--backup", "the store's -journal file"),
            (["migrate", "--backup"], "./app.sqlite-wal", "--backup", "the store's -wal file"),
            (["migrate", "--dry-run", "--report"], "models/4.yaml", "--report", "a model file"),
            (["audit", "--report-format", "junit", "--report"], "app.sqlite", "--report", "the store"),
            (["audit", "--report"], "migrations/../migrations/bump-ratings.yaml", "--report", "a hook file"),
            (["batch", "update", "--entity", "Recipe", "--set", "rating=1", "--changes-out"], "hard.sqlite", "--changes-out", "the store"),
            (["batch", "delete", "--entity", "Recipe", "--changes-out"], "app.sqlite-shm", "--changes-out", "the store's -shm file"),
        ]
        for (command, output, option, what) in cases {
            let r = try CLI.run(command + [output, "--store", "app.sqlite"] + Self.extra(command), in: dir)
            #expect(r.status == 2, "\(command) \(output): \(r.stderr)")
            #expect(r.stderr == "error: \(option) '\(output)' is \(what); Strata never writes over it\nhint: choose another \(option) path\n",
                    "\(command) \(output)")
            #expect(E2E.storeHashes(path) == before, "\(command) \(output)")
        }
        #expect(FileManager.default.contents(atPath: dir + "/models/4.yaml") == model)
        #expect(FileManager.default.contents(atPath: dir + "/migrations/bump-ratings.yaml") == hook)
        #expect(FileManager.default.contents(atPath: path + "-strata.lock") == Data())
        #expect(!FileManager.default.fileExists(atPath: path + "-journal") && !FileManager.default.fileExists(atPath: path + "-wal"))
    }

    /// Item 3: `ln -s victim app.sqlite-strata.lock` is never followed (before: the victim was truncated).
    @Test func aSymlinkAtTheLockPathIsRefusedAndItsTargetKept() throws {
        let (dir, path) = try Self.hookProject(recipes: 100)
        try? FileManager.default.removeItem(atPath: path + "-strata.lock")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: dir + "/victim.txt"))
        #expect(symlink(dir + "/victim.txt", path + "-strata.lock") == 0)
        let before = E2E.storeHashes(path)
        for command in [["migrate"], ["batch", "update", "--entity", "Recipe", "--set", "rating=1"], ["meta", "set", "k", "v"], ["repair"]] {
            let r = try CLI.run(command + ["--store", "app.sqlite"] + Self.extra(command), in: dir)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr == """
                error: refusing to use the lock file 'app.sqlite-strata.lock': it is a symbolic link
                hint: check what 'app.sqlite-strata.lock' is and remove it; Strata then creates its own lock file there

                """, "\(command)")
        }
        #expect(try String(contentsOfFile: dir + "/victim.txt", encoding: .utf8) == "precious\n")
        #expect(E2E.storeHashes(path) == before)
    }

    /// Item 5: `chmod 444` (tests run as root: the permission bits decide) or a 0555 directory: batch and
    /// meta set exit 1 like migrate, and the store is unchanged.
    @Test func readOnlyStoresAreNotWrittenByBatchOrMetaSet() throws {
        let (dir, path) = try Self.hookProject(recipes: 200)
        try FileManager.default.createDirectory(atPath: dir + "/ro", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: path, toPath: dir + "/ro/app.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir + "/ro")
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir + "/ro") }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let commands = [["batch", "update", "--entity", "Recipe", "--set", "rating=1"], ["batch", "delete", "--entity", "Recipe"],
                        ["meta", "set", "owner", "me"]]
        for store in ["app.sqlite", "ro/app.sqlite"] {
            let before = E2E.storeHashes(dir + "/" + store)
            for command in commands {
                let r = try CLI.run(command + ["--store", store] + Self.extra(command), in: dir)
                #expect(r.status == 1, "\(store) \(command): \(r.stderr)")
                #expect(r.stderr == "error: the store '\(store)' is read-only\nhint: check the permissions of the file and its directory\n")
                #expect(E2E.storeHashes(dir + "/" + store) == before)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/ro") == ["app.sqlite"])
    }

    /// Item 7: `migrate --create` killed at any instant leaves no file the rerun cannot complete.
    @Test func aKilledCreateCompletesOnRerun() throws {
        let dir = try CLI.exampleProject()
        // The delays only spread the kills over the run (from before the lock to after the rename); nothing
        // asserted depends on where one lands: every rerun must complete.
        for delay in stride(from: 0, through: 120_000, by: 15_000) {
            let name = "created-\(delay).sqlite"
            let child = try E2E.Child(["migrate", "--create", "--store", name] + Self.now, in: dir)
            usleep(useconds_t(delay))
            child.kill()
            _ = child.wait()
            let rerun = try CLI.run(["migrate", "--create", "--store", name] + Self.now, in: dir)
            #expect(rerun.status == 0, "killed after \(delay) µs: \(rerun.stderr)")
            #expect(try E2E.rows(dir + "/" + name, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["4"])
        }
        // No temporary store is left once a run completed (the rerun removes those of killed runs).
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(names.filter { $0.contains("strata-create") } == [])
    }

    /// Item 8: batch and meta set take the store lock, wait up to --lock-timeout, then exit 5.
    @Test func batchAndMetaSetWaitForTheStoreLock() throws {
        let (dir, path) = try Self.hookProject(recipes: 100)
        let lock = path + "-strata.lock"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", #"exec 9>>"$1"; flock 9; printf 'pid: %s\nhost: deploy-2\n' $$ > "$1"; exec sleep 60"#, "sh", lock]
        try holder.run()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL); holder.waitUntilExit() } }
        #expect(Wait.until { (try? String(contentsOfFile: lock, encoding: .utf8))?.contains("host: deploy-2") == true },
                "the holder never wrote its record")
        let before = E2E.storeHashes(path)
        for command in [["batch", "update", "--entity", "Recipe", "--set", "rating=1"], ["meta", "set", "owner", "me"]] {
            let r = try CLI.run(command + ["--store", "app.sqlite", "--lock-timeout", "0.5"], in: dir)
            #expect(r.status == 5, "\(command): \(r.stderr)")
            #expect(r.stderr.hasSuffix("""
                error: the store 'app.sqlite' is busy: pid \(holder.processIdentifier) on host deploy-2 holds 'app.sqlite-strata.lock' (waited 0.5s)
                hint: wait for that run to finish, or raise --lock-timeout; if that process is gone, the lock is already free (the OS releases it when a process dies)

                """), "\(r.stderr)")
            #expect(E2E.storeHashes(path) == before)
        }
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        let free = try CLI.run(["batch", "update", "--entity", "Recipe", "--set", "rating=1", "--store", "app.sqlite"], in: dir)
        #expect(free.status == 0, "\(free.stderr)")
        #expect(try E2E.rows(path, #"SELECT DISTINCT "rating" FROM "Recipe""#) == ["1"])
    }

    /// Item 11: numeric options out of range are exit 2 at parse time (before: a precondition crashed
    /// inside the write transaction and left a hot journal).
    @Test func numericOptionsAreCheckedBeforeAnyWork() throws {
        let (dir, path) = try Self.hookProject(recipes: 100)
        let before = E2E.storeHashes(path)
        let batch = ["batch", "update", "--entity", "Recipe", "--set", "rating=1", "--store", "app.sqlite"]
        let cases: [[String]] = [
            batch + ["--max-samples=-1"], ["batch", "delete", "--entity", "Recipe", "--store", "app.sqlite", "--max-samples=-5"],
            ["audit", "--store", "app.sqlite", "--max-samples=-1"], ["migrate", "--store", "app.sqlite", "--max-samples=-1"],
            ["migrate", "--store", "app.sqlite", "--lock-timeout", "nan"], ["migrate", "--store", "app.sqlite", "--lock-timeout", "inf"],
            ["migrate", "--store", "app.sqlite", "--lock-timeout=-1"], ["migrate", "--store", "app.sqlite", "--lock-timeout", "abc"],
            ["migrate", "--store", "app.sqlite", "--lock-timeout", "1e300"],
            batch + ["--lock-timeout", "nan"], batch + ["--lock-timeout", "-inf"],
            ["meta", "set", "k", "v", "--store", "app.sqlite", "--lock-timeout", "nan"],
            ["repair", "--store", "app.sqlite", "--lock-timeout", "infinity"],
            ["migrate", "--store", "app.sqlite", "--to", "99999999999999999999"], ["migrate", "--store", "app.sqlite", "--to=-1"],
        ]
        for args in cases {
            let r = try CLI.run(args + ["--no-progress"], in: dir)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: "), "\(args): \(r.stderr)")
            #expect(E2E.storeHashes(path) == before, "\(args)")
            #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        }
        let timeout = try CLI.run(["migrate", "--store", "app.sqlite", "--lock-timeout", "nan"], in: dir)
        #expect(timeout.stderr.hasPrefix("error: --lock-timeout must be a number of seconds from 0 to 1000000, got 'nan'\n"))
        for form in [["--max-samples=-1"], ["--max-samples", "-1"]] {
            let samples = try CLI.run(batch + form, in: dir)
            #expect(samples.stderr.hasPrefix("error: --max-samples must be 0 or more, got '-1'\n"), "\(samples.stderr)")
        }
        let negative = try CLI.run(batch + ["--lock-timeout", "-1"], in: dir)
        #expect(negative.stderr.hasPrefix("error: --lock-timeout must be a number of seconds from 0 to 1000000, got '-1.0'\n"), "\(negative.stderr)")
    }

    /// Item 12: a FIFO (before: every reader hung) or a directory (before: exit 1 "disk I/O error") as the
    /// store is exit 2 at once, for every command.
    @Test(arguments: ["fifo", "directory", "symlink to a fifo"])
    func aStoreThatIsNotARegularFileIsExit2AtOnce(kind: String) throws {
        let dir = try CLI.exampleProject()
        switch kind {
        case "fifo": #expect(mkfifo(dir + "/app.sqlite", 0o644) == 0)
        case "directory": try FileManager.default.createDirectory(atPath: dir + "/app.sqlite", withIntermediateDirectories: false)
        default:
            #expect(mkfifo(dir + "/pipe", 0o644) == 0)
            #expect(symlink("pipe", dir + "/app.sqlite") == 0)
        }
        let described = kind == "directory" ? "a directory" : "a FIFO (named pipe)"
        let commands: [[String]] = [
            ["status"], ["history"], ["audit"], ["meta", "list"], ["meta", "get", "strata.version"], ["meta", "set", "k", "v"],
            ["migrate", "--dry-run"], ["migrate"], ["migrate", "--create"], ["batch", "delete", "--entity", "Recipe"], ["repair"],
            ["adopt", "--version", "1"],
        ]
        for command in commands {
            let child = try E2E.Child(command + ["--store", "app.sqlite"] + Self.extra(command), in: dir)
            // Refused before anything is opened: 30 s is a generous bound on a hang, not a timing test.
            let hung = !Wait.until { !child.process.isRunning }
            child.kill()
            let r = child.wait()
            #expect(!hung, "\(command) hung")
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr == "error: the store 'app.sqlite' is \(described), not a regular file\nhint: check --store (or STRATA_STORE)\n",
                    "\(command)")
        }
    }

    /// Item 23: SIGTERM during a dry run removes its private snapshot and exits 143; a snapshot left by a
    /// killed run is removed by the next one; the snapshot directory is 0700 with a 0600 copy.
    @Test func aDryRunsSnapshotIsPrivateAndRemovedOnSIGTERM() throws {
        let dir = try E2E.benchProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 60_000)
        chmod(path, 0o600)
        let temporary = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        // What a SIGKILLed dry run left (its pid is dead), and a live process's, which stays.
        try FileManager.default.createDirectory(atPath: temporary + "/strata-snapshot-999999999-dead", withIntermediateDirectories: false)
        _ = FileManager.default.createFile(atPath: temporary + "/strata-snapshot-999999999-dead/app.sqlite", contents: Data("copy".utf8))
        try FileManager.default.createDirectory(atPath: temporary + "/strata-snapshot-1-alive", withIntermediateDirectories: false)
        let before = E2E.storeHashes(path)

        for (signal, status) in [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] {
            let child = try E2E.Child(["migrate", "--dry-run", "--store", "app.sqlite"] + Self.now, in: dir,
                                      environment: ["TMPDIR": temporary])
            let process = child.process
            // Wait for the snapshot to be there, check its modes, then interrupt the run.
            var snapshot: String?
            Wait.until {
                snapshot = (try? FileManager.default.contentsOfDirectory(atPath: temporary))?
                    .first { $0.hasPrefix("strata-snapshot-\(process.processIdentifier)-") }
                return snapshot != nil || !process.isRunning
            }
            let found = try #require(snapshot, "no snapshot appeared")
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).contains("strata-snapshot-999999999-dead") == false)
            var info = stat()
            #expect(stat(temporary + "/" + found, &info) == 0 && info.st_mode & 0o777 == 0o700)
            // Interrupted once the copy is being written (an event, not a delay): the signal must find a
            // snapshot with content to remove.
            let copy = temporary + "/" + found + "/app.sqlite"
            #expect(Wait.until { stat(copy, &info) == 0 && info.st_size > 0 }, "the snapshot's copy never appeared")
            #expect(info.st_mode & 0o777 == 0o600)
            kill(process.processIdentifier, signal)
            let result = child.wait()
            #expect(process.terminationReason == .exit && result.status == status, "\(process.terminationReason) \(result.status): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: temporary + "/" + found))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == ["strata-snapshot-1-alive"])
        #expect(E2E.storeHashes(path) == before)
    }

    /// Item 23: a backup of a 0600 store is 0600 (before: 0644), and no temporary file stays next to it.
    @Test func aBackupIsNoWiderThanTheStore() throws {
        let (dir, path) = try Self.hookProject(recipes: 500)
        chmod(path, 0o600)
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--backup", "backups/app.sqlite"] + Self.now, in: dir)
        #expect(r.status == 1, "\(r.stderr)")   // its directory does not exist: refused before any work
        try FileManager.default.createDirectory(atPath: dir + "/backups", withIntermediateDirectories: false)
        let ok = try CLI.run(["migrate", "--store", "app.sqlite", "--backup", "backups/app.sqlite"] + Self.now, in: dir)
        #expect(ok.status == 0, "\(ok.stderr)")
        var info = stat()
        #expect(stat(dir + "/backups/app.sqlite", &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/backups") == ["app.sqlite"])
        #expect(try E2E.rows(dir + "/backups/app.sqlite", #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["4"])
    }

    /// Item 22: a dry run on an SQLite file without Strata metadata names the store, not the snapshot.
    @Test func aDryRunOnAForeignSQLiteFileNamesTheStore() throws {
        let dir = try CLI.exampleProject()
        let queue = try DatabaseQueue(path: dir + "/foreign.sqlite")
        try queue.write { try $0.execute(sql: "CREATE TABLE t (x)") }
        try queue.close()
        let before = E2E.storeHashes(dir + "/foreign.sqlite")
        for extra in [[], ["--dry-run"]] {
            let r = try CLI.run(["migrate", "--store", "foreign.sqlite"] + extra + Self.now, in: dir)
            #expect(r.status == 6, "\(extra): \(r.stderr)")
            #expect(r.stderr == "error: 'foreign.sqlite' has no Strata metadata\nhint: baseline it with `strata adopt --version N` first\n", "\(extra)")
        }
        #expect(E2E.storeHashes(dir + "/foreign.sqlite") == before)
    }
}

