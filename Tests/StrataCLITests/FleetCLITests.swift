import Foundation
import Strata
import Testing

/// `--stores GLOB` / `--stores-from FILE` (SPEC §14.1): which files are stores, each store once, the run's
/// exit code by the fleet order, stopping after the first failure or going on.
@Suite struct FleetCLITests {
    @Test func aGlobSkipsSideFilesDirectoriesAndFIFOsAndVisitsEachStoreOnce() throws {
        let project = try FleetProject()
        let dir = project.dir
        try project.store("tenants/a.sqlite", keepLock: true)                          // leaves a.sqlite-strata.lock
        try project.store("tenants/b.sqlite")
        try project.store("tenants/deep/c.sqlite")
        for side in ["-wal", "-shm", "-journal"] { try "x".write(toFile: dir + "/tenants/ghost.sqlite" + side, atomically: true, encoding: .utf8) }
        try "x".write(toFile: dir + "/tenants/.a.sqlite.strata-backup-99999-0f0f", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir + "/tenants/strata-snapshot-99999-0f0f", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dir + "/tenants/b.sqlite", toPath: dir + "/tenants/strata-snapshot-99999-0f0f/b.sqlite")
        try FileManager.default.createDirectory(atPath: dir + "/tenants/empty.sqlite", withIntermediateDirectories: true)
        #expect(mkfifo(dir + "/tenants/pipe.sqlite", 0o600) == 0)
        #expect(link(dir + "/tenants/b.sqlite", dir + "/tenants/b-hardlink.sqlite") == 0)  // sorts before b.sqlite
        #expect(symlink("a.sqlite", dir + "/tenants/z-symlink.sqlite") == 0)

        let flat = try project.run(["status", "--stores", "tenants/*", "--format", "json"], now: false)
        #expect(flat.status == 0, "\(flat.stderr)")
        #expect(try FleetProject.codes(flat.stdout) == ["tenants/a.sqlite: 0", "tenants/b-hardlink.sqlite: 0"])
        let deep = try project.run(["status", "--stores", "tenants/**/*.sqlite", "--format", "json", "--jobs", "2"], now: false)
        #expect(try FleetProject.codes(deep.stdout) == ["tenants/a.sqlite: 0", "tenants/b-hardlink.sqlite: 0", "tenants/deep/c.sqlite: 0"])
        #expect(deep.stderr == "")

        let none = try project.run(["migrate", "--stores", "tenants/*.db"])
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("error: --stores 'tenants/*.db' names no store\nhint: check the pattern or the list"), "\(none.stderr)")
        let sideOnly = try project.run(["status", "--stores", "tenants/ghost*"], now: false)
        #expect(sideOnly.status == 2 && sideOnly.stderr.hasPrefix("error: --stores 'tenants/ghost*' names no store"), "\(sideOnly.stderr)")
    }

    @Test func aListFileGivesOnePathALineWithCommentsAndEachStoreOnce() throws {
        let project = try FleetProject()
        try project.store("tenants/a.sqlite")
        try project.store("tenants/b.sqlite")
        try """
            # tenants to migrate tonight

              tenants/b.sqlite\u{20}\u{20}
            tenants/a.sqlite\r
            ./tenants/b.sqlite
            tenants/missing.sqlite
            """.write(toFile: project.dir + "/list.txt", atomically: true, encoding: .utf8)
        let r = try project.run(["migrate", "--stores-from", "list.txt", "--continue-on-error", "--format", "json", "--no-progress"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(try FleetProject.codes(r.stdout) == ["tenants/b.sqlite: 0", "tenants/a.sqlite: 0", "tenants/missing.sqlite: 2"])
        #expect(try project.version("tenants/a.sqlite") == "4" && project.version("tenants/b.sqlite") == "4")
        #expect(r.stderr.hasPrefix("error: store 'tenants/missing.sqlite' (exit 2): no store at 'tenants/missing.sqlite'"), "\(r.stderr)")
        // With --create a listed store that does not exist is created at the target version.
        let create = try project.run(["migrate", "--stores-from", "list.txt", "--create", "--format", "json"])
        #expect(create.status == 0, "\(create.stderr)")
        #expect((try FleetProject.fleet(create.stdout)["stores"] as? [[String: Any]])?.map { "\($0["path"]!) \($0["outcome"]!)" }
                == ["tenants/b.sqlite up-to-date", "tenants/a.sqlite up-to-date", "tenants/missing.sqlite created"])
        #expect(try project.version("tenants/missing.sqlite") == "4")

        // A NUL byte in a line is exit 2, located, before any store runs.
        try Data("tenants/a.sqlite\nbad\u{0}name\n".utf8).write(to: URL(fileURLWithPath: project.dir + "/nul.txt"))
        let nul = try project.run(["status", "--stores-from", "nul.txt"], now: false)
        #expect(nul.status == 2)
        #expect(nul.stderr.hasPrefix("nul.txt:2:1: error: this line is not a store path: it holds a NUL byte\n"), "\(nul.stderr)")
        let empty = try project.run(["status", "--stores-from", "/dev/null"], now: false)
        #expect(empty.status == 2 && empty.stderr.hasPrefix("error: --stores-from '/dev/null' names no store"), "\(empty.stderr)")
        let missing = try project.run(["status", "--stores-from", "nowhere.txt"], now: false)
        #expect(missing.status == 2 && missing.stderr.hasPrefix("error: cannot read --stores-from 'nowhere.txt': No such file or directory"), "\(missing.stderr)")
    }

    /// A list saved with a UTF-8 byte-order mark (Notepad) named the first store '\u{FEFF}tenants/a.sqlite':
    /// `no store at '﻿tenants/a.sqlite'`, exit 2. The mark is dropped, from a file and from standard input.
    @Test func aByteOrderMarkIsNotPartOfTheFirstPath() throws {
        let project = try FleetProject()
        try project.store("tenants/a.sqlite")
        try project.store("tenants/b.sqlite")
        let list = Data([0xEF, 0xBB, 0xBF] + Array("tenants/a.sqlite\r\ntenants/b.sqlite\r\n".utf8))
        try list.write(to: URL(fileURLWithPath: project.dir + "/bom.txt"))
        let r = try project.run(["status", "--stores-from", "bom.txt", "--format", "json"], now: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FleetProject.codes(r.stdout) == ["tenants/a.sqlite: 0", "tenants/b.sqlite: 0"])
        #expect(r.stderr == "")
        let handle = try #require(FileHandle(forReadingAtPath: project.dir + "/bom.txt"))
        let piped = try CLI.run(["status", "--stores-from", "-", "--format", "json"], in: project.dir, standardInput: handle)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try FleetProject.codes(piped.stdout) == ["tenants/a.sqlite: 0", "tenants/b.sqlite: 0"])
        // Only a leading mark: one starting a later line is part of that path.
        try Data(Array("tenants/a.sqlite\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("tenants/b.sqlite\n".utf8))
            .write(to: URL(fileURLWithPath: project.dir + "/inner.txt"))
        let inner = try project.run(["status", "--stores-from", "inner.txt"], now: false)
        #expect(inner.status == 2)
        #expect(inner.stderr.contains("no store at '\u{FEFF}tenants/b.sqlite'"), "\(inner.stderr)")
    }

    /// The run's code is the first present in 1, 6, 4, 3, 2, 5, 7, 0; each store keeps its own. Dropping the
    /// store that gave the run's code from the list gives the next code in that order.
    @Test func theRunsExitCodeIsTheFirstInTheFleetOrder() throws {
        let project = try FleetProject()
        try project.store("tenants/ok.sqlite")
        try project.store("tenants/busy.sqlite")
        try project.notSQLite("tenants/text.sqlite")
        try project.violating("tenants/violating.sqlite")
        try project.drifted("tenants/drifted.sqlite")
        try project.corrupt("tenants/corrupt.sqlite")
        let lock = try StoreLock.acquire(storePath: project.dir + "/tenants/busy.sqlite", timeout: 0)
        defer { lock.release() }
        var listed = ["corrupt", "drifted", "violating", "text", "busy", "ok"]
        let expected: [Int32] = [1, 6, 3, 2, 5, 0]
        for code in expected {
            let paths = listed.map { "tenants/\($0).sqlite" }
            try paths.joined(separator: "\n").write(toFile: project.dir + "/list.txt", atomically: true, encoding: .utf8)
            let r = try project.run(["migrate", "--stores-from", "list.txt", "--continue-on-error", "--jobs", "2", "--lock-timeout", "0",
                                     "--format", "json"])
            #expect(r.status == code, "\(listed): \(r.stderr)")
            let stores = try FleetProject.fleet(r.stdout)["stores"] as? [[String: Any]] ?? []
            #expect(stores.map { $0["path"] as? String } == paths)
            let own = Dictionary(uniqueKeysWithValues: stores.map { ($0["path"] as! String, $0["exitCode"] as? Int) })
            let all: [String: Int] = ["corrupt": 1, "drifted": 6, "violating": 3, "text": 2, "busy": 5, "ok": 0]
            #expect(own == Dictionary(uniqueKeysWithValues: listed.map { ("tenants/\($0).sqlite", all[$0]) }))
            listed.removeFirst()
        }
        // The violating store committed the steps before the one its hook's audit rolled back.
        #expect(try project.version("tenants/violating.sqlite") == "3")
        #expect(try project.version("tenants/drifted.sqlite") == "1" && project.version("tenants/busy.sqlite") == "1")
    }

    @Test func theFirstFailureStopsNewStoresUnlessContinueOnError() throws {
        let project = try FleetProject()
        try project.notSQLite("tenants/a.sqlite")
        try project.store("tenants/b.sqlite")
        try project.store("tenants/c.sqlite")
        let before = [E2E.storeHashes(project.dir + "/tenants/b.sqlite"), E2E.storeHashes(project.dir + "/tenants/c.sqlite")]
        let stop = try project.run(["migrate", "--stores", "tenants/*.sqlite", "--format", "json"])
        #expect(stop.status == 2)
        #expect(try FleetProject.codes(stop.stdout) == ["tenants/a.sqlite: 2", "tenants/b.sqlite: -", "tenants/c.sqlite: -"])
        let fleet = try FleetProject.fleet(stop.stdout)
        #expect(fleet["counts"] as? [String: Int] == ["failed": 1, "not-run": 2] && fleet["continueOnError"] as? Bool == false)
        #expect((fleet["stores"] as? [[String: Any]])?[1]["message"] as? String == "not started: an earlier store failed")
        #expect([E2E.storeHashes(project.dir + "/tenants/b.sqlite"), E2E.storeHashes(project.dir + "/tenants/c.sqlite")] == before)

        let goOn = try project.run(["migrate", "--stores", "tenants/*.sqlite", "--continue-on-error", "--format", "json"])
        #expect(goOn.status == 2)
        #expect(try FleetProject.codes(goOn.stdout) == ["tenants/a.sqlite: 2", "tenants/b.sqlite: 0", "tenants/c.sqlite: 0"])
        #expect(try project.version("tenants/b.sqlite") == "4" && project.version("tenants/c.sqlite") == "4")
    }

    @Test func optionsForOneStoreWithAFleetAreExit2() throws {
        let project = try FleetProject()
        try project.store("tenants/a.sqlite")
        let before = E2E.storeHashes(project.dir + "/tenants/a.sqlite")
        let cases: [([String], String)] = [
            (["--store", "tenants/a.sqlite"], "error: --store cannot be used with --stores; give one store or a fleet"),
            (["--backup", "b.sqlite"], "error: --backup cannot be used with --stores: it names one file for one store (use --backup-dir DIR)"),
            (["--changes-out", "c.json"], "error: --changes-out cannot be used with --stores: it names one file for one store"),
            (["--stores-from", "list.txt"], "error: --stores and --stores-from cannot be used together; give one"),
            (["--jobs", "0"], "error: --jobs must be from 1 to 64, got '0'"),
            (["--report", "tenants/a.sqlite-wal"], "error: --report 'tenants/a.sqlite-wal' is the store's -wal file; Strata never writes over it"),
        ]
        for (extra, message) in cases {
            let r = try project.run(["migrate", "--stores", "tenants/*.sqlite"] + extra)
            #expect(r.status == 2, "\(extra)")
            #expect(r.stderr.hasPrefix(message + "\n"), "\(extra): \(r.stderr)")
        }
        for (args, message) in [(["migrate", "--store", "tenants/a.sqlite", "--backup-dir", "."], "error: --backup-dir needs --stores or --stores-from"),
                                (["status", "--store", "tenants/a.sqlite", "--jobs", "2"], "error: --jobs needs --stores or --stores-from"),
                                (["audit", "--store", "tenants/a.sqlite", "--continue-on-error"], "error: --continue-on-error needs --stores or --stores-from")] {
            let r = try project.run(args, now: false)
            #expect(r.status == 2 && r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
        }
        #expect(E2E.storeHashes(project.dir + "/tenants/a.sqlite") == before)
    }

    @Test func aBadModelOrTargetTouchesNoStore() throws {
        let project = try FleetProject()
        try project.store("tenants/a.sqlite")
        try project.store("tenants/b.sqlite")
        let files = ["a", "b"].map { project.dir + "/tenants/\($0).sqlite" }
        let before = files.map(E2E.storeHashes)
        let target = try project.run(["migrate", "--stores", "tenants/*.sqlite", "--to", "9"])
        #expect(target.status == 2 && target.stderr.hasPrefix("error: --to 9: there is no model version 9"), "\(target.stderr)")
        try "version: 4\nentities:\n  Recipe:\n    attributes:\n      name: { type: strin }\n".write(toFile: project.dir + "/models/4.yaml", atomically: true, encoding: .utf8)
        for args in [["migrate"], ["migrate", "--dry-run"], ["status"]] {
            let r = try project.run(args + ["--stores", "tenants/*.sqlite", "--jobs", "2"], now: args[0] == "migrate")
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("models/4.yaml:5:"), "\(args): \(r.stderr)")
            #expect(r.stdout == "")
        }
        #expect(files.map(E2E.storeHashes) == before)
        #expect(files.allSatisfy { !FileManager.default.fileExists(atPath: $0 + "-strata.lock") })
    }
}
