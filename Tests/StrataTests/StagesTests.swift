import Foundation
import GRDB
import Testing
@testable import Strata
@testable import StrataCore   // SHA256, internal to the library

/// Swift stages in the library (SPEC §11.2): declarations, the registry's checks, and the context a stage gets
/// inside its step (`MigrationRun.run` with `options.stages`).
@Suite struct StagesTests {
    /// What stages saw, written from inside their closures.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }

    static let declaration = "id: rate-soups\nafter: 4\nswift: true\nrevision: \"3\"\nwrites: [Recipe]\n"

    /// The example's v1 store with its hooks and one more file in migrations/.
    static func project(_ files: [String: String]) throws -> (path: String, models: ModelHistory, hooks: HookSet) {
        let (path, models, _) = try MigrationRunTests.v1Store()
        let migrations = TestStore.directory()
        for name in try FileManager.default.contentsOfDirectory(atPath: TestStore.packageRoot + "/migrations") {
            try FileManager.default.copyItem(atPath: TestStore.packageRoot + "/migrations/" + name, toPath: migrations + "/" + name)
        }
        for (name, text) in files { try text.write(toFile: migrations + "/" + name, atomically: true, encoding: .utf8) }
        return (path, models, try HookSet.load(directory: migrations, models: models))
    }

    @Test func aDeclarationIsAHookWithOneSwiftStep() throws {
        let hook = try HookLoader.load(yaml: Self.declaration, file: "migrations/rate-soups.yaml")
        #expect(hook.swiftStage?.revision == "3")
        #expect(hook.swiftStage?.writes == ["Recipe"])
        #expect(hook.checksum == SHA256.hex(Array("rate-soups\n3".utf8)))
        #expect(hook.timing == .after && hook.after == 4)
        let before = try HookLoader.load(yaml: "before: 3\nsteps:\n  - batchDelete: { entity: Recipe }\n", file: "migrations/b.yaml")
        #expect(before.timing == .before && before.after == 3 && before.id == "b")
    }

