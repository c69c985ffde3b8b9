import Foundation
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// New columns filled with a constant (an attribute's default) on PostgreSQL: `ADD COLUMN … DEFAULT <literal>`
/// then `DROP DEFAULT`, so no row is rewritten, and every existing row reads the value; values without a safe
/// literal (text with a backslash) are bound in an `UPDATE` instead. Skipped (and said so) without PostgreSQL.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresConstantFillTests {
    static let history: [String: String] = [
        "1.yaml": """
            version: 1
            entities:
              Thing:
                attributes:
                  name: { type: string }
            """,
        "2.yaml": """
            version: 2
            entities:
              Thing:
                attributes:
                  name:    { type: string }
                  flag:    { type: bool, default: true, optional: false }
                  title:   { type: string, default: "it's", optional: false }
                  path:    { type: string, default: 'C:\\temp', optional: false }
                  since:   { type: date, default: "2024-05-21T00:00:00Z", optional: false }
                  price:   { type: decimal, default: "12.50", optional: false }
                  small:   { type: int16, default: -3, optional: false }
                  ratio:   { type: double, default: 0.25, optional: false }
            """,
    ]

    @Test func constantsFillEveryRowWithoutADefaultLeftBehind() async throws {
        let models = try ModelHistory.load(yaml: Self.history)
        let plan = try PostgresStepPlannerTests.plan(models, 1, 2)
        #expect(plan.sqlText.filter { $0.hasPrefix("ALTER TABLE \"Thing\" ADD COLUMN") } == [
            #"ALTER TABLE "Thing" ADD COLUMN "flag" boolean DEFAULT (1 <> 0)"#,
            #"ALTER TABLE "Thing" ADD COLUMN "title" text DEFAULT 'it''s'"#,
            #"ALTER TABLE "Thing" ADD COLUMN "path" text"#,
            #"ALTER TABLE "Thing" ADD COLUMN "since" timestamptz DEFAULT to_timestamp(1716249600.0)"#,
            #"ALTER TABLE "Thing" ADD COLUMN "price" numeric DEFAULT CAST('12.5' AS numeric)"#,
            #"ALTER TABLE "Thing" ADD COLUMN "small" smallint DEFAULT CAST(-3 AS smallint)"#,
            #"ALTER TABLE "Thing" ADD COLUMN "ratio" double precision DEFAULT 0.25"#,
        ])
        #expect(plan.sqlText.contains(#"UPDATE "Thing" AS "strata_old" SET "path" = $1"#))

        let (url, schema) = try await PostgresMigrationTests.create(models, at: 1)
        _ = try PostgresStoreTests.psql(#"INSERT INTO "\#(schema)"."Thing" ("name") VALUES ('a'), (NULL)"#)
        _ = try await PostgresMigration.run(url, models: models, hooks: HookSet(hooks: []), options: .init())
        let rows = try PostgresStoreTests.psql(#"""
            SELECT "_pk" || ' ' || "flag" || ' ' || "title" || ' ' || "path" || ' ' || extract(epoch FROM "since")::bigint
              || ' ' || "price" || ' ' || "small" || ' ' || "ratio" FROM "\#(schema)"."Thing" ORDER BY "_pk"
            """#)
        #expect(rows == [#"1 true it's C:\temp 1716249600 12.5 -3 0.25"#, #"2 true it's C:\temp 1716249600 12.5 -3 0.25"#])
        #expect(try PostgresStoreTests.psql("""
            SELECT count(*) FROM information_schema.columns
            WHERE table_schema = '\(schema)' AND table_name = 'Thing' AND column_default IS NOT NULL
            """) == ["0"])
    }
}
