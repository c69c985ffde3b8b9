import Foundation
import GRDB
import StrataTestSupport
import Testing

/// `strata migrate` on the bundled example, the same rows in a SQLite store and a PostgreSQL schema at v1:
/// both engines print the same text and JSON (hook lines with their audits, step lines, final line), write the
/// same `--report` and `--changes-out`, give the objects the same IDs and `strata audit` the same reports;
/// a hook breaking a validation rule is exit 3 with the same report on both, or committed under `warn`.
/// Only the store's name, its UUID, timings and the SQL itself (each engine's own statements) differ.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMigrateReportCLITests {
    static let now = "2024-05-21T00:00:00Z"

    /// Two stores of `project` at v1 with the same rows: eight recipes (two untitled drafts never used, one used
    /// 5 days before `now`, one with an empty ingredient name that breaks `minLength`), ingredients for most.
    struct Stores {
        var project: String
        var sqlite: String
        var url: String
        var schema: String
        var sqliteUUID: String
        var uuid: String

        /// `text` with the SQLite store's name and UUID written as the PostgreSQL store's.
        func same(_ text: String) -> String {
            text.replacingOccurrences(of: sqliteUUID, with: uuid).replacingOccurrences(of: sqlite, with: url)
        }

        func psql(_ sql: String) throws -> [String] {
            try PostgresTestServer.psql("SET search_path TO \"\(schema)\";\n" + sql).split(separator: "\n").map(String.init)
                .filter { $0 != "SET" }
        }
    }

    static let day = 86_400.0
    static let seconds = 1_716_249_600.0
    static let recipes: [(name: String, used: Double?, rating: Int)] = [
        ("Untitled", nil, 0), ("Soup", seconds - 5 * day, 4), ("Old stew", seconds - 90 * day, 2), ("Untitled", seconds - 100 * day, 1),
        ("Untitled", nil, 3), ("Salad", seconds - 12 * day, 5), ("Pie", nil, 0), ("Curry", seconds - 29 * day, 3),
    ]
    static let ingredients: [(name: String, recipe: Int)] = [("salt", 1), ("pepper", 1), ("leek", 2), ("", 3), ("egg", 5), ("oil", 6)]

    static func stores(hooks: [String: String] = [:]) throws -> Stores {
        let project = try CLI.exampleProject()
        for (name, text) in hooks { try text.write(toFile: project + "/migrations/" + name, atomically: true, encoding: .utf8) }
        let file = "store.sqlite"
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        for store in [file, url] {
            let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", store], in: project)
            #expect(created.status == 0, "\(created.stderr)")
        }
        let sqliteUUID = try DatabaseQueue(path: project + "/" + file).write { db in
            for r in recipes {
                try db.execute(sql: #"INSERT INTO "Recipe" ("name", "lastUsed", "rating") VALUES (?, ?, ?)"#, arguments: [r.name, r.used, r.rating])
            }
            for i in ingredients {
                try db.execute(sql: #"INSERT INTO "Ingredient" ("name", "recipe") VALUES (?, ?)"#, arguments: [i.name, i.recipe])
            }
            return try String.fetchOne(db, sql: "SELECT value FROM strata_metadata WHERE key = 'strata.uuid'")!
        }
        let values = recipes.map { "('\($0.name)', " + ($0.used.map { "to_timestamp(\($0))" } ?? "NULL") + ", \($0.rating))" }
        _ = try PostgresTestServer.psql(#"INSERT INTO "\#(schema)"."Recipe" ("name", "lastUsed", "rating") VALUES "#
            + values.joined(separator: ", ") + ";" + #"INSERT INTO "\#(schema)"."Ingredient" ("name", "recipe") VALUES "#
            + ingredients.map { "('\($0.name)', \($0.recipe))" }.joined(separator: ", "))
        let uuid = try PostgresTestServer.psql("SELECT value FROM \"\(schema)\".strata_metadata WHERE key = 'strata.uuid'")
        return Stores(project: project, sqlite: file, url: url, schema: schema, sqliteUUID: sqliteUUID, uuid: uuid)
    }

    /// A text report without what differs by nature: a step's timing (`12 ms`, `1.20 s`) and how many SQL
    /// statements each engine runs for it.
    static func untimed(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9]+ SQL statements?(, [0-9.]+ m?s)?"#, with: "N SQL statements", options: .regularExpression)
    }

    /// A JSON report without durations and the steps' SQL (each engine's own), as sorted JSON text.
    static func comparable(_ json: String) throws -> String {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                var result: [String: Any] = [:]
                for (key, value) in object where key != "duration" && key != "sql" { result[key] = strip(value) }
                return result
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let data = try JSONSerialization.data(withJSONObject: strip(object), options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theExampleMigratesAndReportsTheSameOnBothEngines() throws {
        let s = try Self.stores()
        let run = { (store: String, extra: [String]) in try CLI.run(["migrate", "--store", store, "--now", Self.now] + extra, in: s.project) }

        // A dry run's JSON: the same document, nothing written.
        let dryPG = try run(s.url, ["--dry-run", "--format", "json"]), drySQLite = try run(s.sqlite, ["--dry-run", "--format", "json"])
        #expect(dryPG.status == 0 && drySQLite.status == 0, "\(dryPG.stderr)\(drySQLite.stderr)")
        #expect(try Self.comparable(dryPG.stdout) == Self.comparable(s.same(drySQLite.stdout)))
        #expect(try s.psql(#"SELECT value FROM strata_metadata WHERE key = 'strata.version'"#) == ["1"])

        let pg = try run(s.url, ["--report", "pg.json", "--report-format", "json", "--changes-out", "pg-changes.json"])
        let sqlite = try run(s.sqlite, ["--report", "sqlite.json", "--report-format", "json", "--changes-out", "sqlite-changes.json"])
        #expect(pg.status == 0 && sqlite.status == 0, "\(pg.stderr)\(sqlite.stderr)")
        #expect(Self.untimed(pg.stdout) == Self.untimed(s.same(sqlite.stdout)))
        #expect(Self.untimed(pg.stdout) == """
            Migration: store \(s.url) at v1 → v4 ($NOW = 2024-05-21T00:00:00Z)

            v1 → v2: create Chef, alter Recipe
              addEntity Chef: new entity
              addAttribute Chef.name: new string
              addAttribute Chef.email: new string
              addRelationship Chef.recipes: new to-many to Recipe
              addRelationship Recipe.author: new to-one to Chef
              create Chef: new table
              alter Recipe: column author added; index strata_fk_Recipe_author created
              N SQL statements

            v2 → v3: alter Recipe
              addIndex Recipe.lastUsed: indexed
              renameAttribute Recipe.portions: renamed from servings
              addAttribute Recipe.notes: new string
              alter Recipe: column servings renamed to portions; column notes added; index strata_idx_Recipe_lastUsed created
              N SQL statements

            hook purge-abandoned-drafts (after v3): batchDelete Recipe: 2 objects; audit: 0 violations

            v3 → v4: alter Recipe
              addAttribute Recipe.favorite: new bool, existing objects get the default 0
              addIndex Recipe: index (favorite, lastUsed)
              alter Recipe: column favorite added; index strata_idx_Recipe_favorite_lastUsed created
              N SQL statements

            hook favorite-recent-recipes (after v4): batchUpdate Recipe: 3 objects; audit: 0 violations

            Changed objects:
              Ingredient: 3 deleted
              Recipe: 3 updated, 2 deleted

            """, "\(pg.stdout)")
        let read = { (name: String) in try String(contentsOfFile: s.project + "/" + name, encoding: .utf8) }
        #expect(try Self.comparable(read("pg.json")) == Self.comparable(s.same(read("sqlite.json"))))
        #expect(try read("pg-changes.json") == s.same(read("sqlite-changes.json")))
        #expect(try read("pg-changes.json").contains("x-strata://\(s.uuid)/Recipe/p2"))

        // The same objects under the same IDs.
        let sqliteRows = try E2E.rows(s.project + "/" + s.sqlite, #"""
            SELECT "_pk" || ' ' || "name" || ' ' || CASE "favorite" WHEN 1 THEN 'true' ELSE 'false' END FROM "Recipe" ORDER BY "_pk"
            """#)
        #expect(try s.psql(#"SELECT "_pk" || ' ' || "name" || ' ' || "favorite" FROM "Recipe" ORDER BY "_pk""#) == sqliteRows)
        #expect(sqliteRows == ["2 Soup true", "3 Old stew false", "4 Untitled false", "6 Salad true", "7 Pie false", "8 Curry true"])
        let ingredients = #"SELECT "_pk" || ' ' || "name" FROM "Ingredient" ORDER BY "_pk""#
        #expect(try s.psql(ingredients) == E2E.rows(s.project + "/" + s.sqlite, ingredients))

        // `strata audit` afterwards: the empty ingredient name on both, in every format.
        for format in ["text", "json", "junit", "markdown", "html"] {
            let onPG = try CLI.run(["audit", "--store", s.url, "--report-format", format], in: s.project)
            let onSQLite = try CLI.run(["audit", "--store", s.sqlite, "--report-format", format], in: s.project)
            #expect(onPG.status == 3 && onSQLite.status == 3, "\(format): \(onPG.stderr)")
            let untimed = { (text: String) in text.replacingOccurrences(of: #" time="[0-9.]+""#, with: "", options: .regularExpression) }
            #expect(untimed(onPG.stdout) == untimed(s.same(onSQLite.stdout)), "\(format)")
            #expect(onPG.stdout.contains("Ingredient/p4"), "\(format)")
        }
    }

    /// A hook that sets a rating above the model's maximum: under `onViolation: rollback`, exit 3 and the store
    /// stays at v3 on both engines, with the same report; under `warn`, exit 0 and the ratings committed.
    static func ratingHook(_ policy: String) -> String {
        """
        id: overrate-soup
        after: 4
        steps:
          - batchUpdate:
              entity: Recipe
              predicate: "name == 'Soup'"
              propertiesToUpdate: { rating: 9 }
        onViolation: \(policy)

        """
    }

    @Test func aHookBreakingARuleRollsBackWithTheSameReport() throws {
        let s = try Self.stores(hooks: ["overrate-soup.yaml": Self.ratingHook("rollback")])
        let args = ["--now", Self.now, "--report", "r.json", "--report-format", "json"]
        let pg = try CLI.run(["migrate", "--store", s.url] + args, in: s.project)
        let pgReport = try String(contentsOfFile: s.project + "/r.json", encoding: .utf8)
        let sqlite = try CLI.run(["migrate", "--store", s.sqlite] + args, in: s.project)
        let sqliteReport = try String(contentsOfFile: s.project + "/r.json", encoding: .utf8)
        #expect(pg.status == 3 && sqlite.status == 3, "\(pg.stderr)\(sqlite.stderr)")
        #expect(Self.untimed(pg.stdout) == Self.untimed(s.same(sqlite.stdout)))
        #expect(pg.stderr == s.same(sqlite.stderr))
        #expect(try Self.comparable(pgReport) == Self.comparable(s.same(sqliteReport)))
        #expect(pg.stdout.contains("""
            hook overrate-soup (after v4): batchUpdate Recipe: 1 object; audit: 1 violation; rolled back with its version step
              Recipe
                rating max 5: 1 violation [1610 number too large]
                  x-strata://\(s.uuid)/Recipe/p2 = "9"

            """), "\(pg.stdout)")
        #expect(pg.stdout.hasPrefix("Migration: store \(s.url) at v1 → v4, stopped at v3 ($NOW = 2024-05-21T00:00:00Z)\n"))
        #expect(pg.stderr.contains("hook 'overrate-soup' broke the model's rules (1 violation(s))"), "\(pg.stderr)")
        #expect(try s.psql(#"SELECT value FROM strata_metadata WHERE key = 'strata.version'"#) == ["3"])
        #expect(try E2E.rows(s.project + "/" + s.sqlite, #"SELECT value FROM strata_metadata WHERE key = 'strata.version'"#) == ["3"])
        #expect(try s.psql(#"SELECT "rating" FROM "Recipe" WHERE "name" = 'Soup'"#) == ["4"])

        // The same hook under `warn`: committed, reported, exit 0.
        try Self.ratingHook("warn").write(toFile: s.project + "/migrations/overrate-soup.yaml", atomically: true, encoding: .utf8)
        let pgWarn = try CLI.run(["migrate", "--store", s.url, "--now", Self.now], in: s.project)
        let sqliteWarn = try CLI.run(["migrate", "--store", s.sqlite, "--now", Self.now], in: s.project)
        #expect(pgWarn.status == 0 && sqliteWarn.status == 0, "\(pgWarn.stderr)\(sqliteWarn.stderr)")
        #expect(Self.untimed(pgWarn.stdout) == Self.untimed(s.same(sqliteWarn.stdout)))
        #expect(pgWarn.stderr == s.same(sqliteWarn.stderr))
        #expect(pgWarn.stdout.contains("audit: 1 violation; warned (onViolation: warn)"), "\(pgWarn.stdout)")
        #expect(try s.psql(#"SELECT value FROM strata_metadata WHERE key = 'strata.version'"#) == ["4"])
        #expect(try s.psql(#"SELECT "rating" FROM "Recipe" WHERE "name" = 'Soup'"#) == ["9"])
    }

    /// `--audit full` and `--audit none` on both engines, in dry runs (which audit too): the same text and exit
    /// code. `full` finds the empty ingredient name no hook touched, so the first hook rolls back (exit 3).
    @Test(arguments: [("full", Int32(3), "audit: 1 violation; rolled back with its version step"), ("none", Int32(0), "audit: not audited")])
    func theAuditModesReportTheSameOnBothEngines(_ mode: String, _ status: Int32, _ line: String) throws {
        let s = try Self.stores()
        let args = ["migrate", "--dry-run", "--now", Self.now, "--audit", mode, "--store"]
        let pg = try CLI.run(args + [s.url], in: s.project), sqlite = try CLI.run(args + [s.sqlite], in: s.project)
        #expect(pg.status == status && sqlite.status == status, "\(pg.stderr)\(sqlite.stderr)")
        #expect(Self.untimed(pg.stdout) == Self.untimed(s.same(sqlite.stdout)))
        #expect(pg.stderr == s.same(sqlite.stderr))
        #expect(pg.stdout.contains("hook purge-abandoned-drafts (after v3): batchDelete Recipe: 2 objects; \(line)\n"), "\(pg.stdout)")
        #expect(pg.stdout.hasPrefix("Dry run: store \(s.url) at v1 → v4"), "\(pg.stdout)")
        #expect(try s.psql(#"SELECT value FROM strata_metadata WHERE key = 'strata.version'"#) == ["1"])
    }
}
