import Foundation
import Testing

/// A fleet's summary in every format, its dry run, `--backup-dir`, and `status` and `audit` over fleets.
@Suite struct FleetOutputCLITests {
    /// tenants/a (v1, migrates), tenants/b (drifted: 6), tenants/c (v1, not run: the drift stopped the fleet).
    static func mixedFleet() throws -> FleetProject {
        let project = try FleetProject()
        try project.store("tenants/a.sqlite")
        try project.drifted("tenants/b.sqlite")
        try project.store("tenants/c.sqlite")
        return project
    }

    @Test func theJSONDocumentHasOneObjectPerStore() throws {
        let project = try Self.mixedFleet()
        let r = try project.run(["migrate", "--stores", "tenants/*.sqlite", "--format", "json"])
        #expect(r.status == 6, "\(r.stderr)")
        let document = try CLI.json(r.stdout)
        #expect(document["schemaVersion"] as? Int == 1 && document["title"] as? String == "Strata migrate (fleet)")
        #expect(document["passed"] as? Bool == false && document["migration"] == nil)
        let fleet = try FleetProject.fleet(r.stdout)
        let stores = fleet["stores"] as? [[String: Any]] ?? []
        var head = fleet
        head.removeValue(forKey: "stores")
        #expect(NSDictionary(dictionary: head) == NSDictionary(dictionary: [
            "command": "migrate", "dryRun": false, "jobs": 1, "continueOnError": false, "exitCode": 6, "total": 3, "failed": 1,
            "counts": ["migrated": 1, "failed": 1, "not-run": 1],
        ] as [String: Any]))
        let expected: [[String: Any]] = [
            ["path": "tenants/a.sqlite", "outcome": "migrated", "exitCode": 0, "fromVersion": 1, "toVersion": 4, "hooks": 2,
             "violations": 0, "message": NSNull(), "backup": NSNull()],
            // Drift is found before the run starts: no versions, hooks or violations to report.
            ["path": "tenants/b.sqlite", "outcome": "failed", "exitCode": 6, "fromVersion": NSNull(), "toVersion": NSNull(), "hooks": NSNull(),
             "violations": NSNull(), "message": "the store is in drift from version 1 (1 difference): Recipe.extra: extraColumn: expected no column, found TEXT", "backup": NSNull()],
            ["path": "tenants/c.sqlite", "outcome": "not-run", "exitCode": NSNull(), "fromVersion": NSNull(), "toVersion": NSNull(),
             "hooks": NSNull(), "violations": NSNull(), "message": "not started: an earlier store failed", "backup": NSNull()],
        ]
        #expect(stores.count == 3)
        for (store, want) in zip(stores, expected) { #expect(NSDictionary(dictionary: store) == NSDictionary(dictionary: want), "\(store)") }
        #expect(r.stderr.hasPrefix("error: store 'tenants/b.sqlite' (exit 6): the store is in drift from version 1 (1 difference): Recipe.extra: extraColumn: expected no column, found TEXT\n"), "\(r.stderr)")
    }

    @Test func theTextTableAndJUnitReportListEveryStore() throws {
        let project = try Self.mixedFleet()
        let r = try project.run(["migrate", "--stores", "tenants/*.sqlite", "--report", "fleet.xml"])
        #expect(r.status == 6, "\(r.stderr)")
        #expect(FleetProject.timeless(r.stdout).replacingOccurrences(of: #"1 job, [0-9.]+ s"#, with: "1 job, S", options: .regularExpression) == """
            Fleet migrate: 3 stores, 1 job, S: 1 migrated, 1 failed, 1 not-run; exit 6

            store             outcome   exit  from  to  hooks  violations  duration  message
            tenants/a.sqlite  migrated     0     1   4      2           0   9.999 s
            tenants/b.sqlite  failed       6     -   -      -           -   9.999 s  the store is in drift from version 1 (1 difference): Recipe.extra: extraColumn: expected no column, found TEXT
            tenants/c.sqlite  not-run      -     -   -      -           -         -  not started: an earlier store failed

            """)
        let junit = try String(contentsOfFile: project.dir + "/fleet.xml", encoding: .utf8)
        #expect(FleetProject.timeless(junit) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="Strata migrate (fleet)" tests="3" failures="1" errors="0" time="T">
              <testsuite name="fleet" tests="3" failures="1" errors="0" skipped="1" time="T">
                <testcase classname="fleet.migrate" name="tenants/a.sqlite" time="T">
                  <system-out>outcome: migrated
            versions: v1 → v4
            hooks: 2
            violations: 0</system-out>
                </testcase>
                <testcase classname="fleet.migrate" name="tenants/b.sqlite" time="T">
                  <failure message="exit 6: failed: the store is in drift from version 1 (1 difference): Recipe.extra: extraColumn: expected no column, found TEXT" type="exit 6"/>
                  <system-out>outcome: failed</system-out>
                </testcase>
                <testcase classname="fleet.migrate" name="tenants/c.sqlite" time="T">
                  <skipped message="not started: an earlier store failed"/>
                </testcase>
              </testsuite>
            </testsuites>

            """)
    }

    @Test func markdownAndHTMLReportsHaveARowPerStore() throws {
        let project = try Self.mixedFleet()
        let r = try project.run(["migrate", "--stores", "tenants/*.sqlite", "--continue-on-error", "--report", "fleet.md"])
        #expect(r.status == 6)
        let markdown = FleetProject.timeless(try String(contentsOfFile: project.dir + "/fleet.md", encoding: .utf8))
        #expect(markdown.contains("""
            | Store | Outcome | Exit | From | To | Hooks | Violations | Duration | Message |
            |---|---|---:|---:|---:|---:|---:|---:|---|
            | tenants/a.sqlite | migrated | 0 | 1 | 4 | 2 | 0 | 9.999 s |  |
            | tenants/b.sqlite | failed | 6 | - | - | - | - | 9.999 s | the store is in drift from version 1 (1 difference): Recipe.extra: extraColumn: expected no column, found TEXT |
            | tenants/c.sqlite | migrated | 0 | 1 | 4 | 2 | 0 | 9.999 s |  |
            """), "\(markdown)")
        #expect(markdown.hasPrefix("## Strata migrate (fleet)\n\n### Fleet\n\n❌ **Fleet migrate:** 3 stores, 1 job, "))
        let html = try project.run(["status", "--stores", "tenants/*.sqlite", "--report", "fleet.html", "--continue-on-error"], now: false)
        #expect(html.status == 6)
        let page = FleetProject.timeless(try String(contentsOfFile: project.dir + "/fleet.html", encoding: .utf8))
        #expect(page.contains("<tr class=\"failure\"><td>tenants/b.sqlite</td><td>drift</td><td class=\"num\">6</td><td class=\"num\">1</td>"), "\(page)")
        #expect(page.contains("<tr><td>tenants/c.sqlite</td><td>up-to-date</td><td class=\"num\">0</td><td class=\"num\">4</td><td class=\"num\">4</td>"))
    }

    @Test func aDryRunOverAFleetWritesNothing() throws {
        let project = try FleetProject()
        for name in ["a", "b", "c"] { try project.store("tenants/\(name).sqlite") }
        let files = ["a", "b", "c"].map { project.dir + "/tenants/\($0).sqlite" }
        let before = files.map(E2E.storeHashes)
        let r = try project.run(["migrate", "--dry-run", "--stores", "tenants/*.sqlite", "--jobs", "2", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let fleet = try FleetProject.fleet(r.stdout)
        #expect(fleet["dryRun"] as? Bool == true && fleet["counts"] as? [String: Int] == ["migrated": 3])
        #expect((fleet["stores"] as? [[String: Any]])?.map { "\($0["fromVersion"]!)→\($0["toVersion"]!) hooks \($0["hooks"]!)" } == Array(repeating: "1→4 hooks 2", count: 3))
        #expect(files.map(E2E.storeHashes) == before)
        #expect(files.allSatisfy { !FileManager.default.fileExists(atPath: $0 + "-strata.lock") })
    }

    @Test func backupDirGetsOneBackupPerStoreNamedAfterItsPath() throws {
        let project = try FleetProject()
        try project.store("tenants/x/app.sqlite")
        try project.store("tenants/y/app.sqlite")
        try FileManager.default.createDirectory(atPath: project.dir + "/backups", withIntermediateDirectories: true)
        let r = try project.run(["migrate", "--stores", "tenants/*/app.sqlite", "--backup-dir", "backups", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect((try FleetProject.fleet(r.stdout)["stores"] as? [[String: Any]])?.map { $0["backup"] as? String }
                == ["backups/tenants%2Fx%2Fapp.sqlite", "backups/tenants%2Fy%2Fapp.sqlite"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.dir + "/backups").sorted() == ["tenants%2Fx%2Fapp.sqlite", "tenants%2Fy%2Fapp.sqlite"])
        #expect(try E2E.rows(project.dir + "/backups/tenants%2Fx%2Fapp.sqlite", "SELECT value FROM strata_metadata WHERE key = 'strata.version'") == ["1"])

        // An existing backup is exit 2 before any store starts (unless --force); a missing directory too.
        try project.store("tenants/z/app.sqlite")
        try "old".write(toFile: project.dir + "/backups/tenants%2Fz%2Fapp.sqlite", atomically: true, encoding: .utf8)
        let before = E2E.storeHashes(project.dir + "/tenants/z/app.sqlite")
        let exists = try project.run(["migrate", "--stores", "tenants/*/app.sqlite", "--backup-dir", "backups"])
        // (x's backup of the first run counts too, though x has nothing left to do: use a new directory per run.)
        #expect(exists.status == 2 && exists.stderr.hasPrefix("error: the backup file 'backups/tenants%2Fx%2Fapp.sqlite' already exists"), "\(exists.stderr)")
        #expect(E2E.storeHashes(project.dir + "/tenants/z/app.sqlite") == before)
        let missing = try project.run(["migrate", "--stores", "tenants/*/app.sqlite", "--backup-dir", "nowhere"])
        #expect(missing.status == 2 && missing.stderr.hasPrefix("error: --backup-dir 'nowhere': it does not exist"), "\(missing.stderr)")
        let forced = try project.run(["migrate", "--stores", "tenants/*/app.sqlite", "--backup-dir", "backups", "--force", "--format", "json"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect((try FleetProject.fleet(forced.stdout)["stores"] as? [[String: Any]])?.map { "\($0["outcome"]!) \($0["backup"]!)" }
                == ["up-to-date <null>", "up-to-date <null>", "migrated backups/tenants%2Fz%2Fapp.sqlite"])
        #expect(try E2E.rows(project.dir + "/backups/tenants%2Fz%2Fapp.sqlite", "SELECT value FROM strata_metadata WHERE key = 'strata.version'") == ["1"])
    }

    @Test func statusAndAuditOverAFleet() throws {
        let project = try FleetProject()
        try project.store("tenants/a.sqlite", version: 4)
        try project.store("tenants/b.sqlite")
        try project.drifted("tenants/c.sqlite")
        let status = try project.run(["status", "--check", "--stores", "tenants/*.sqlite", "--continue-on-error", "--format", "json"], now: false)
        #expect(status.status == 6, "\(status.stderr)")
        let rows = try FleetProject.fleet(status.stdout)["stores"] as? [[String: Any]] ?? []
        #expect(rows.map { "\($0["outcome"]!) \($0["exitCode"]!) \($0["fromVersion"]!)→\($0["toVersion"]!) hooks \($0["hooks"]!)" }
                == ["up-to-date 0 4→4 hooks 0", "pending 7 1→4 hooks 2", "drift 6 1→4 hooks 2"])
        let unchecked = try project.run(["status", "--stores", "tenants/[ab].sqlite"], now: false)
        #expect(unchecked.status == 0, "\(unchecked.stderr)")

        try project.violating("tenants/v.sqlite")
        let audit = try project.run(["audit", "--stores", "tenants/[abv].sqlite", "--jobs", "2", "--format", "json"], now: false)
        #expect(audit.status == 3, "\(audit.stderr)")
        #expect((try FleetProject.fleet(audit.stdout)["stores"] as? [[String: Any]])?.map { "\($0["path"]!) \($0["outcome"]!) \($0["exitCode"]!) \($0["violations"]!) \($0["message"]!)" }
                == ["tenants/a.sqlite passed 0 0 <null>", "tenants/b.sqlite passed 0 0 <null>", "tenants/v.sqlite violations 3 1 1 rule violated: Recipe.name 1660"])
    }

    /// `--stores-from -` reads standard input; one that cannot be read (redirected from a directory) is
    /// exit 2 naming the reason (it stopped the process with SIGILL before).
    @Test func storesFromStandardInput() throws {
        let project = try FleetProject()
        try project.store("tenants/a.sqlite")
        try "tenants/a.sqlite\n# a comment\n".write(toFile: project.dir + "/list.txt", atomically: true, encoding: .utf8)
        let list = try #require(FileHandle(forReadingAtPath: project.dir + "/list.txt"))
        let listed = try CLI.run(["status", "--stores-from", "-", "--format", "json"], in: project.dir, standardInput: list)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect((try FleetProject.fleet(listed.stdout)["stores"] as? [[String: Any]])?.map { "\($0["path"]!) \($0["outcome"]!)" }
                == ["tenants/a.sqlite pending"])
        let directory = try #require(FileHandle(forReadingAtPath: project.dir + "/tenants"))
        let before = E2E.storeHashes(project.dir + "/tenants/a.sqlite")
        let unreadable = try CLI.run(["migrate", "--stores-from", "-"], in: project.dir, standardInput: directory)
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr == """
            error: cannot read --stores-from '-': Is a directory
            hint: give a file with one store path a line, or - for standard input

            """)
        #expect(E2E.storeHashes(project.dir + "/tenants/a.sqlite") == before)
    }
}

