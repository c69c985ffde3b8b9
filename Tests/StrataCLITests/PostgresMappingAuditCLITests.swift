import Foundation
import GRDB
import StrataTestSupport
import Testing

/// The audit of a mapping step on both engines (SPEC §11.3, §11.4 step 3): the destination entities the file
/// names, in full, against the new version's rules, inside the step's transaction; `onViolation: rollback`
/// is exit 3 with the step rolled back, `warn` commits with a warning. Skipped (and said so) without PostgreSQL.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMappingAuditCLITests {
    /// v2 caps `pages` at 20: the mapping's `coalesce(pages, 0) + 1` gives b4 41.
    static let v2 = AuthorBookMapping.v2.replacingOccurrences(of: "pages: { type: int64 }", with: "pages: { type: int64, max: 20 }")

    /// The same v1 rows in an SQLite store and a PostgreSQL schema, and the mapping file `mapping`.
    static func stores(mapping: String, name: String) throws -> (dir: String, store: String, url: String, schema: String) {
        let (dir, store) = try MappingProject.project(v1: AuthorBookMapping.v1, v2: Self.v2, files: ["v2.yaml": mapping], name: name)
        let queue = try DatabaseQueue(path: store)
        try queue.write { try $0.execute(sql: AuthorBookMapping.rows) }
        try queue.close()
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        _ = try PostgresTestServer.psql("""
            SET search_path TO "\(schema)";
            INSERT INTO "Author" ("name", "kind") VALUES ('Ann', 'person'), ('Acme', 'company'), ('Bob', 'person');
            INSERT INTO "Book" ("title", "pages", "deleted", "author") VALUES
              ('b1', 10, false, 1), ('b2', NULL, false, 2), ('b3', 30, true, 3), ('b4', 40, false, NULL);
            """)
        return (dir, store, url, schema)
    }

    /// `text` with each store's UUID written `UUID`.
    static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: #"x-strata://[0-9a-f-]{36}/"#, with: "x-strata://UUID/", options: .regularExpression)
    }

    @Test func aMappingBreakingTheNewRulesRollsBackAlikeOnBothEngines() throws {
        let (dir, store, url, schema) = try Self.stores(mapping: AuthorBookMapping.mapping, name: "pgmapaudit-rollback")
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        let postgres = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(sqlite.status == 3 && postgres.status == 3, "\(sqlite.stderr)\n\(postgres.stderr)")
        #expect(postgres.stderr.contains("""
            migrations/v2.yaml:1:1: error: v1 → v2: the mapping broke v2's rules (1 violation(s)); the step was rolled back
            """), "\(postgres.stderr)")
        #expect(Self.plain(postgres.stderr).contains("x-strata://UUID/Book/p4 = 41"), "\(postgres.stderr)")
        #expect(Self.plain(postgres.stderr) == Self.plain(sqlite.stderr))
        #expect(try E2E.rows(store, #"SELECT "value" FROM "strata_metadata" WHERE "key" = 'strata.version'"#) == ["1"])
        #expect(try PostgresTestServer.psql(#"SELECT "value" FROM "\#(schema)"."strata_metadata" WHERE "key" = 'strata.version'"#) == "1")
        #expect(try PostgresTestServer.psql(#"SELECT string_agg(CAST("pages" AS text), ',' ORDER BY "_pk") FROM "\#(schema)"."Book""#)
                    == "10,30,40")
    }

    @Test func underWarnTheStepCommitsAndTheReportSaysSoAlike() throws {
        let (dir, store, url, schema) = try Self.stores(mapping: AuthorBookMapping.mapping + "\nonViolation: warn\n", name: "pgmapaudit-warn")
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        let postgres = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(sqlite.status == 0 && postgres.status == 0, "\(sqlite.stderr)\n\(postgres.stderr)")
        for run in [sqlite, postgres] {
            #expect(run.stdout.contains("mapping migrations/v2.yaml broke v2's rules (1 violation(s)); committed (onViolation: warn)"),
                    "\(run.stdout)")
        }
        #expect(try E2E.rows(store, #"SELECT "pages" FROM "Book" ORDER BY "_pk""#) == ["11", "1", "41"])
        #expect(try PostgresTestServer.psql(#"SELECT string_agg(CAST("pages" AS text), ',' ORDER BY "_pk") FROM "\#(schema)"."Book""#)
                    == "11,1,41")
        #expect(try CLI.run(["migrate", "--store", url, "--audit", "none"], in: dir).status == 0)
    }

    /// The `warn` warning is the step's: in its block on stdout (before its SQL count) and in its JSON, never on
    /// stderr, on both engines. PostgreSQL printed it after the report, on stderr (in JSON too).
    @Test func underWarnTheWarningIsInTheStepsBlockOnBothEngines() throws {
        let (dir, _, url, _) = try Self.stores(mapping: AuthorBookMapping.mapping + "\nonViolation: warn\n", name: "pgmapaudit-warnblock")
        let warning = "  warning: mapping migrations/v2.yaml broke v2's rules (1 violation(s)); committed (onViolation: warn)"
        for store in ["app.sqlite", url] {
            let text = try CLI.run(["migrate", "--store", store, "--dry-run"], in: dir)
            #expect(text.status == 0 && text.stderr.isEmpty, "\(store): \(text.stderr)")
            let lines = text.stdout.components(separatedBy: "\n")
            let at = lines.firstIndex(of: warning)
            #expect(at != nil, "\(store): \(text.stdout)")
            if let at { #expect(lines[at + 1].hasPrefix("  ") && lines[at + 1].contains("SQL statement"), "\(store): \(text.stdout)") }
            let json = try CLI.run(["migrate", "--store", store, "--dry-run", "--format", "json"], in: dir)
            #expect(json.status == 0 && json.stderr.isEmpty, "\(store): \(json.stderr)")
            #expect(json.stdout.contains("broke v2's rules (1 violation(s)); committed (onViolation: warn)"), "\(store): \(json.stdout)")
        }
    }
}
