import Foundation
import StrataTestSupport
import Testing

/// `batchInsert` with `from:` and `onConflict: update` into tables with several uniqueness constraints, run by the
/// `strata` binary on SQLite and PostgreSQL: SQLite takes the source rows one by one in `_pk` order (each sees what
/// the rows before it wrote), PostgreSQL replays that on the server; the same rows, keys, counts, object IDs, audit
/// and report, and the same failures.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresUpsertFromParityCLITests {
    static let entities = """
        entities:
        \(UpsertFixture.twoConstraintEntity)
        \(UpsertFixture.sourceEntity)
        """
    static let v3 = entities.replacingOccurrences(of: "c: { type: string }", with: "c: { type: string }\n      note: { type: string }")

    /// T's rows 1 (a1 b1) and 2 (a2 b2), and S's rows (sa, sb, sc) in `_pk` order.
    static func seed(_ sources: [String]) -> String {
        """
        id: seed
        after: 2
        steps:
          - batchInsert: { entity: T, objects: [ { a: a1, b: b1, c: A }, { a: a2, b: b2, c: B } ] }
          - batchInsert: { entity: S, objects: [ \(sources.joined(separator: ", ")) ] }
        """
    }

    static let upsert = """
        id: work
        after: 3
        steps:
          - batchInsert:
              entity: T
              from: { entity: S }
              values: { a: "sa", b: "sb", c: "sc" }
              onConflict: update
              resultType: objectIDs
          - batchInsert: { entity: T, objects: [ { a: n, b: n, c: n } ] }
        """

    static let rows = #"SELECT "_pk" || ' ' || coalesce("a", '-') || ' ' || coalesce("b", '-') || ' ' || coalesce("c", '-') FROM "T" ORDER BY "_pk""#

    @Test func sourceRowsUpsertOneByOneInSourceOrderAsOnSQLite() throws {
        let seed = Self.seed([
            "{ sa: a9, sb: b2, sc: x }",   // b only: row 2 (the second constraint)
            "{ sa: a3, sb: b3, sc: y }",   // new: 4
            "{ sa: a4, sb: b3, sc: z }",   // b: the row the source row before made (its a becomes a4)
            "{ sa: a4, sb: b5, sc: w }",   // a: that row again, through the first constraint
            "{ sa: a1, sb: b6, sc: v }",   // a: row 1 (its b becomes b6)
            "{ sa: a7, sb: b1, sc: u }",   // new: b1 is free since row 1 moved to b6; 8
        ])
        let run = try EngineParity.run(v2: Self.entities, v3: Self.v3, files: ["seed.yaml": seed, "work.yaml": Self.upsert],
                                       arguments: ["--format", "json", "--audit", "touched"])
        #expect(run.sqlite.status == 0, "\(run.sqlite.stderr)")
        #expect(run.postgres.status == 0, "\(run.postgres.stderr)")
        #expect(try PostgresHookParityCLITests.stepCounts(run.sqlite.stdout) == ["seed: 2, 6", "work: 2, 1"])
        #expect(try PostgresMigrateReportCLITests.comparable(run.samePostgresOutput) == PostgresMigrateReportCLITests.comparable(run.sameSQLiteOutput))
        let t = try run.rows(Self.rows)
        // Every source row spends a key, as SQLite's AUTOINCREMENT: 3…8 (new: 4 and 8), then the literal row 9.
        #expect(t.sqlite == ["1 a1 b6 v", "2 a9 b2 x", "4 a4 b5 w", "8 a7 b1 u", "9 n n n"])
        #expect(t.postgres == t.sqlite)
    }

    @Test func aSourceRowMovingAKeyOntoARowAnEarlierOneMadeBreaksUniquenessOnBothEngines() throws {
        let seed = Self.seed(["{ sa: a5, sb: b5, sc: new }", "{ sa: a1, sb: b5, sc: clash }"])
        let run = try EngineParity.run(v2: Self.entities, v3: Self.v3, files: ["seed.yaml": seed, "work.yaml": Self.upsert])
        // The second source row takes a1's row (the first clause), whose b = b5 then collides with the row the first
        // source row made: 1551, exit 3, rolled back.
        #expect(run.sqlite.status == 3, "\(run.sqlite.stdout)\(run.sqlite.stderr)")
        #expect(run.postgres.status == 3, "\(run.postgres.stdout)\(run.postgres.stderr)")
        #expect(run.sqlite.stderr.contains("1551") && run.postgres.stderr.contains("1551"), "\(run.sqlite.stderr)\(run.postgres.stderr)")
        let versions = try run.versions()
        #expect(versions.sqlite == "2" && versions.postgres == "2")
        #expect(run.sqlite.stderr.contains("hook 'work' step 1: the batch would break a uniqueness constraint: UNIQUE constraint failed: T.b (1551)"),
                "\(run.sqlite.stderr)")
        #expect(EngineParity.untimed(run.postgres.stderr) == run.sameSQLiteErrors)
        let t = try run.rows(Self.rows)
        #expect(t.sqlite == ["1 a1 b1 A", "2 a2 b2 B"])
        #expect(t.postgres == t.sqlite)
    }

    /// An existing row a source row updates is audited as on SQLite (`--audit touched`): a value breaking a rule
    /// there is exit 3 with the same report, rolled back, on both engines.
    @Test func anUpdatedRowIsAuditedAsOnSQLite() throws {
        let v3 = Self.v3.replacingOccurrences(of: "c: { type: string }", with: "c: { type: string, maxLength: 3 }")
        let seed = Self.seed(["{ sa: a3, sb: b3, sc: ok }", "{ sa: a9, sb: b2, sc: toolong }"])
        let run = try EngineParity.run(v2: Self.entities, v3: v3, files: ["seed.yaml": seed, "work.yaml": Self.upsert],
                                       arguments: ["--audit", "touched"])
        #expect(run.sqlite.status == 3, "\(run.sqlite.stdout)\(run.sqlite.stderr)")
        #expect(run.postgres.status == 3, "\(run.postgres.stdout)\(run.postgres.stderr)")
        #expect(run.samePostgresOutput == run.sameSQLiteOutput)
        #expect(EngineParity.untimed(run.postgres.stderr) == run.sameSQLiteErrors)
        // Only the rows the step recorded as touched are audited: the row it updated (2) is among them.
        #expect(run.sqlite.stderr.contains("1660 T.c maxLength: 1"), "\(run.sqlite.stderr)")
        #expect(try run.versions().postgres == "2")
    }

    /// Tables and columns named like SQL keywords, quoted wherever they are written (the work table, the block).
    @Test func keywordNamedTablesAndColumnsUpsertAsOnSQLite() throws {
        let entities = """
            entities:
              Order:
                attributes:
                  select: { type: string }
                  from: { type: string }
                  where: { type: string }
                uniqueness: [[select], [from]]
              Group:
                attributes:
                  by: { type: string }
                  to: { type: string }
                  end: { type: string }
            """
        let seed = """
            id: seed
            after: 2
            steps:
              - batchInsert: { entity: Order, objects: [ { select: s1, from: f1, where: A }, { select: s2, from: f2, where: B } ] }
              - batchInsert: { entity: Group, objects: [ { by: s9, to: f2, end: x }, { by: s3, to: f3, end: y }, { by: s4, to: f3, end: z } ] }
            """
        let work = """
            id: work
            after: 3
            steps:
              - batchInsert:
                  entity: Order
                  from: { entity: Group, predicate: "end != 'none'" }
                  values: { select: "by", from: "to", where: "end" }
                  onConflict: update
                  resultType: objectIDs
            """
        let v3 = entities.replacingOccurrences(of: "end: { type: string }", with: "end: { type: string }\n      limit: { type: string }")
        let run = try EngineParity.run(v2: entities, v3: v3, files: ["seed.yaml": seed, "work.yaml": work], arguments: ["--format", "json"])
        #expect(run.sqlite.status == 0, "\(run.sqlite.stderr)")
        #expect(run.postgres.status == 0, "\(run.postgres.stderr)")
        #expect(try PostgresMigrateReportCLITests.comparable(run.samePostgresOutput) == PostgresMigrateReportCLITests.comparable(run.sameSQLiteOutput))
        let query = #"""
            SELECT "_pk" || ' ' || "select" || ' ' || "from" || ' ' || "where" FROM "Order" ORDER BY "_pk"
            """#
        let (sqlite, postgres) = try run.rows(query)
        // f2: row 2 (its select becomes s9); s3 f3: new (4); s4 f3: that new row, through "from".
        #expect(sqlite == ["1 s1 f1 A", "2 s9 f2 x", "4 s4 f3 z"])
        #expect(postgres == sqlite)
    }
}
