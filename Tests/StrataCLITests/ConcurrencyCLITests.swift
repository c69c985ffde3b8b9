import Foundation
import Testing
import StrataTestSupport

/// Concurrent `strata migrate` runs on one store (SPEC §9, issues 6 and 7): one migrates, the others
/// wait for the lock and find nothing to do; every hook runs once; a dead holder leaves no stale lock.
@Suite struct ConcurrencyCLITests {
    @Test func eightRunsStartedTogetherMigrateOnceAndRunEachHookOnce() throws {
        let dir = try CLI.exampleProject()
        let recipes = 20_000
        let path = try ExampleData.v1Store(in: dir, recipes: recipes)
        let args = ["migrate", "--store", "app.sqlite", "--now", ExampleData.now, "--lock-timeout", "120",
                    "--no-progress", "--format", "json"]
        let children = try (0..<8).map { _ in try E2E.Child(args, in: dir) }
        let results = children.map { $0.wait() }

        #expect(results.map(\.status) == Array(repeating: 0, count: 8), "\(results.map(\.stderr))")
        let migrations = try results.map { try #require(try CLI.json($0.stdout)["migration"] as? [String: Any]) }
        let migrated = migrations.filter { ($0["fromVersion"] as? Int ?? 0) < ($0["toVersion"] as? Int ?? 0) }
        #expect(migrated.count == 1)
        #expect(migrated.first?["fromVersion"] as? Int == 1 && migrated.first?["toVersion"] as? Int == 4)
        #expect((migrated.first?["hooks"] as? [[String: Any]])?.map { $0["id"] as? String } == ["purge-abandoned-drafts", "favorite-recent-recipes"])
        let idle = migrations.filter { $0["nothingToDo"] as? Bool == true }
        #expect(idle.count == 7)
        #expect(idle.allSatisfy { $0["fromVersion"] as? Int == 4 && $0["toVersion"] as? Int == 4 && ($0["hooks"] as? [Any])?.isEmpty == true })
        // The runs that found the lock taken said so (naming the holder once it has written its record:
        // a run that starts waiting in the instant between the holder's flock and its write cannot name it).
        #expect(migrations.contains { $0["waitedForLock"] as? Bool == true })
        let notes = results.filter { $0.stderr.contains("waiting for the lock on app.sqlite") }
        #expect(notes.count == migrations.filter { $0["waitedForLock"] as? Bool == true }.count)
        #expect(notes.allSatisfy { !$0.stderr.contains("(held by") || $0.stderr.contains("(held by pid ") })

        let drafts = ExampleData.expectedDrafts(recipes: recipes), favorites = ExampleData.expectedFavorites(recipes: recipes)
        #expect(try E2E.rows(path, #"SELECT "id", "status", "rowsAffected" FROM "strata_hooks" ORDER BY "afterVersion""#)
                == ["purge-abandoned-drafts|applied|\(drafts)", "favorite-recent-recipes|applied|\(favorites)"])
        #expect(try E2E.rows(path, #"SELECT count(*), sum("favorite") FROM "Recipe""#) == ["\(recipes - drafts)|\(favorites)"])
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "Ingredient""#) == ["\(2 * (recipes - drafts))"])
        #expect(try E2E.rows(path, #"SELECT count(*) FROM "strata_history" WHERE "kind" = 'migrate'"#) == ["3"])
        #expect(try CLI.run(["status", "--check", "--store", "app.sqlite"], in: dir).status == 0)
    }

    @Test func aHeldLockIsExit5NamingTheHolderAndAKilledHolderLeavesNoStaleLock() throws {
        let dir = try CLI.exampleProject()
        let path = try ExampleData.v1Store(in: dir, recipes: 100)
        let lock = path + "-strata.lock"
        // Another "run": takes the flock and names itself in the file, as StoreLock does.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", #"exec 9>>"$1"; flock 9; printf 'pid: %s\nhost: deploy-2\n' $$ > "$1"; exec sleep 60"#, "sh", lock]
        try holder.run()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL); holder.waitUntilExit() } }
        #expect(Wait.until { (try? String(contentsOfFile: lock, encoding: .utf8))?.contains("host: deploy-2") == true },
                "the holder never wrote its record")
        let before = E2E.storeHashes(path)

        let started = Date()
        let busy = try CLI.run(["migrate", "--store", "app.sqlite", "--lock-timeout", "1"], in: dir)
        #expect(busy.status == 5)
        // A lower bound only: the whole --lock-timeout is waited; a busy machine may take longer.
        #expect(Date().timeIntervalSince(started) >= 1)
        #expect(busy.stderr == """
            waiting for the lock on app.sqlite (held by pid \(holder.processIdentifier) on host deploy-2)…
            error: the store 'app.sqlite' is busy: pid \(holder.processIdentifier) on host deploy-2 holds 'app.sqlite-strata.lock' (waited 1s)
            hint: wait for that run to finish, or raise --lock-timeout; if that process is gone, the lock is already free (the OS releases it when a process dies)

            """)
        #expect(E2E.storeHashes(path) == before)

        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        let after = try CLI.run(["migrate", "--store", "app.sqlite", "--lock-timeout", "0", "--now", ExampleData.now], in: dir)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(!after.stderr.contains("waiting"))
        #expect(try E2E.rows(path, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["4"])
    }
}
