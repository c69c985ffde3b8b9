import Foundation
import StrataCore
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// `migrate` on PostgreSQL stores against the throwaway server: the example's v1 → v4, steps refused before
/// anything is written, checks rolled back, the run's lock. Skipped (and said so on stderr) without PostgreSQL.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMigrationTests {
    static let none = HookSet(hooks: [])

    static func psql(_ sql: String) throws -> [String] { try PostgresStoreTests.psql(sql) }

    static func create(_ history: ModelHistory, at version: Int, hooks: HookSet = none) async throws -> (url: PostgresStoreURL, schema: String) {
        let (url, schema) = try PostgresStoreTests.newStore()
        let report = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(target: version, create: true))
        #expect(report.created && report.toVersion == version)
        return (url, schema)
    }

    @Test func exampleFromVersion1To4KeepsTheData() async throws {
        let history = try PostgresStoreTests.example()
        let (url, schema) = try await Self.create(history, at: 1)
        _ = try Self.psql(#"INSERT INTO "\#(schema)"."Recipe" ("name", "rating", "servings") VALUES ('Soup', 3, 4)"#)
        let report = try await PostgresMigration.run(url, models: history, hooks: Self.none, options: .init())
        #expect(report.steps.map { "\($0.fromVersion)→\($0.toVersion)" } == ["1→2", "2→3", "3→4"])
        #expect(report.toVersion == 4)
        let columns = try Self.psql("""
            SELECT column_name || ' ' || data_type FROM information_schema.columns
            WHERE table_schema = '\(schema)' AND table_name = 'Recipe' ORDER BY ordinal_position
            """)
        #expect(columns == ["_pk bigint", "name text", "lastUsed timestamp with time zone", "portions smallint", "rating smallint",
                            "author bigint", "notes text", "favorite boolean"])
        #expect(try Self.psql(#"SELECT "name" || ' ' || "portions" || ' ' || "favorite" FROM "\#(schema)"."Recipe""#) == ["Soup 4 false"])
        let indexes = try Self.psql("""
            SELECT indexname FROM pg_indexes WHERE schemaname = '\(schema)' AND indexname LIKE 'strata_%' AND indexname NOT LIKE '%pkey' ORDER BY indexname
            """)
        #expect(indexes == ["strata_fk_Ingredient_recipe", "strata_fk_Recipe_author", "strata_idx_Recipe_favorite_lastUsed",
                     "strata_idx_Recipe_lastUsed", "strata_uniq_Chef_email"])
        #expect(try Self.psql("""
            SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND condeferrable AND NOT condeferred
            AND connamespace = '\(schema)'::regnamespace
            """) == ["2"])
        #expect(try Self.psql(#"SELECT kind || ' ' || coalesce("fromVersion"::text, '-') || ' ' || "toVersion" FROM "\#(schema)".strata_history ORDER BY id"#)
                    == ["create - 1", "migrate 1 2", "migrate 2 3", "migrate 3 4"])
        let store = try await PostgresStore.open(url)
        let metadata = try await store.metadata()
        await store.close()
        #expect(metadata.version == 4 && metadata.modelHash == VersionHash.modelHash(of: history.models[3]))
        let again = try await PostgresMigration.run(url, models: history, hooks: Self.none, options: .init())
        #expect(again.nothingToDo && again.toVersion == 4)
    }

    @Test func aSwiftStageTheRunDoesNotRegisterStopsBeforeItsStep() async throws {
        let history = try PostgresStoreTests.example()
        let hooks = try HookSet.load(yaml: ["chefs.yaml": """
            id: seed-chefs
            after: 2
            revision: "1"
            swift: true
            """], models: history)
        let (url, schema) = try await Self.create(history, at: 1, hooks: hooks)
        let error = await #expect(throws: StageError.self) {
            try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init())
        }
        #expect(error?.exitCode == .pendingWork)
        #expect(error?.description.hasPrefix("error: Swift stage 'seed-chefs' declared in migrations/ but not registered") == true, "\(String(describing: error))")
        #expect(try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.version'") == ["1"])
        #expect(try Self.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = '\(schema)' AND table_name = 'Chef'") == ["0"])
    }

    @Test func aStoreCreatedAtTheTargetRecordsEarlierHooksAsNotNeeded() async throws {
        let history = try PostgresStoreTests.example()
        let hooks = try HookSet.load(directory: PostgresStepPlannerTests.root + "/migrations", models: history)
        let (_, schema) = try await Self.create(history, at: 4, hooks: hooks)
        #expect(try Self.psql(#"SELECT id || ' ' || status || ' ' || "afterVersion" FROM "\#(schema)".strata_hooks ORDER BY id"#)
                    == ["favorite-recent-recipes notNeeded 4", "purge-abandoned-drafts notNeeded 3"])
    }

    @Test func anUnsupportedLaterStepStopsTheRunBeforeTheFirstStep() async throws {
        var history = try ModelHistory.load(yaml: [
            "1.yaml": "version: 1\nentities:\n  A:\n    attributes:\n      n: { type: int16 }\n",
            "2.yaml": "version: 2\nentities:\n  A:\n    attributes:\n      n: { type: int16 }\n      m: { type: string }\n",
            "3.yaml": "version: 3\nentities:\n  A:\n    attributes:\n      n: { type: int16 }\n      m: { type: string }\n  B:\n    attributes:\n      n: { type: int16 }\n  C:\n    attributes:\n      n: { type: int16 }\n",
            "4.yaml": "version: 4\nentities:\n  B:\n    attributes:\n      n: { type: int16 }\n  C:\n    attributes:\n      n: { type: int16 }\n      k: { type: int16 }\n    uniqueness: [[n], [k]]\n",
        ])
        // A mapping file splits A's objects into B and C (C created under the name of the C the step drops); then a
        // hook's sql: step has no PostgreSQL text, which stops the run before its first step.
        history.mappings[4] = try MappingFileLoader.load(yaml: "mapping: { from: 3, to: 4 }\nentities:\n  B: { source: A, filter: \"n > 0\" }\n  C: { source: A, filter: \"n <= 0\" }\n",
                                                         file: "migrations/4.mapping.yaml")
        let hooks = try HookSet.load(yaml: ["up.yaml": "id: up\nafter: 4\nsteps:\n  - sql: \"UPDATE {{C}} SET {{C.k}} = {{C.n}}\"\n"], models: history)
        let (url, schema) = try await Self.create(history, at: 1, hooks: hooks)
        let error = await #expect(throws: Diagnostic.self) {
            try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init())
        }
        #expect(error?.message == "hook 'up' step 1: this sql: step has no PostgreSQL text", "\(String(describing: error))")
        #expect(try Self.psql("SELECT count(*) FROM information_schema.columns WHERE table_schema = '\(schema)' AND column_name = 'm'") == ["0"])
        // Up to the last supported step is fine.
        let report = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(target: 2))
        #expect(report.toVersion == 2)
    }

    @Test func aViolatedCheckRollsTheStepBack() async throws {
        let history = try ModelHistory.load(yaml: [
            "1.yaml": "version: 1\nentities:\n  A:\n    attributes:\n      x: { type: string }\n",
            "2.yaml": "version: 2\nentities:\n  A:\n    attributes:\n      x: { type: string, optional: false }\n      y: { type: string }\n",
        ])
        let (url, schema) = try await Self.create(history, at: 1)
        let pk = try Self.psql(#"INSERT INTO "\#(schema)"."A" ("x") VALUES (NULL) RETURNING "_pk""#)[0]
        let uuid = try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")[0]
        await #expect {
            try await PostgresMigration.run(url, models: history, hooks: Self.none, options: .init())
        } throws: { error in
            (error as? MigrationError)?.description == """
                error: v1 → v2: A.x has no NULLs (it becomes non-optional and has no default): 1 object (code 1570)
                  x-strata://\(uuid)/A/p\(pk)
                hint: add a default to A.x, or fill the NULLs in a hook of an earlier version; the store was not changed
                """
        }
        #expect(try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.version'") == ["1"])
        #expect(try Self.psql("SELECT count(*) FROM information_schema.columns WHERE table_schema = '\(schema)' AND column_name = 'y'") == ["0"])
    }

    @Test func aRunWaitsForTheLockThenReportsTheHolder() async throws {
        let history = try PostgresStoreTests.example()
        let (url, _) = try await Self.create(history, at: 1)
        let holder = try await PostgresSession.connect(url)
        let lock = PostgresSessionLock(session: holder, url: url)
        try await lock.acquire(timeout: 1)
        let error = await #expect(throws: PostgresStoreError.self) {
            try await PostgresMigration.run(url, models: history, hooks: Self.none, options: .init(lockTimeout: 0.3))
        }
        guard case .busy(_, let name)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(name == PostgresSession.applicationName)
        #expect(error?.exitCode == .storeBusy)
        try await lock.release()
        await holder.close()
        #expect(try await PostgresMigration.run(url, models: history, hooks: Self.none, options: .init()).toVersion == 4)
    }
}
