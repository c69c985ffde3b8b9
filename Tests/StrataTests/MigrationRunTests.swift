import Foundation
import GRDB
import Testing
@testable import Strata

/// The library's migrate-on-launch path: `MigrationRun.run` with the example's models and hooks.
@Suite struct MigrationRunTests {
    static let now = 1_717_200_000.0   // 2024-06-01T00:00:00Z

    static func v1Store() throws -> (path: String, models: ModelHistory, hooks: HookSet) {
        let models = try ModelHistory.load(directory: TestStore.packageRoot + "/models")
        let hooks = try HookSet.load(directory: TestStore.packageRoot + "/migrations", models: models)
        let path = TestStore.directory() + "/app.sqlite"
        let store = try StoreCreator.create(at: path, model: models.model(version: 1)!)
        try store.queue.write { db in
            try db.execute(sql: """
                INSERT INTO "Recipe" ("_pk", "name", "lastUsed", "servings", "rating") VALUES
                  (1, 'Soup', ?, 4, 4), (2, 'Untitled', NULL, 2, 0), (3, 'Cake', ?, 8, 5), (4, 'Tea', ?, 1, 2);
                INSERT INTO "Ingredient" ("_pk", "name", "recipe") VALUES (1, 'salt', 1), (2, 'flour', 2), (3, 'sugar', 3);
                """, arguments: [now - 3 * 86400, now - 90 * 86400, now - 10 * 86400])
        }
        try store.queue.close()
        return (path, models, hooks)
    }

    @Test func migrateOnLaunchReportsTheChangedObjectIDs() throws {
        let (path, models, hooks) = try Self.v1Store()
        var options = MigrationRun.Options(now: Self.now)
        options.collectObjectIDs = true
        let report = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
        let uuid = try #require(report.storeUUID)
        #expect(report.fromVersion == 1 && report.toVersion == 4)
        #expect(report.steps.map { "\($0.fromVersion)→\($0.toVersion):\($0.committed)" } == ["1→2:true", "2→3:true", "3→4:true"])
        #expect(report.hooks.map { "\($0.id):\($0.rowsAffected)" } == ["purge-abandoned-drafts:1", "favorite-recent-recipes:2"])
        #expect(report.changes.updated["Recipe"]?.map(\.uri) == ["x-strata://\(uuid)/Recipe/p1", "x-strata://\(uuid)/Recipe/p4"])
        #expect(report.changes.deleted["Recipe"]?.map(\.uri) == ["x-strata://\(uuid)/Recipe/p2"])
        #expect(report.changes.deleted["Ingredient"]?.map(\.uri) == ["x-strata://\(uuid)/Ingredient/p2"])
        let again = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
        #expect(again.nothingToDo && again.hooks.isEmpty)
    }

    @Test func dryRunReportsWhatTheRealRunDoesAndWritesNothing() throws {
        let (path, models, hooks) = try Self.v1Store()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var options = MigrationRun.Options(now: Self.now)
        options.dryRun = true
        let dry = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        options.dryRun = false
        let real = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
        #expect(dry.hooks.map(\.rowsAffected) == real.hooks.map(\.rowsAffected))
        #expect(dry.changes.updatedCounts == real.changes.updatedCounts)
        #expect(dry.changes.deletedCounts == real.changes.deletedCounts)
        #expect(dry.steps.map(\.sql) == real.steps.map(\.sql))
    }

    /// A wrong `--to` is one error, whichever way the library is entered (before: `MigrationRun` threw a
    /// `Diagnostic`, `Migrator` a `MigrationError` with other words), and nothing is written.
    @Test func aWrongTargetIsOneErrorWhicheverEntryPoint() throws {
        let (path, models, hooks) = try Self.v1Store()
        var options = MigrationRun.Options(now: Self.now)
        options.target = 2
        _ = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for (target, message) in [(1, "error: the target version 1 is below the store's version 2\nhint: Strata migrates forward only; restore a backup to go back"),
                                  (9, "error: the target version 9 has no model\nhint: versions: 1, 2, 3, 4")] {
            for dryRun in [false, true] {
                options.target = target
                options.dryRun = dryRun
                let run = #expect(throws: MigrationError.self) { try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options) }
                #expect(run?.description == message)
                #expect(run?.exitCode == .invalidInput)
            }
            let store = try Store.open(path: path)
            let direct = #expect(throws: MigrationError.self) { try Migrator.migrate(store, history: models, options: MigrationOptions(target: target)) }
            #expect(direct?.description == message)
            try store.queue.close()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// A step that fails after its hook ran rolls back whole: its report and that hook say not committed, the
    /// hook's changes are not reported, and the steps before it stay committed with their durations (before:
    /// only a policy rollback marked the step's hooks; any other failure left them `committed: true`).
    @Test func aStepThatFailsAfterItsHooksReportsThemNotCommitted() throws {
        let (path, models, hooks) = try Self.v1Store()
        struct Boom: Error {}
        struct FailStep4: StepObserver {
            func stepWillCommit(_ step: VersionStep, in db: Database) throws { if step.toVersion == 4 { throw Boom() } }
        }
        let store = try Store.open(path: path)
        let (metadata, steps) = try Migrator.plan(store, history: models)
        var options = MigrationOptions()
        options.observer = FailStep4()
        var report = MigrationRunReport(store: path, dryRun: false, targetVersion: 4, now: Self.now)
        #expect(throws: Boom.self) {
            try Migrator.run(steps, on: store, from: metadata, history: models, hooks: hooks,
                             hookOptions: HookRunner.Options(context: PredicateContext(now: Self.now)), options: options, report: &report)
        }
        #expect(report.steps.map { "\($0.fromVersion)→\($0.toVersion):\($0.committed)" } == ["1→2:true", "2→3:true", "3→4:false"])
        #expect(report.steps.map { $0.duration != nil } == [true, true, false])
        #expect(report.hooks.map { "\($0.id):\($0.rowsAffected):\($0.committed)" } == ["purge-abandoned-drafts:1:true", "favorite-recent-recipes:2:false"])
        #expect(report.changes.updatedCounts.isEmpty)
        #expect(report.changes.deletedCounts["Recipe"] == 1)
        #expect(report.toVersion == 3)
        #expect(try store.metadata().version == 3)
        #expect(try store.queue.read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "strata_hooks" WHERE "id" = 'favorite-recent-recipes'"#) } == 0)
        try store.queue.close()
    }
}
