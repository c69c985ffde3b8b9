import Foundation
import Testing

/// `before: N` hooks end to end (SPEC §11.1, §11.4; issue 14 item 1): run in the step reaching N before its
/// schema changes, checked and audited on the version below, exactly once, and their lifecycle.
@Suite struct BeforeHooksCLITests {
    @Test func aBeforeHookSavesAColumnTheStepDropsExactlyOnce() throws {
        let (dir, store) = try StageProject.make(hooks: ["keep-codes.yaml": StageProject.keepCodes])
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let hooks = try #require((try CLI.json(r.stdout)["migration"] as? [String: Any])?["hooks"] as? [[String: Any]])
        #expect(hooks.map { $0["id"] as? String } == ["keep-codes"])
        #expect(hooks.first?["timing"] as? String == "before")
        #expect(hooks.first?["rowsAffected"] as? Int == StageProject.coded(30))
        #expect(try StageProject.version(store) == "2")
        // The codes are kept although the column is gone.
        #expect(try E2E.rows(store, #"SELECT "name", "saved", "count" FROM "Item" WHERE "_pk" <= 3 ORDER BY "_pk""#)
                == ["item1|C1|1", "item2|C2|1", "item3|NULL|0"])
        #expect(try E2E.rows(store, #"SELECT "name" FROM pragma_table_info('Item') WHERE "name" = 'legacyCode'"#).isEmpty)
        // The marker names the model it ran on (v1) and the version it belongs to (2).
        #expect(try E2E.rows(store, #"SELECT "afterVersion", "modelVersion", "status" FROM "strata_hooks""#) == ["2|1|applied"])
        for _ in 0..<2 {
            let again = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
            #expect(again.status == 0)
            #expect(again.stdout.contains("nothing to do") || again.stdout.contains("up to date"), "\(again.stdout)")
        }
        #expect(try ExampleData.query(store, #"SELECT sum("count") FROM "Item""#) == StageProject.coded(30))
        let history = try CLI.run(["history", "--store", "app.sqlite"], in: dir)
        #expect(history.stdout.contains("hook     keep-codes before v2: applied, \(StageProject.coded(30)) row(s)"))
    }

    @Test func theTextReportShowsTheBeforeHookAheadOfItsStep() throws {
        let (dir, _) = try StageProject.make(hooks: ["keep-codes.yaml": StageProject.keepCodes])
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let hook = try #require(r.stdout.range(of: "hook keep-codes (before v2): batchUpdate Item: \(StageProject.coded(30)) objects"))
        let step = try #require(r.stdout.range(of: "v1 → v2:"))
        #expect(hook.lowerBound < step.lowerBound)
    }

    @Test func aDryRunCountsWhatTheRealRunDoes() throws {
        let (dir, store) = try StageProject.make(hooks: ["keep-codes.yaml": StageProject.keepCodes], rows: 300)
        let before = E2E.storeHashes(store)
        let dry = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run", "--format", "json"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(E2E.storeHashes(store) == before)
        let real = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(real.status == 0, "\(real.stderr)")
        func counts(_ text: String) throws -> [Int?] {
            let migration = try CLI.json(text)["migration"] as? [String: Any]
            return (migration?["hooks"] as? [[String: Any]] ?? []).map { $0["rowsAffected"] as? Int }
        }
        #expect(try counts(dry.stdout) == [StageProject.coded(300)])
        #expect(try counts(dry.stdout) == counts(real.stdout))
    }

    @Test func aViolationOnTheVersionBelowRollsTheStepBack() throws {
        // 25 characters: too long for v1's `saved` (max 20), which is what a before-hook is audited by.
        let hook = StageProject.keepCodes.replacingOccurrences(of: #"{ expression: "legacyCode" }"#, with: #""abcdefghijklmnopqrstuvwxy""#)
        let (dir, store) = try StageProject.make(hooks: ["keep-codes.yaml": hook])
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stderr.contains("hook 'keep-codes' broke the model's rules"))
        let audit = (try CLI.json(r.stdout)["migration"] as? [String: Any]).flatMap { ($0["hooks"] as? [[String: Any]])?.first?["audit"] as? [String: Any] }
        #expect(audit?["modelVersion"] as? Int == 1)
        #expect(try StageProject.version(store) == "1")
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "saved" IS NOT NULL OR "count" != 0"#) == 0)
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "legacyCode" IS NOT NULL"#) == StageProject.coded(30))
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "strata_hooks""#) == 0)
    }

    @Test func lintChecksABeforeHookAgainstTheVersionBelowWithLocations() throws {
        let (dir, _) = try StageProject.make(hooks: ["keep-codes.yaml": StageProject.keepCodes])
        #expect(try CLI.run(["lint"], in: dir).status == 0)
        // The same hook after v2 names a column v2 no longer has.
        try StageProject.keepCodes.replacingOccurrences(of: "before: 2", with: "after: 2")
            .write(toFile: dir + "/migrations/keep-codes.yaml", atomically: true, encoding: .utf8)
        let after = try CLI.run(["lint"], in: dir)
        #expect(after.status == 2)
        #expect(after.stderr.contains("migrations/keep-codes.yaml:7:19: error: Item has no attribute 'legacyCode'"), "\(after.stderr)")
        // before: the lowest version: no step reaches it.
        try StageProject.keepCodes.replacingOccurrences(of: "before: 2", with: "before: 1")
            .write(toFile: dir + "/migrations/keep-codes.yaml", atomically: true, encoding: .utf8)
        let lowest = try CLI.run(["lint"], in: dir)
        #expect(lowest.status == 2)
        #expect(lowest.stderr.contains("migrations/keep-codes.yaml:2:9: error: before: 1 names the lowest model version"), "\(lowest.stderr)")
        try StageProject.keepCodes.replacingOccurrences(of: "before: 2", with: "before: 7")
            .write(toFile: dir + "/migrations/keep-codes.yaml", atomically: true, encoding: .utf8)
        let unknown = try CLI.run(["lint"], in: dir)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("migrations/keep-codes.yaml:2:9: error: before: 7 names no model version"), "\(unknown.stderr)")
        // Both places: exit 2 at the second.
        try StageProject.keepCodes.replacingOccurrences(of: "before: 2", with: "before: 2\nafter: 2")
            .write(toFile: dir + "/migrations/keep-codes.yaml", atomically: true, encoding: .utf8)
        let both = try CLI.run(["lint"], in: dir)
        #expect(both.status == 2)
        #expect(both.stderr.contains("migrations/keep-codes.yaml:3:8: error: a hook has either 'after' or 'before', not both"), "\(both.stderr)")
        // migrate refuses the same file before touching the store.
        let store = dir + "/app.sqlite"
        let hashes = E2E.storeHashes(store)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite"], in: dir).status == 2)
        #expect(E2E.storeHashes(store) == hashes)
    }

    @Test func aStoreCreatedAtNRecordsItsBeforeHooksAsNotNeeded() throws {
        let (dir, _) = try StageProject.make(hooks: ["keep-codes.yaml": StageProject.keepCodes])
        #expect(try CLI.run(["migrate", "--create", "--store", "new.sqlite"], in: dir).status == 0)
        #expect(try E2E.rows(dir + "/new.sqlite", #"SELECT "id", "status", "modelVersion" FROM "strata_hooks""#) == ["keep-codes|notNeeded|1"])
        #expect(try CLI.run(["status", "--check", "--store", "new.sqlite"], in: dir).status == 0)
        #expect(try CLI.run(["history", "--store", "new.sqlite"], in: dir).stdout.contains("keep-codes before v2: notNeeded"))
    }

    @Test func aLateBeforeHookIsRefusedNeverRunAndCanBeSkipped() throws {
        let (dir, store) = try StageProject.make(hooks: [:])
        #expect(try CLI.run(["migrate", "--store", "app.sqlite"], in: dir).status == 0)
        try StageProject.keepCodes.write(toFile: dir + "/migrations/keep-codes.yaml", atomically: true, encoding: .utf8)
        let refused = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(refused.status == 6)
        let message = """
            error: late before-hook(s) 'keep-codes': the store already passed their step by migrating (it is at version 2); they can never run
            hint: what a before-hook reads is gone after its step; record it as skipped with `strata repair --skip ID`

            """
        #expect(refused.stderr == message)
        // The hint names what works: --run-late-hooks never runs a before-hook.
        let late = try CLI.run(["migrate", "--store", "app.sqlite", "--run-late-hooks"], in: dir)
        #expect(late.status == 6)
        #expect(late.stderr == message)
        let check = try CLI.run(["status", "--check", "--store", "app.sqlite"], in: dir)
        #expect(check.status == 6)
        #expect(check.stdout.contains("late before-hooks keep-codes (never run: strata repair --skip ID)"))
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "strata_hooks""#) == 0)
        let wrong = try CLI.run(["repair", "--skip", "keep-code", "--store", "app.sqlite"], in: dir)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("error: 'keep-code' is not a late hook of this store"))
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "strata_hooks""#) == 0)
        let skipped = try CLI.run(["repair", "--skip", "keep-codes", "--store", "app.sqlite"], in: dir)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(try E2E.rows(store, #"SELECT "id", "status" FROM "strata_hooks""#) == ["keep-codes|skipped"])
        #expect(try CLI.run(["status", "--check", "--store", "app.sqlite"], in: dir).status == 0)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite"], in: dir).status == 0)
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "saved" IS NOT NULL"#) == 0)
        #expect(try CLI.run(["history", "--store", "app.sqlite"], in: dir).stdout.contains("keep-codes before v2: skipped"))
    }

    /// The README's before-hook, as printed there, on a store whose v1 → v2 step drops the column it saves.
    @Test func theReadmesBeforeHookSavesTheColumnItsStepDrops() throws {
        let readme = try String(contentsOfFile: CLI.packageRoot + "/README.md", encoding: .utf8)
        let blocks = readme.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let hook = try #require(blocks.first { $0.contains("id: keep-legacy-codes") })
        let (dir, store) = try StageProject.make(hooks: ["keep-legacy-codes.yaml": hook])
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("hook keep-legacy-codes (before v2): batchUpdate Item: \(StageProject.coded(30)) objects"))
        #expect(try E2E.rows(store, #"SELECT "saved" FROM "Item" WHERE "_pk" IN (1, 2, 3) ORDER BY "_pk""#) == ["C1", "C2", "NULL"])
        #expect(try StageProject.version(store) == "2")
    }
}
