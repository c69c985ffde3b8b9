import Foundation
import Testing

/// Post-migration hooks end to end (SPEC §5, issue 6): exactly once, skipped versions, late hooks,
/// policies, edited hooks.
@Suite struct HookLifecycleCLITests {
    @Test func v1ToV4RunsEachHookOnceAndRerunsDoNothing() throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 1000)
        let first = try CLI.run(["migrate", "--store", "app.sqlite", "--now", ExampleData.now, "--format", "json"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let migration = try #require(try CLI.json(first.stdout)["migration"] as? [String: Any])
        #expect(migration["fromVersion"] as? Int == 1 && migration["toVersion"] as? Int == 4)
        let hooks = try #require(migration["hooks"] as? [[String: Any]])
        #expect(hooks.map { $0["id"] as? String } == ["purge-abandoned-drafts", "favorite-recent-recipes"])
        #expect(hooks.map { $0["rowsAffected"] as? Int } == [ExampleData.expectedDrafts(recipes: 1000), ExampleData.expectedFavorites(recipes: 1000)])
        let favorites: Int? = try ExampleData.query(path, #"SELECT count(*) FROM "Recipe" WHERE "favorite" = 1"#)
        #expect(favorites == ExampleData.expectedFavorites(recipes: 1000))
        let ingredients: Int? = try ExampleData.query(path, #"SELECT count(*) FROM "Ingredient""#)
        #expect(ingredients == 2 * (1000 - ExampleData.expectedDrafts(recipes: 1000)))
        // Three reruns: nothing to do, nothing changes.
        for _ in 0..<3 {
            let again = try CLI.run(["migrate", "--store", "app.sqlite", "--now", "2030-01-01", "--format", "json"], in: dir)
            #expect(again.status == 0)
            #expect((try CLI.json(again.stdout)["migration"] as? [String: Any])?["nothingToDo"] as? Bool == true)
        }
        #expect(try ExampleData.query(path, #"SELECT count(*) FROM "Recipe" WHERE "favorite" = 1"#) == favorites)
        let markers: Int? = try ExampleData.query(path, #"SELECT count(*) FROM "strata_hooks" WHERE "status" = 'applied'"#)
        #expect(markers == 2)
    }

    @Test func migratingInTwoRunsRunsEachHookOnce() throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 500)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite", "--to", "2", "--now", ExampleData.now], in: dir).status == 0)
        #expect(try ExampleData.query(path, #"SELECT count(*) FROM "strata_hooks""#) == 0)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite", "--now", ExampleData.now], in: dir).status == 0)
        let rows: String? = try ExampleData.query(path, #"SELECT group_concat("id" || ':' || "rowsAffected", ',') FROM (SELECT * FROM "strata_hooks" ORDER BY "afterVersion")"#)
        #expect(rows == "purge-abandoned-drafts:\(ExampleData.expectedDrafts(recipes: 500)),favorite-recent-recipes:\(ExampleData.expectedFavorites(recipes: 500))")
    }

    @Test func aStoreCreatedAtTheLatestVersionNeverRunsOlderHooks() throws {
        let dir = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "app.sqlite"], in: dir).status == 0)
        let status: String? = try ExampleData.query(dir + "/app.sqlite", #"SELECT group_concat("id" || ':' || "status", ',') FROM (SELECT * FROM "strata_hooks" ORDER BY "id")"#)
        #expect(status == "favorite-recent-recipes:notNeeded,purge-abandoned-drafts:notNeeded")
        let check = try CLI.run(["status", "--check", "--store", "app.sqlite"], in: dir)
        #expect(check.status == 0)
    }

    @Test func aHookForAVersionTheStorePassedIsLate() throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 200)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite", "--now", ExampleData.now], in: dir).status == 0)
        try """
            id: rate-favorites
            after: 4
            steps:
              - batchUpdate: { entity: Recipe, predicate: "favorite == YES AND rating < 3", propertiesToUpdate: { rating: 3 } }
            """.write(toFile: dir + "/migrations/rate-favorites.yaml", atomically: true, encoding: .utf8)
        let status = try CLI.run(["status", "--check", "--store", "app.sqlite"], in: dir)
        #expect(status.status == 6)   // late hooks: 6, as `migrate` gives (SPEC §10)
        #expect(status.stdout.contains("late hooks rate-favorites (need --run-late-hooks)"))
        let refused = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(refused.status == 6)
        #expect(refused.stderr.hasPrefix("error: late hook(s) 'rate-favorites': the store already passed their version by migrating (it is at version 4)"))
        let ran = try CLI.run(["migrate", "--store", "app.sqlite", "--run-late-hooks", "--format", "json"], in: dir)
        #expect(ran.status == 0, "\(ran.stderr)")
        let hooks = (try CLI.json(ran.stdout)["migration"] as? [String: Any])?["hooks"] as? [[String: Any]]
        #expect(hooks?.first?["late"] as? Bool == true)
        #expect(try ExampleData.query(path, #"SELECT count(*) FROM "Recipe" WHERE "favorite" = 1 AND "rating" < 3"#) == 0)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite"], in: dir).status == 0)
    }

    @Test(arguments: ["rollback", "warn"])
    func violationPolicies(policy: String) throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 300)
        // Breaks `portions` max 100 for never-used recipes (rows the favorites hook does not touch:
        // its touched-rows audit would otherwise see them too).
        try """
            id: double-portions
            after: 4
            onViolation: \(policy)
            steps:
              - batchUpdate: { entity: Recipe, predicate: "lastUsed == nil AND name != 'Untitled'", propertiesToUpdate: { portions: 500 } }
            """.write(toFile: dir + "/migrations/zz-double-portions.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["migrate", "--store", "app.sqlite", "--now", ExampleData.now, "--format", "json"], in: dir)
        let broken: Int? = try ExampleData.query(path, #"SELECT count(*) FROM "Recipe" WHERE "portions" = 500"#)
        let version: String? = try ExampleData.query(path, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#)
        let migration = try CLI.json(r.stdout)["migration"] as? [String: Any]
        let hooks = migration?["hooks"] as? [[String: Any]] ?? []
        let violating = hooks.first { $0["id"] as? String == "double-portions" }
        let expected = (1...300).filter { $0 % 20 == 0 && $0 % 50 != 0 }.count
        #expect(expected > 0)
        #expect(((violating?["audit"] as? [String: Any])?["rules"] as? [[String: Any]])?.contains {
            $0["code"] as? Int == 1610 && $0["count"] as? Int == expected } == true)
        if policy == "rollback" {
            #expect(r.status == 3)
            #expect(broken == 0)
            #expect(version == "3")          // the v3 → v4 step was rolled back with the hook
            #expect(violating?["committed"] as? Bool == false)
            #expect(r.stderr.contains("hook 'double-portions' broke the model's rules"))
            let document = try CLI.json(r.stdout)
            let error = document["error"] as? [String: Any]
            #expect(document["passed"] as? Bool == false && error?["exitCode"] as? Int == 3)
            #expect(((error?["diagnostics"] as? [[String: Any]])?.first?["message"] as? String)?
                .hasPrefix("hook 'double-portions' broke the model's rules") == true)
        } else {
            #expect(r.status == 0)
            #expect(broken == expected)
            #expect(version == "4")
            #expect(violating?["committed"] as? Bool == true)
        }
    }

    @Test func editingAnAppliedHookIsDrift() throws {
        let dir = try CLI.exampleProject()
        try ExampleData.v1Store(in: dir, recipes: 100)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite", "--to", "3", "--now", ExampleData.now], in: dir).status == 0)
        let file = dir + "/migrations/purge-abandoned-drafts.yaml"
        try (try String(contentsOfFile: file, encoding: .utf8) + "# tweaked\n").write(toFile: file, atomically: true, encoding: .utf8)
        let r = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(r.status == 6)
        #expect(r.stderr.contains("hook purge-abandoned-drafts: editedHook: expected checksum"))
        #expect(try CLI.run(["status", "--store", "app.sqlite"], in: dir).status == 6)
        #expect(try CLI.run(["repair", "--store", "app.sqlite"], in: dir).status == 0)
        #expect(try CLI.run(["migrate", "--store", "app.sqlite", "--now", ExampleData.now], in: dir).status == 0)
    }
}
