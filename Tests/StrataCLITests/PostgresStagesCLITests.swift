import Foundation
import Testing
import StrataTestSupport
@testable import StrataCore   // SHA256, internal to the library

/// Swift stages on a PostgreSQL store (SPEC §11.2, §14.2; issue 18), end to end through the application's own
/// `strata` (Tests/StagesFixture/main.swift): the same stages, rows, records and report as on SQLite.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresStagesCLITests {
    /// A project with StageProject's models and `hooks`, and a v1 PostgreSQL store holding its 30 items.
    static func make(hooks: [String: String]) throws -> (dir: String, url: String, schema: String) {
        let (dir, _) = try StageProject.make(hooks: hooks)
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        _ = try PostgresTestServer.psql("""
            INSERT INTO "\(schema)"."Item" ("name", "legacyCode", "count") SELECT 'item' || i, \
            CASE WHEN i % 3 = 0 THEN NULL ELSE 'C' || i END, 0 FROM generate_series(1, 30) AS i
            """)
        return (dir, url, schema)
    }

    static func query(_ schema: String, _ sql: String) throws -> String {
        try PostgresTestServer.psql(sql.replacingOccurrences(of: "FROM \"", with: "FROM \"\(schema)\".\""))
    }

    static func version(_ schema: String) throws -> String {
        try query(schema, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#)
    }

    @Test func theApplicationsStrataRunsItsStagesExactlyOnceAsOnSQLite() throws {
        let (dir, url, schema) = try Self.make(hooks: StagesCLITests.declarations)
        let r = try StagesCLITests.run(["migrate", "--store", url, "--now", "2026-01-01T00:00:00Z"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("hook copy-codes (before v2): Swift stage (writes Item)"), "\(r.stdout)")
        #expect(r.stdout.contains("hook mark-notes (after v2): Swift stage (writes Item)"), "\(r.stdout)")
        #expect(r.stdout.contains("Invalidated by raw SQL (sql: steps, Swift stages; refetch every object): Item"), "\(r.stdout)")
        // The before-stage read `legacyCode` (gone in v2); the after-stage marked every note once.
        #expect(try Self.query(schema, #"SELECT "name" || '|' || "note" FROM "Item" WHERE "_pk" <= 3 ORDER BY "_pk""#)
                == "item1|C1+\nitem2|C2+\nitem3|+")
        #expect(try Self.query(schema, #"SELECT "id" || '|' || "checksum" || '|' || "modelVersion" || '|' || "status" FROM "strata_hooks" ORDER BY "id""#)
                == "copy-codes|\(SHA256.hex("copy-codes\n1"))|1|applied\nmark-notes|\(SHA256.hex("mark-notes\n1"))|2|applied")
        for _ in 0..<2 { #expect(try StagesCLITests.run(["migrate", "--store", url], in: dir).status == 0) }
        #expect(try Self.query(schema, #"SELECT count(*) FROM "Item" WHERE "note" LIKE '%++'"#) == "0")
        #expect(try StagesCLITests.run(["status", "--check", "--store", url], in: dir).status == 0)

        // The same stages on SQLite leave the same rows and report the same hooks.
        let (sqliteDir, store) = try StageProject.make(hooks: StagesCLITests.declarations)
        let s = try StagesCLITests.run(["migrate", "--store", "app.sqlite", "--now", "2026-01-01T00:00:00Z"], in: sqliteDir)
        #expect(s.status == 0, "\(s.stderr)")
        let sqliteRows = try E2E.rows(store, #"SELECT "_pk", "name", coalesce("note", '-') FROM "Item" ORDER BY "_pk""#)
        let postgresRows = try Self.query(schema, #"SELECT "_pk" || '|' || "name" || '|' || coalesce("note", '-') FROM "Item" ORDER BY "_pk""#)
        #expect(sqliteRows.joined(separator: "\n") == postgresRows)
        func hookLines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("hook ") } }
        #expect(hookLines(s.stdout) == hookLines(r.stdout) && hookLines(r.stdout).count == 2, "\(s.stdout)\n\(r.stdout)")
    }

    @Test func aStageThatThrowsRollsItsStepBackWithExitOne() throws {
        var hooks = StagesCLITests.declarations
        hooks["boom.yaml"] = "id: boom\nafter: 2\nswift: true\nrevision: \"1\"\n"
        let (dir, url, schema) = try Self.make(hooks: hooks)
        let r = try StagesCLITests.run(["migrate", "--store", url], in: dir, stages: "boom")
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: Swift stage 'boom' threw: the ledger service is unreachable; its step was rolled back"), "\(r.stderr)")
        #expect(try Self.version(schema) == "1")
        #expect(try Self.query(schema, #"SELECT count(*) FROM "Item""#) == "30")
        #expect(try Self.query(schema, #"SELECT count(*) FROM "Item" WHERE "note" IS NOT NULL"#) == "0")
        #expect(try Self.query(schema, #"SELECT count(*) FROM "strata_hooks""#) == "0")
    }

    @Test func aStageDeclaredForSQLiteOnlyIsExitTwoBeforeAnyStep() throws {
        var hooks = StagesCLITests.declarations
        hooks["mark-notes.yaml"] = StageProject.markNotes + "engines: [sqlite]\n"
        let (dir, url, schema) = try Self.make(hooks: hooks)
        let r = try StagesCLITests.run(["migrate", "--store", url], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: Swift stage 'mark-notes' is declared for sqlite only; this store is PostgreSQL"), "\(r.stderr)")
        #expect(try Self.version(schema) == "1")
        #expect(try Self.query(schema, #"SELECT count(*) FROM "Item" WHERE "note" IS NOT NULL"#) == "0")
        #expect(try Self.query(schema, #"SELECT count(*) FROM "strata_hooks""#) == "0")
    }

    @Test func aStageIsAuditedByItsWritesAndRolledBackOnViolations() throws {
        // `longer`: 45 marks on every Item (1590 maxLength), which mark-notes lists in `writes:`: exit 3, as on SQLite.
        let (dir, url, schema) = try Self.make(hooks: StagesCLITests.declarations)
        let bad = try StagesCLITests.run(["migrate", "--store", url], in: dir, stages: "longer")
        #expect(bad.status == 3, "\(bad.stderr)")
        #expect(bad.stderr.contains("hook 'mark-notes' broke the model's rules (30 violation(s))"), "\(bad.stderr)")
        #expect(try Self.version(schema) == "1")
        #expect(try Self.query(schema, #"SELECT count(*) FROM "strata_hooks""#) == "0")
        let good = try StagesCLITests.run(["migrate", "--store", url], in: dir, stages: "long")
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try Self.query(schema, #"SELECT max(length("note")) FROM "Item""#) == "33")
    }

    @Test func theStockStrataStopsBeforeTheStepWithSeven() throws {
        let (dir, url, schema) = try Self.make(hooks: StagesCLITests.declarations)
        let r = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(r.status == 7, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: Swift stages 'copy-codes', 'mark-notes' declared in migrations/ but not registered in this binary"), "\(r.stderr)")
        #expect(try Self.version(schema) == "1")
        let dry = try StagesCLITests.run(["migrate", "--store", url, "--dry-run"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try Self.version(schema) == "1")
        #expect(try Self.query(schema, #"SELECT count(*) FROM "Item" WHERE "note" IS NOT NULL"#) == "0")
    }
}

extension PostgresStagesCLITests {
    /// A stage of batch requests and fetches (Tests/StagesFixture, `batch`): `tidy-items`.
    static let tidyItems = "id: tidy-items\nafter: 2\nswift: true\nrevision: \"1\"\n"

    @Test func batchRequestsAndFetchesFromAStageRunOnPostgreSQLAsOnSQLite() throws {
        var hooks = StagesCLITests.declarations
        hooks["tidy-items.yaml"] = Self.tidyItems
        let (dir, url, schema) = try Self.make(hooks: hooks)
        let r = try StagesCLITests.run(["migrate", "--store", url, "--format", "json"], in: dir, stages: "batch")
        #expect(r.status == 0, "\(r.stderr)")
        let (sqliteDir, store) = try StageProject.make(hooks: hooks)
        let s = try StagesCLITests.run(["migrate", "--store", "app.sqlite", "--format", "json"], in: sqliteDir, stages: "batch")
        #expect(s.status == 0, "\(s.stderr)")
        // 30 counts set, item30 deleted; the rows the requests changed are audited as touched rows, not as SQL writes.
        let sqliteRows = try E2E.rows(store, #"SELECT "_pk", "name", "count", coalesce("note", '-') FROM "Item" ORDER BY "_pk""#)
        let postgresRows = try Self.query(schema, #"SELECT "_pk" || '|' || "name" || '|' || "count" || '|' || coalesce("note", '-') FROM "Item" ORDER BY "_pk""#)
        #expect(sqliteRows.count == 29 && sqliteRows.joined(separator: "\n") == postgresRows)
        func tidy(_ text: String) throws -> [String] {
            let hooks = (try CLI.json(text)["migration"] as? [String: Any])?["hooks"] as? [[String: Any]] ?? []
            return hooks.filter { $0["id"] as? String == "tidy-items" }.flatMap { hook in
                ["rows=\(hook["rowsAffected"] ?? "")"] + ((hook["steps"] as? [[String: Any]]) ?? []).map { "\($0["kind"] ?? "") [\($0["entity"] ?? "")]" }
            }
        }
        #expect(try tidy(r.stdout) == ["rows=31", "swift [Item]"], "\(r.stdout)")   // Item: its SQL wrote item1's note
        #expect(try Self.query(schema, #"SELECT "note" FROM "Item" WHERE "_pk" = 1"#) == "29 dup item1,item2")
        #expect(try tidy(s.stdout) == tidy(r.stdout))
        #expect(try Self.query(schema, #"SELECT "rowsAffected" || ' ' || "status" FROM "strata_hooks" WHERE "id" = 'tidy-items'"#) == "31 applied")
    }
}

extension PostgresStagesCLITests {
    @Test func aStageRunningWhatSQLStepsMayNotIsExitOneOnBothEngines() throws {
        var hooks = StagesCLITests.declarations
        hooks["sneaky.yaml"] = "id: sneaky\nafter: 2\nswift: true\nrevision: \"1\"\n"
        let (dir, url, schema) = try Self.make(hooks: hooks)
        let (sqliteDir, store) = try StageProject.make(hooks: hooks)
        let pg = try StagesCLITests.run(["migrate", "--store", url], in: dir, stages: "sneaky")
        #expect(pg.status == 1)
        #expect(pg.stderr.contains("error: Swift stage 'sneaky' threw: refused: SET (a session setting); its step was rolled back"), "\(pg.stderr)")
        let sqlite = try StagesCLITests.run(["migrate", "--store", "app.sqlite"], in: sqliteDir, stages: "sneaky")
        #expect(sqlite.status == 1)
        #expect(sqlite.stderr.contains("error: Swift stage 'sneaky' threw: refused: "), "\(sqlite.stderr)")
        let broken = try StagesCLITests.run(["migrate", "--store", url], in: dir, stages: "broken")
        #expect(broken.status == 1)
        #expect(broken.stderr.contains(#"error: Swift stage 'sneaky' threw: PostgreSQL: column "nope" of relation "Item" does not exist (SQLSTATE 42703)"#), "\(broken.stderr)")
        #expect(try Self.version(schema) == "1" && StageProject.version(store) == "1")
        #expect(try Self.query(schema, #"SELECT count(*) FROM "Item" WHERE "note" IS NOT NULL"#) == "0")
        #expect(try Self.query(schema, #"SELECT count(*) FROM "strata_hooks""#) == "0")
    }
}

extension PostgresStagesCLITests {
    static let namedArgs = "id: named-args\nafter: 2\nswift: true\nrevision: \"1\"\n"

    /// GRDB's named arguments (`:name`, `@name`, `$name`) in a stage's execute and fetch: the same rows on both
    /// engines; names inside quotes, comments and a dollar quote are text, `::integer` a cast.
    @Test func namedArgumentsInAStageGiveTheSameRowsOnBothEngines() throws {
        var hooks = StagesCLITests.declarations
        hooks["named-args.yaml"] = Self.namedArgs
        let (dir, url, schema) = try Self.make(hooks: hooks)
        let pg = try StagesCLITests.run(["migrate", "--store", url], in: dir, stages: "named")
        #expect(pg.status == 0, "\(pg.stderr)")
        let (sqliteDir, store) = try StageProject.make(hooks: hooks)
        let sqlite = try StagesCLITests.run(["migrate", "--store", "app.sqlite"], in: sqliteDir, stages: "named")
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        let sqliteRows = try E2E.rows(store, #"SELECT "_pk", "name", "count", coalesce("note", '-') FROM "Item" ORDER BY "_pk""#)
        let postgresRows = try Self.query(schema, #"SELECT "_pk" || '|' || "name" || '|' || "count" || '|' || coalesce("note", '-') FROM "Item" ORDER BY "_pk""#)
        #expect(sqliteRows.joined(separator: "\n") == postgresRows)
        // named-args ran after mark-notes (its + on the other notes); item30's note holds what its fetch counted.
        #expect(Array(sqliteRows.prefix(4)) == ["1|item1|3|L:label @labelL", "2|item2|3|L:label @labelL", "3|item3|3|L:label @labelL",
                                                 "4|item4|0|C4+"], "\(sqliteRows)")
        #expect(sqliteRows.last == "30|item30|0|3 found")
    }

    /// A name the arguments lack: GRDB's error on both engines, word for word; the step rolled back.
    @Test func aMissingNamedArgumentIsTheSameErrorOnBothEngines() throws {
        var hooks = StagesCLITests.declarations
        hooks["named-args.yaml"] = Self.namedArgs
        let (dir, url, schema) = try Self.make(hooks: hooks)
        let pg = try StagesCLITests.run(["migrate", "--store", url], in: dir, stages: "named-missing")
        let (sqliteDir, store) = try StageProject.make(hooks: hooks)
        let sqlite = try StagesCLITests.run(["migrate", "--store", "app.sqlite"], in: sqliteDir, stages: "named-missing")
        #expect(pg.status == 1 && sqlite.status == 1, "\(pg.stderr)\(sqlite.stderr)")
        #expect(sqlite.stderr.contains("error: Swift stage 'named-args' threw: SQLite error 21: missing statement argument: nope"), "\(sqlite.stderr)")
        #expect(pg.stderr == sqlite.stderr.replacingOccurrences(of: "app.sqlite", with: url))
        #expect(try Self.version(schema) == "1" && StageProject.version(store) == "1")
        #expect(try Self.query(schema, #"SELECT count(*) FROM "Item" WHERE "note" IS NOT NULL"#) == "0")
    }
}