    @Test func theRegistryIsCheckedAgainstTheDeclarations() throws {
        let (_, _, hooks) = try Self.project(["rate-soups.yaml": Self.declaration])
        var stages = Stages()
        stages.register("rate-soups", revision: "3") { _ in }
        #expect(stages.check(against: hooks).isEmpty)
        #expect(Stages().unregistered(in: hooks.hooks) == ["rate-soups"])
        #expect(stages.unregistered(in: hooks.hooks).isEmpty)
        stages.register("rate-soups", revision: "3") { _ in }
        stages.register("other", revision: "1") { _ in }
        var wrong = Stages()
        wrong.register("rate-soups", revision: "4") { _ in }
        #expect(stages.check(against: hooks).map(\.message) == ["Swift stage 'rate-soups' is registered twice",
                                                                 "Swift stage 'other' is registered but not declared in migrations/"])
        #expect(wrong.check(against: hooks).map(\.message) == ["Swift stage 'rate-soups' is registered at revision '4' but declared at revision '3'"])
        #expect(wrong.check(against: hooks).first?.location?.line == 4)
    }

    @Test func aStageGetsItsContextInTheDryRunAndTheRealRun() throws {
        let (path, models, hooks) = try Self.project(["rate-soups.yaml": Self.declaration])
        let seen = Seen()
        var stages = Stages()
        stages.register("rate-soups", revision: "3") { ctx in
            seen.add("dry=\(ctx.isDryRun) now=\(ctx.now) var=\(ctx.variables["WHO"] ?? "-") engine=\(ctx.engine.rawValue) v\(ctx.model.version)")
            let recipe = try ctx.table("Recipe"), rating = try ctx.column("rating", of: "Recipe")
            let before = try ctx.fetchOne(sql: #"SELECT count(*) FROM "Recipe""#)?[0] as Int?
            seen.add("rows=\(before ?? -1)")
            try ctx.execute("UPDATE \(recipe) SET \(rating) = \(rating) WHERE 0")
            var request = BatchUpdateRequest(entity: "Recipe", predicate: "name BEGINSWITH 'S'", propertiesToUpdate: ["rating": .literal("5")])
            request.resultType = .updatedObjectIDs
            let result = try ctx.batchUpdate(request)
            seen.add("updated=\(result.count)")
        }
        var options = MigrationRun.Options(now: MigrationRunTests.now)
        options.stages = stages
        options.variables = ["WHO": "ops"]
        options.dryRun = true
        let dry = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
        options.dryRun = false
        let real = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
        #expect(seen.all == ["dry=true now=1717200000.0 var=ops engine=sqlite v4", "rows=3", "updated=1",
                             "dry=false now=1717200000.0 var=ops engine=sqlite v4", "rows=3", "updated=1"])
        for report in [dry, real] {
            let stage = try #require(report.hooks.first { $0.id == "rate-soups" })
            #expect(stage.steps.map(\.kind) == ["swift"] && stage.rowsAffected == 1)
            #expect(stage.audit?.entities == ["Recipe"])   // its `writes:`, audited in full
        }
        let store = try Store.open(path: path, readOnly: true)
        #expect(try store.queue.read { try Int.fetchOne($0, sql: #"SELECT "rating" FROM "Recipe" WHERE "name" = 'Soup'"#) } == 5)
        #expect(try store.queue.read { try String.fetchOne($0, sql: #"SELECT "checksum" FROM "strata_hooks" WHERE "id" = 'rate-soups'"#) }
                == SHA256.hex(Array("rate-soups\n3".utf8)))
    }

    @Test func aThrowingStageRollsBackItsStepWithExitOne() throws {
        struct Failure: Error, CustomStringConvertible { var description: String { "no network" } }
        let (path, models, hooks) = try Self.project(["rate-soups.yaml": Self.declaration])
        var stages = Stages()
        stages.register("rate-soups", revision: "3") { ctx in
            try ctx.execute(sql: #"DELETE FROM "Recipe""#)
            throw Failure()
        }
        var options = MigrationRun.Options(now: MigrationRunTests.now)
        options.stages = stages
        do {
            _ = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
            Issue.record("the run should fail")
        } catch let error as MigrationRunError {
            #expect(error.underlying.exitCode == .runtimeFailure)
            #expect(error.underlying.diagnostics.first?.message == "Swift stage 'rate-soups' threw: no network; its step was rolled back")
            #expect(error.report.toVersion == 3)
        }
        let store = try Store.open(path: path, readOnly: true)
        #expect(try store.queue.read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Recipe""#) } == 3)
    }

    @Test func anUnregisteredStageStopsBeforeItsStepWithSeven() throws {
        let (path, models, hooks) = try Self.project(["rate-soups.yaml": Self.declaration])
        do {
            _ = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: MigrationRun.Options(now: MigrationRunTests.now))
            Issue.record("the run should stop")
        } catch let error as MigrationRunError {
            #expect(error.underlying.exitCode == .pendingWork)
            #expect(error.report.toVersion == 3)   // the steps before it ran
        }
    }

    @Test func whatAStagesSQLWritesIsAuditedAndInvalidatedEvenWhenUndeclared() throws {
        let declaration = "id: rate-soups\nafter: 4\nswift: true\nrevision: \"3\"\nonViolation: warn\n"   // no `writes:`
        let (path, models, hooks) = try Self.project(["rate-soups.yaml": declaration])
        var stages = Stages()
        stages.register("rate-soups", revision: "3") { ctx in
            try ctx.execute(sql: #"INSERT INTO "Chef" ("name", "email") VALUES ('Ann', 'not an address')"#)
        }
        var options = MigrationRun.Options(now: MigrationRunTests.now)
        options.stages = stages
        let report = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
        let stage = try #require(report.hooks.first { $0.id == "rate-soups" })
        #expect(stage.steps.map(\.entity) == ["Chef"])
        #expect(stage.audit?.entities == ["Chef"])
        #expect(stage.audit?.violated.map { "\($0.entity).\($0.property ?? ""):\($0.count)" } == ["Chef.email:1"])
        #expect(report.changes.invalidated == ["Chef"])
    }

    @Test func aStagesSQLRunsUnderTheAuthorizerOfSQLSteps() throws {
        let (path, models, hooks) = try Self.project(["rate-soups.yaml": Self.declaration])
        var stages = Stages()
        stages.register("rate-soups", revision: "3") { ctx in
            try ctx.execute(sql: #"UPDATE "Recipe" SET "rating" = 1"#)
            try ctx.execute(sql: "PRAGMA foreign_keys = ON")
        }
        var options = MigrationRun.Options(now: MigrationRunTests.now)
        options.stages = stages
        do {
            _ = try MigrationRun.run(storePath: path, models: models, hooks: hooks, options: options)
            Issue.record("the run should fail")
        } catch let error as MigrationRunError {
            #expect(error.underlying.exitCode == .runtimeFailure)
            #expect(error.underlying.diagnostics.first?.message
                    == "Swift stage 'rate-soups' threw: refused: PRAGMA foreign_keys is refused in sql: steps; its step was rolled back")
        }
        let store = try Store.open(path: path, readOnly: true)
        #expect(try store.queue.read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Recipe" WHERE "rating" = 1"#) } == 0)
    }
}
