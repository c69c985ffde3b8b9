import Foundation
import StrataCore
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// Hooks during `migrate` on PostgreSQL stores against the throwaway server: the example's hooks with exact
/// rows, counts and records, exactly once, a failing step rolling its whole version step back, and `[c]`/`[d]`
/// predicates. Skipped (and said so on stderr) without PostgreSQL.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresHookTests {
    static func psql(_ sql: String) throws -> [String] { try PostgresStoreTests.psql(sql) }
    /// `$NOW` of the runs: 2024-05-21T00:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_716_249_600)
    static let day: Double = 86_400

    static func exampleHooks(_ history: ModelHistory) throws -> HookSet {
        try HookSet.load(directory: PostgresStepPlannerTests.root + "/migrations", models: history)
    }

    /// A v1 store of the example with four recipes (two untitled, one never used) and three ingredients.
    static func exampleStore(_ history: ModelHistory, hooks: HookSet) async throws -> (url: PostgresStoreURL, schema: String) {
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1, hooks: hooks)
        let t = now.timeIntervalSince1970
        _ = try psql("""
            INSERT INTO "\(schema)"."Recipe" ("name", "lastUsed", "rating") VALUES
              ('Untitled', NULL, 0), ('Soup', to_timestamp(\(t - 5 * day)), 4),
              ('Old stew', to_timestamp(\(t - 90 * day)), 2), ('Untitled', to_timestamp(\(t - 100 * day)), 1);
            INSERT INTO "\(schema)"."Ingredient" ("name", "recipe") VALUES ('salt', 1), ('pepper', 1), ('leek', 2);
            """)
        return (url, schema)
    }

    @Test func exampleHooksRunOnceWithExactRowsCountsAndRecords() async throws {
        let history = try PostgresStoreTests.example()
        let hooks = try Self.exampleHooks(history)
        let (url, schema) = try await Self.exampleStore(history, hooks: hooks)
        let report = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: Self.now))
        #expect(report.toVersion == 4)
        #expect(report.hooks.map(\.id) == ["purge-abandoned-drafts", "favorite-recent-recipes"])
        #expect(report.hooks.map(\.rowsAffected) == [1, 1])
        #expect(report.hooks[0].steps.map(\.deletedCounts) == [["Recipe": 1, "Ingredient": 2]])
        let uuid = try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")[0]
        #expect(report.hooks[1].steps.first?.objectIDs?.map(\.uri) == ["x-strata://\(uuid)/Recipe/p2"])
        #expect(try Self.psql(#"SELECT "_pk" || ' ' || "name" || ' ' || "favorite" FROM "\#(schema)"."Recipe" ORDER BY "_pk""#)
                    == ["2 Soup true", "3 Old stew false", "4 Untitled false"])
        #expect(try Self.psql(#"SELECT "name" || ' ' || "recipe" FROM "\#(schema)"."Ingredient" ORDER BY "_pk""#) == ["leek 2"])
        #expect(try Self.psql(#"""
            SELECT id || ' ' || status || ' ' || "afterVersion" || ' ' || "modelVersion" || ' ' || "rowsAffected" || ' ' || results
            FROM "\#(schema)".strata_hooks ORDER BY id
            """#) == [
                #"favorite-recent-recipes applied 4 4 1 [{"count":1,"entity":"Recipe","kind":"batchUpdate"}]"#,
                #"purge-abandoned-drafts applied 3 3 1 [{"count":1,"entity":"Recipe","kind":"batchDelete"}]"#,
            ])
        let again = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: Self.now))
        #expect(again.nothingToDo && again.hooks.isEmpty)
        #expect(try Self.psql(#"SELECT count(*) FROM "\#(schema)"."Recipe""#) == ["3"])
    }

    static let twoVersions: [String: String] = [
        "1.yaml": """
            version: 1
            entities:
              Item:
                attributes:
                  name:  { type: string }
                  price: { type: decimal }
                  code:  { type: string }
                uniqueness: [[code]]
            """,
        "2.yaml": """
            version: 2
            entities:
              Item:
                attributes:
                  name:  { type: string }
                  price: { type: decimal }
                  code:  { type: string }
                  sale:  { type: bool, default: false, optional: false }
                uniqueness: [[code]]
            """,
    ]

    static func hooks(_ history: ModelHistory, _ files: [String: String]) throws -> HookSet {
        try HookSet.load(yaml: files, models: history)
    }

    /// A store of ``twoVersions`` created at version 1 with the hook `files`.
    static func store(hooks files: [String: String]) async throws -> (history: ModelHistory, hooks: HookSet, url: PostgresStoreURL, schema: String) {
        let history = try ModelHistory.load(yaml: Self.twoVersions)
        let hooks = try Self.hooks(history, files)
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1, hooks: hooks)
        return (history, hooks, url, schema)
    }

    @Test func aFailingHookStepRollsItsWholeVersionStepBack() async throws {
        let (history, hooks, url, schema) = try await Self.store(hooks: ["mark.yaml": """
            id: mark
            after: 2
            steps:
              - batchUpdate: { entity: Item, predicate: "price > 10", propertiesToUpdate: { sale: true } }
              - batchUpdate: { entity: Item, propertiesToUpdate: { code: same } }
            """])
        _ = try Self.psql(#"INSERT INTO "\#(schema)"."Item" ("name", "price", "code") VALUES ('a', 12.5, 'x'), ('b', 3, 'y')"#)
        // In SQLite's words, located at the step (HookRunner.located): the same error as on an SQLite store.
        let error = await #expect(throws: SQLStepError.self) {
            try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: Self.now))
        }
        #expect(error?.exitCode == .validationViolations)
        #expect(error?.message == "hook 'mark' step 2: the batch would break a uniqueness constraint: UNIQUE constraint failed: Item.code")
        #expect(error?.location?.line == 5)
        #expect(try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.version'") == ["1"])
        #expect(try Self.psql("SELECT count(*) FROM information_schema.columns WHERE table_schema = '\(schema)' AND column_name = 'sale'") == ["0"])
        #expect(try Self.psql(#"SELECT count(*) FROM "\#(schema)".strata_hooks"#) == ["0"])
        #expect(try Self.psql(#"SELECT "code" FROM "\#(schema)"."Item" ORDER BY "_pk""#) == ["x", "y"])
    }

    @Test func decimalsAndCaseInsensitiveMatchesRunNatively() async throws {
        let (history, hooks, url, schema) = try await Self.store(hooks: ["mark.yaml": """
            id: mark
            after: 2
            steps:
              - batchUpdate:
                  entity: Item
                  predicate: "price >= 10.5 OR name MATCHES[c] 'crème.*' OR name ==[c] 'STRASSE'"
                  propertiesToUpdate: { sale: true, price: { expression: "price * 2" } }
                  resultType: updatedObjectsCount
              - batchDelete: { entity: Item, predicate: "name BEGINSWITH 'zz'" }
            """])
        _ = try Self.psql(#"""
            INSERT INTO "\#(schema)"."Item" ("name", "price", "code") VALUES
              ('a', 12.5, 'p'), ('b', 3, 'q'), ('Crème brûlée', 1.25, 'r'), ('strasse', NULL, 's'), ('zz top', 1, 't')
            """#)
        let report = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: Self.now))
        #expect(report.hooks.first?.steps.map(\.count) == [3, 1])
        #expect(try Self.psql(#"SELECT "name" || ' ' || coalesce("price"::text, '-') || ' ' || "sale" FROM "\#(schema)"."Item" ORDER BY "_pk""#)
                    == ["a 25.0 true", "b 3 false", "Crème brûlée 2.50 true", "strasse - true"])
    }
}

extension PostgresHookTests {
    @Test func diacriticInsensitivePredicatesNeedTheUnaccentExtensionBeforeAnyStep() async throws {
        let (history, hooks, url, schema) = try await Self.store(hooks: ["mark.yaml": """
            id: mark
            after: 2
            steps:
              - batchUpdate: { entity: Item, predicate: "name ==[cd] 'creme'", propertiesToUpdate: { sale: true } }
            """])
        guard try Self.psql("SELECT count(*) FROM pg_extension WHERE extname = 'unaccent'") == ["0"] else { return }
        let error = await #expect(throws: PostgresRenderError.self) {
            try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: Self.now))
        }
        #expect(error?.diagnostics.first?.message
                    == "[d] needs the unaccent extension, which this database does not have on a PostgreSQL store")
        #expect(error?.exitCode == .invalidInput)
        #expect(try Self.psql("SELECT count(*) FROM information_schema.columns WHERE table_schema = '\(schema)' AND column_name = 'sale'") == ["0"])
    }

    @Test func icuOnlyRegexSyntaxIsRefusedBeforeAnyStepNamingTheHook() async throws {
        let (history, hooks, url, schema) = try await Self.store(hooks: ["mark.yaml": #"""
            id: mark
            after: 2
            steps:
              - batchDelete: { entity: Item, predicate: "name MATCHES '\\\\bzz.*'" }
            """#])
        let error = await #expect(throws: PostgresRenderError.self) {
            try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: Self.now))
        }
        #expect(error?.diagnostics.first?.message == #"hook 'mark' (mark.yaml): MATCHES "\bzz.*" uses a word boundary (\b), which only ICU regular expressions have on a PostgreSQL store"#)
        #expect(try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.version'") == ["1"])
    }
}

extension PostgresHookTests {
    static let posts: [String: String] = [
        "1.yaml": """
            version: 1
            entities:
              Post:
                attributes:
                  title:        { type: string }
                  authorHandle: { type: string }
            """,
        "2.yaml": """
            version: 2
            entities:
              Post:
                attributes:
                  title:        { type: string }
                  authorHandle: { type: string }
                relationships:
                  author: { destination: User, inverse: posts }
              User:
                attributes:
                  handle: { type: string }
                  joined: { type: date }
                  active: { type: bool, default: true, optional: false }
                relationships:
                  posts: { destination: Post, toMany: true, inverse: author }
            """,
    ]

    @Test func insertsAndLinksRunInTheStepWithExactRows() async throws {
        let history = try ModelHistory.load(yaml: Self.posts)
        let hooks = try Self.hooks(history, ["users.yaml": """
            id: users
            after: 2
            steps:
              - batchInsert:
                  entity: User
                  objects: [ { handle: ana, joined: "2024-01-02" }, { handle: bo, active: false } ]
                  resultType: objectIDs
              - batchInsert:
                  entity: User
                  from: { entity: Post, predicate: "authorHandle BEGINSWITH 'c'" }
                  values: { handle: "$source.authorHandle", joined: "now()" }
              - setRelationship:
                  entity: Post
                  relationship: author
                  match: { authorHandle: handle }
            """])
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1, hooks: hooks)
        _ = try Self.psql(#"""
            INSERT INTO "\#(schema)"."Post" ("title", "authorHandle") VALUES ('a1', 'ana'), ('b1', 'bo'), ('c1', 'cy'), ('x', 'nobody')
            """#)
        let report = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: Self.now))
        let uuid = try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")[0]
        #expect(report.hooks.first?.steps.map(\.count) == [2, 1, 3])
        #expect(report.hooks.first?.steps.first?.objectIDs?.map(\.uri) == ["x-strata://\(uuid)/User/p1", "x-strata://\(uuid)/User/p2"])
        #expect(try Self.psql(#"""
            SELECT "_pk" || ' ' || "handle" || ' ' || coalesce(to_char("joined" AT TIME ZONE 'UTC', 'YYYY-MM-DD'), '-') || ' ' || "active"
            FROM "\#(schema)"."User" ORDER BY "_pk"
            """#) == ["1 ana 2024-01-02 true", "2 bo - false", "3 cy 2024-05-21 true"])
        #expect(try Self.psql(#"SELECT "title" || ' ' || coalesce("author"::text, '-') FROM "\#(schema)"."Post" ORDER BY "_pk""#)
                    == ["a1 1", "b1 2", "c1 3", "x -"])
    }

    @Test func anAmbiguousLinkRollsTheStepBack() async throws {
        let history = try ModelHistory.load(yaml: Self.posts)
        let hooks = try Self.hooks(history, ["users.yaml": """
            id: users
            after: 2
            steps:
              - batchInsert: { entity: User, objects: [ { handle: ana }, { handle: ana } ] }
              - setRelationship: { entity: Post, relationship: author, match: { authorHandle: handle } }
            """])
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1, hooks: hooks)
        _ = try Self.psql(#"INSERT INTO "\#(schema)"."Post" ("title", "authorHandle") VALUES ('a1', 'ana')"#)
        let uuid = try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")[0]
        // SQLite's error, naming the hook.
        let error = await #expect(throws: RelationshipAmbiguityError.self) {
            try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: Self.now))
        }
        #expect(error?.diagnostics.map(\.headline) == ["error: hook 'users': setRelationship Post.author is ambiguous: Post x-strata://\(uuid)/Post/p1 "
                + "(authorHandle = \"ana\") matches several User objects: x-strata://\(uuid)/User/p1, x-strata://\(uuid)/User/p2; "
                + "nothing was linked and the step was rolled back"])
        #expect(error?.exitCode == .validationViolations)
        #expect(try Self.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = '\(schema)' AND table_name = 'User'") == ["0"])
    }
}

extension PostgresHookTests {
    /// Runs a hook of one `sql:` step; the audit after it is `--audit none` unless given (what `sql:` steps write is
    /// audited in full: `PostgresHookAuditTests`).
    static func runSQLHook(_ sql: String, rows: String = "('a', 12.5, 'p'), ('b', 3, 'q')", audit: AuditMode = .none) async throws
        -> (result: Result<PostgresMigration.Report, any Error>, schema: String) {
        let (history, hooks, url, schema) = try await Self.store(hooks: ["raw.yaml": "id: raw\nafter: 2\nsteps:\n  - sql: " + sql + "\n"])
        _ = try Self.psql(#"INSERT INTO "\#(schema)"."Item" ("name", "price", "code") VALUES "# + rows)
        var options = PostgresMigration.Options(now: Self.now)
        options.audit = audit
        do {
            return (.success(try await PostgresMigration.run(url, models: history, hooks: hooks, options: options)), schema)
        } catch {
            return (.failure(error), schema)
        }
    }

    static func version(_ schema: String) throws -> [String] {
        try psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.version'")
    }

    @Test func sqlStepsRunTheirPostgreSQLTextStatementByStatement() async throws {
        let (result, schema) = try await Self.runSQLHook(#"""
            { sqlite: "SELECT 1", postgresql: "UPDATE {{Item}} SET {{Item.name}} = upper({{Item.name}}) || ';' WHERE {{Item.price}} > 5; INSERT INTO {{Item}} ({{Item.name}}, {{Item.code}}) VALUES ('c', $$r;$$)" }
            """#)
        let report = try result.get()
        #expect(report.hooks.first?.steps.map { "\($0.kind) \($0.entity) \($0.count)" } == ["sql Item 2"])
        // The inserted row's sale is NULL: users' SQL sets what it needs (no DEFAULT clause on the column).
        #expect(try Self.psql(#"SELECT "name" || ' ' || "code" || ' ' || coalesce("sale"::text, '-') FROM "\#(schema)"."Item" ORDER BY "_pk""#)
                    == ["A; p false", "b q false", "c r; -"])
        #expect(try Self.psql(#"SELECT id || ' ' || results FROM "\#(schema)".strata_hooks"#)
                    == [#"raw [{"count":2,"entity":"Item","kind":"sql"}]"#])
    }

    @Test func aPlainSQLStringIsRefusedBeforeAnyStep() async throws {
        let (result, schema) = try await Self.runSQLHook(#""UPDATE {{Item}} SET {{Item.name}} = 'x'""#)
        guard case .failure(let error as Diagnostic) = result else { Issue.record("got \(result)"); return }
        #expect(error.message == "hook 'raw' step 1: this sql: step has no PostgreSQL text")
        #expect(error.exitCode == .invalidInput)
        #expect(try Self.version(schema) == ["1"])
    }

    @Test(arguments: [
        ("SET search_path TO public", "hook 'raw' step 1: SET (a session setting) is not allowed in an sql: step"),
        ("UPDATE {{Item}} SET {{Item.name}} = 'x'; COMMIT", "hook 'raw' step 1: COMMIT (transaction control) is not allowed in an sql: step"),
    ])
    func refusedStatementsStopTheRunBeforeAnyStep(_ statement: String, _ message: String) async throws {
        let (result, schema) = try await Self.runSQLHook(#"{ sqlite: "SELECT 1", postgresql: "\#(statement)" }"#)
        guard case .failure(let error as Diagnostic) = result else { Issue.record("got \(result)"); return }
        #expect(error.message == message)
        #expect(try Self.version(schema) == ["1"])
    }

    @Test func aSchemaChangeOrAnErrorRollsTheStepBack() async throws {
        let (changed, schema) = try await Self.runSQLHook(#"{ sqlite: "SELECT 1", postgresql: "ALTER TABLE {{Item}} ADD COLUMN extra text" }"#)
        guard case .failure(let error as Diagnostic) = changed else { Issue.record("got \(changed)"); return }
        #expect(error.message.hasPrefix("hook 'raw': its sql: steps changed the tables Strata manages: the schema now has Item.extra text YES"))
        #expect(try Self.version(schema) == ["1"])
        let (broken, other) = try await Self.runSQLHook(#"{ sqlite: "SELECT 1", postgresql: "UPDATE {{Item}} SET {{Item.code}} = 'same'" }"#)
        guard case .failure(let violation as PostgresStoreError) = broken else { Issue.record("got \(broken)"); return }
        #expect(violation.exitCode == .validationViolations)
        #expect(try Self.version(other) == ["1"])
        #expect(try Self.psql(#"SELECT "code" FROM "\#(other)"."Item" ORDER BY "_pk""#) == ["p", "q"])
    }
}

extension PostgresHookTests {
    @Test func aDryRunReportsTheRealCountsAndWritesNothing() async throws {
        let history = try PostgresStoreTests.example()
        let hooks = try Self.exampleHooks(history)
        let (url, schema) = try await Self.exampleStore(history, hooks: hooks)
        var options = PostgresMigration.Options(now: Self.now)
        options.dryRun = true
        let dry = try await PostgresMigration.run(url, models: history, hooks: hooks, options: options)
        #expect(dry.dryRun && dry.toVersion == 4 && dry.steps.count == 3)
        #expect(dry.hooks.map(\.rowsAffected) == [1, 1])
        #expect(try Self.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.version'") == ["1"])
        #expect(try Self.psql(#"SELECT count(*) FROM "\#(schema)"."Recipe""#) == ["4"])
        #expect(try Self.psql(#"SELECT count(*) FROM "\#(schema)".strata_hooks"#) == ["0"])
        #expect(try Self.psql(#"SELECT count(*) FROM "\#(schema)".strata_history"#) == ["1"])
        let real = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: Self.now))
        #expect(!real.dryRun && real.hooks.map(\.rowsAffected) == [1, 1])
        #expect(real.hooks.map(\.steps) .map { $0.map(\.count) } == dry.hooks.map(\.steps).map { $0.map(\.count) })
    }
}

extension PostgresHookTests {
    @Test func beforeHooksRunOnThePreviousModelAheadOfTheSchemaChanges() async throws {
        let history = try ModelHistory.load(yaml: [
            "1.yaml": """
                version: 1
                entities:
                  Item:
                    attributes:
                      legacyCode: { type: string }
                      saved:      { type: string }
                """,
            "2.yaml": """
                version: 2
                entities:
                  Item:
                    attributes:
                      saved: { type: string }
                """,
        ])
        let hooks = try Self.hooks(history, ["keep.yaml": """
            id: keep-legacy-codes
            before: 2
            steps:
              - batchUpdate:
                  entity: Item
                  predicate: "legacyCode != nil"
                  propertiesToUpdate: { saved: { expression: "legacyCode" } }
            """])
        let (url, schema) = try await PostgresMigrationTests.create(history, at: 1, hooks: hooks)
        _ = try Self.psql(#"INSERT INTO "\#(schema)"."Item" ("legacyCode") VALUES ('A-1'), (NULL), ('B-2')"#)
        let report = try await PostgresMigration.run(url, models: history, hooks: hooks, options: .init(now: Self.now))
        #expect(report.hooks.map { "\($0.id) \($0.place) \($0.rowsAffected)" } == ["keep-legacy-codes before v2 2"])
        #expect(try Self.psql(#"SELECT coalesce("saved", '-') FROM "\#(schema)"."Item" ORDER BY "_pk""#) == ["A-1", "-", "B-2"])
        #expect(try Self.psql("SELECT count(*) FROM information_schema.columns WHERE table_schema = '\(schema)' AND column_name = 'legacyCode'") == ["0"])
        #expect(try Self.psql(#"SELECT id || ' ' || "afterVersion" || ' ' || "modelVersion" FROM "\#(schema)".strata_hooks"#)
                    == ["keep-legacy-codes 2 1"])
    }
}
