import Foundation
import Testing
import StrataTestSupport
@testable import StrataCore   // SHA256, internal to the library

/// Swift stages end to end (SPEC §11.2; issue 14 item 6), on `strata-stages-fixture`, an application's own
/// `strata` built with StrataCLI (Tests/StagesFixture/main.swift), and on the stock `strata`.
@Suite struct StagesCLITests {
    static let fixture = CLI.executable("strata-stages-fixture")
    static let declarations = ["copy-codes.yaml": StageProject.copyCodes, "mark-notes.yaml": StageProject.markNotes]

    static func run(_ args: [String], in dir: String, stages: String = "", pause: Double? = nil) throws -> CLI.Result {
        var environment = ["FIXTURE_STAGES": stages]
        if let pause { environment["FIXTURE_PAUSE"] = String(pause) }
        return try CLI.run(args, in: dir, environment: environment, executable: fixture)
    }

    @Test func theApplicationsStrataRunsItsStagesExactlyOnce() throws {
        let (dir, store) = try StageProject.make(hooks: Self.declarations)
        let r = try Self.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let hooks = try #require((try CLI.json(r.stdout)["migration"] as? [String: Any])?["hooks"] as? [[String: Any]])
        #expect(hooks.map { $0["id"] as? String } == ["copy-codes", "mark-notes"])
        #expect(hooks.map { $0["timing"] as? String } == ["before", nil])
        #expect(hooks.map { ($0["steps"] as? [[String: Any]])?.first?["kind"] as? String } == ["swift", "swift"])
        // The before-stage read `legacyCode` (gone in v2); the after-stage marked every note once.
        #expect(try E2E.rows(store, #"SELECT "name", "note" FROM "Item" WHERE "_pk" <= 3 ORDER BY "_pk""#) == ["item1|C1+", "item2|C2+", "item3|+"])
        #expect(try E2E.rows(store, #"SELECT "id", "checksum", "modelVersion" FROM "strata_hooks" ORDER BY "id""#) == [
            "copy-codes|\(SHA256.hex("copy-codes\n1"))|1", "mark-notes|\(SHA256.hex("mark-notes\n1"))|2"])
        for _ in 0..<2 { #expect(try Self.run(["migrate", "--store", "app.sqlite"], in: dir).status == 0) }
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "note" LIKE '%++'"#) == 0)
        let history = try Self.run(["history", "--store", "app.sqlite"], in: dir)
        #expect(history.stdout.contains("hook     copy-codes before v2: applied"))
        #expect(try Self.run(["status", "--check", "--store", "app.sqlite"], in: dir).status == 0)
    }

    /// An application's `strata` (through `StrataCommand.main`, as the stock one) turns SQLite's process-wide
    /// memory count off before its first connection: read mid-step, with the store open and working, it is 0
    /// (in a process where it is on, `SQLiteMemoryStatisticsTests`, it is not).
    @Test func sqlitesMemoryCountIsOffWhileAStepRuns() throws {
        let (dir, store) = try StageProject.make(hooks: Self.declarations)
        let r = try Self.run(["migrate", "--store", "app.sqlite"], in: dir, stages: "memory-count")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try E2E.rows(store, #"SELECT "name", "note" FROM "Item" WHERE "_pk" IN (1, 30) ORDER BY "_pk""#)
                == ["item1|C1+", "item30|memory 0"])
    }

    @Test func theStockStrataLintsTheDeclarationsAndStopsBeforeTheStepWithSeven() throws {
        let (dir, store) = try StageProject.make(hooks: Self.declarations)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 0, "\(lint.stderr)")
        #expect(lint.stderr.contains("note: migrations/copy-codes.yaml declares Swift stage 'copy-codes', which this binary does not register"))
        let hashes = E2E.storeHashes(store)
        let migrate = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(migrate.status == 7)
        #expect(migrate.stderr.hasPrefix("error: Swift stages 'copy-codes', 'mark-notes' declared in migrations/ but not registered in this binary"), "\(migrate.stderr)")
        #expect(try StageProject.version(store) == "1")
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "note" IS NOT NULL"#) == 0)
        let status = try CLI.run(["status", "--check", "--store", "app.sqlite"], in: dir)
        #expect(status.status == 7)
        #expect(status.stderr.contains("'copy-codes', 'mark-notes'"))
        #expect(E2E.storeHashes(store) == hashes)   // the refused migrate and status --check wrote nothing
        // The application's own binary then runs them.
        #expect(try Self.run(["migrate", "--store", "app.sqlite"], in: dir).status == 0)
        #expect(try StageProject.version(store) == "2")
    }

    @Test func aStepBeforeTheUnregisteredStageStillRuns() throws {
        // v1 → v2 has no stage; a v3 with a stage after it: the stock strata reaches v2 and stops before v3 with 7.
        let (dir, store) = try StageProject.make(hooks: [:])
        try StageProject.v2.replacingOccurrences(of: "version: 2", with: "version: 3")
            .write(toFile: dir + "/models/3.yaml", atomically: true, encoding: .utf8)
        try StageProject.markNotes.replacingOccurrences(of: "after: 2", with: "after: 3")
            .write(toFile: dir + "/migrations/mark-notes.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 7)
        #expect(r.stderr.contains("'mark-notes'"))
        #expect(try StageProject.version(store) == "2")
    }

    @Test func aStageThatThrowsRollsItsStepBackWithExitOne() throws {
        var hooks = Self.declarations
        hooks["boom.yaml"] = "id: boom\nafter: 2\nswift: true\nrevision: \"1\"\n"
        let (dir, store) = try StageProject.make(hooks: hooks)
        let r = try Self.run(["migrate", "--store", "app.sqlite"], in: dir, stages: "boom")
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: Swift stage 'boom' threw: the ledger service is unreachable; its step was rolled back"), "\(r.stderr)")
        #expect(try StageProject.version(store) == "1")
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item""#) == 30)
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "note" IS NOT NULL"#) == 0)
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "strata_hooks""#) == 0)
    }

    @Test func aStageIsAuditedByItsWriteScopeAndRolledBackOnViolations() throws {
        // mark-notes appends 30 marks (`long`: at most 33 characters, within v2's 40, beyond v1's 20: an after-stage
        // is audited by version N) or 45 (`longer`: 1590 maxLength on every Item, which it lists in `writes:`).
        let (dir, store) = try StageProject.make(hooks: Self.declarations)
        let bad = try Self.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir, stages: "longer")
        #expect(bad.status == 3, "\(bad.stderr)")
        #expect(bad.stderr.contains("hook 'mark-notes' broke the model's rules (30 violation(s))"), "\(bad.stderr)")
        #expect(try StageProject.version(store) == "1")
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "note" IS NOT NULL"#) == 0)
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "strata_hooks""#) == 0)
        let good = try Self.run(["migrate", "--store", "app.sqlite"], in: dir, stages: "long")
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try ExampleData.query(store, #"SELECT max(length("note")) FROM "Item""#) == 33)
    }

    @Test func registrationsThatDoNotMatchTheDeclarationsAreExitTwo() throws {
        let (dir, store) = try StageProject.make(hooks: Self.declarations)
        let hashes = E2E.storeHashes(store)
        for (stages, message) in [("duplicate", "error: Swift stage 'copy-codes' is registered twice"),
                                  ("undeclared", "error: Swift stage 'ghost' is registered but not declared in migrations/"),
                                  ("mark-notes-r2", "migrations/mark-notes.yaml:4:11: error: Swift stage 'mark-notes' is registered at revision '2' but declared at revision '1'")] {
            let lint = try Self.run(["lint"], in: dir, stages: stages)
            #expect(lint.status == 2, "\(stages)")
            #expect(lint.stderr.contains(message), "\(lint.stderr)")
            let migrate = try Self.run(["migrate", "--store", "app.sqlite"], in: dir, stages: stages)
            #expect(migrate.status == 2, "\(stages)")
            #expect(migrate.stderr.contains(message), "\(migrate.stderr)")
            #expect(E2E.storeHashes(store) == hashes)
        }
    }

    @Test func changingTheRevisionOfAnAppliedStageIsDrift() throws {
        let (dir, store) = try StageProject.make(hooks: Self.declarations)
        #expect(try Self.run(["migrate", "--store", "app.sqlite"], in: dir).status == 0)
        try StageProject.markNotes.replacingOccurrences(of: "revision: \"1\"", with: "revision: \"2\"")
            .write(toFile: dir + "/migrations/mark-notes.yaml", atomically: true, encoding: .utf8)
        let r = try Self.run(["migrate", "--store", "app.sqlite"], in: dir, stages: "mark-notes-r2")
        #expect(r.status == 6)
        #expect(r.stderr.contains("hook mark-notes: editedHook: expected checksum \(SHA256.hex("mark-notes\n1"))"), "\(r.stderr)")
        #expect(try Self.run(["status", "--store", "app.sqlite"], in: dir, stages: "mark-notes-r2").status == 6)
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "note" LIKE '%++'"#) == 0)
    }

    @Test func declarationErrorsAreLocated() throws {
        let (dir, _) = try StageProject.make(hooks: [:])
        for (text, message) in [
            ("id: s\nafter: 2\nswift: true\nrevision: \"1\"\nwrites: [Itme]\n", "migrations/s.yaml:5:10: error: writes: no entity 'Itme' in model version 2"),
            ("id: s\nafter: 2\nswift: true\n", "migrations/s.yaml:1:1: error: a Swift stage needs a 'revision'"),
            ("id: s\nafter: 2\nswift: true\nrevision: \"1\"\nsteps: []\n", "migrations/s.yaml:5:1: error: a Swift stage has no 'steps'"),
            ("id: s\nafter: 2\nrevision: \"1\"\nsteps:\n  - batchDelete: { entity: Item }\n", "migrations/s.yaml:3:1: error: 'revision' belongs to a Swift stage's declaration"),
            ("id: s\nafter: 2\nswift: true\nrevision: \"1\"\nengines: [sqlit]\n", "migrations/s.yaml:5:11: error: unknown engine 'sqlit'"),
        ] {
            try text.write(toFile: dir + "/migrations/s.yaml", atomically: true, encoding: .utf8)
            let lint = try CLI.run(["lint"], in: dir)
            #expect(lint.status == 2, "\(text)")
            #expect(lint.stderr.contains(message), "\(lint.stderr)")
        }
    }

    @Test func aDryRunOfStagesWritesNothingAndCountsWhatTheRealRunDoes() throws {
        var hooks = Self.declarations
        hooks["keep-codes.yaml"] = StageProject.keepCodes
        let (dir, store) = try StageProject.make(hooks: hooks, rows: 90)
        let hashes = E2E.storeHashes(store)
        let dry = try Self.run(["migrate", "--store", "app.sqlite", "--dry-run", "--format", "json"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(E2E.storeHashes(store) == hashes)
        let real = try Self.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: dir)
        #expect(real.status == 0, "\(real.stderr)")
        func summary(_ text: String) throws -> [String] {
            let migration = try CLI.json(text)["migration"] as? [String: Any]
            return (migration?["hooks"] as? [[String: Any]] ?? []).map { "\($0["id"] ?? "")=\($0["rowsAffected"] ?? "")" }
        }
        #expect(try summary(dry.stdout) == ["copy-codes=0", "keep-codes=\(StageProject.coded(90))", "mark-notes=0"])
        #expect(try summary(dry.stdout) == summary(real.stdout))
    }

    @Test func aKillMidStageLeavesTheStoreAtV1AndTheRerunAppliesEachStageOnce() throws {
        // Two before-stages (a Swift one and a YAML hook) have run in the step when the after-stage pauses.
        var hooks = Self.declarations
        hooks["keep-codes.yaml"] = StageProject.keepCodes
        let (dir, store) = try StageProject.make(hooks: hooks, rows: 2000)
        let child = try E2E.Child(["migrate", "--store", "app.sqlite"], in: dir, environment: ["FIXTURE_PAUSE": "30"], executable: Self.fixture)
        // mark-notes pauses inside the step's transaction, after its UPDATE: its journal is there.
        #expect(Wait.until(timeout: 60) { FileManager.default.fileExists(atPath: store + "-journal") && E2E.fileSize(store + "-journal") ?? 0 > 0 })
        Thread.sleep(forTimeInterval: 0.5)
        child.kill()
        #expect(try ExampleData.query(store, "PRAGMA integrity_check") == "ok")
        #expect(try StageProject.version(store) == "1")
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "note" IS NOT NULL OR "saved" IS NOT NULL OR "count" != 0"#) == 0)
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "legacyCode" IS NOT NULL"#) == StageProject.coded(2000))
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "strata_hooks""#) == 0)
        let rerun = try Self.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try E2E.rows(store, #"SELECT "note" FROM "Item" WHERE "_pk" IN (1, 3) ORDER BY "_pk""#) == ["C1+", "+"])
        #expect(try ExampleData.query(store, #"SELECT sum("count") FROM "Item""#) == StageProject.coded(2000))
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "strata_hooks" WHERE "status" = 'applied'"#) == 3)
    }

    @Test func aLateStageRunsOnlyWhenAskedAndOnlyWhereItIsRegistered() throws {
        let (dir, store) = try StageProject.make(hooks: [:])
        #expect(try CLI.run(["migrate", "--store", "app.sqlite"], in: dir).status == 0)
        try StageProject.markNotes.write(toFile: dir + "/migrations/mark-notes.yaml", atomically: true, encoding: .utf8)
        let late = try Self.run(["migrate", "--store", "app.sqlite"], in: dir, stages: "no-copy-codes")
        #expect(late.status == 6)
        #expect(late.stderr.contains("late hook(s) 'mark-notes'"))
        // The stock strata cannot run it even when asked: 7, nothing written.
        let stock = try CLI.run(["migrate", "--store", "app.sqlite", "--run-late-hooks"], in: dir)
        #expect(stock.status == 7)
        #expect(stock.stderr.contains("Swift stage 'mark-notes' declared in migrations/ but not registered in this binary"))
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "note" IS NOT NULL"#) == 0)
        let ran = try Self.run(["migrate", "--store", "app.sqlite", "--run-late-hooks"], in: dir, stages: "no-copy-codes")
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.stdout.contains("hook mark-notes (after v2, late): Swift stage (writes Item)"))
        #expect(ran.stdout.contains("Invalidated by raw SQL (sql: steps, Swift stages; refetch every object): Item"))
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "note" = '+'"#) == 30)
        #expect(try Self.run(["migrate", "--store", "app.sqlite", "--run-late-hooks"], in: dir, stages: "no-copy-codes").status == 0)
        #expect(try ExampleData.query(store, #"SELECT count(*) FROM "Item" WHERE "note" LIKE '%++'"#) == 0)
    }
}
