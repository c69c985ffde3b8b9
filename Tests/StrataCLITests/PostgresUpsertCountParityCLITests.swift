import Foundation
import StrataTestSupport
import Testing

/// `batchInsert` with `from:` and `onConflict: update` into tables with one uniqueness constraint, where several
/// source rows share a key, run by the `strata` binary on SQLite and PostgreSQL without `resultType: objectIDs`
/// (the report's counts only): an existing row n source rows updated counts n updates on both engines, under its
/// own entity in a hierarchy table; a row the insert made counts no update.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresUpsertCountParityCLITests {
    static let entities = """
        entities:
        \(UpsertFixture.oneConstraintEntity)
        \(UpsertFixture.sourceEntity)
        \(UpsertFixture.oneConstraintHierarchy)
        """
    static let v3 = entities.replacingOccurrences(of: "v: { type: string }", with: "v: { type: string }\n      note: { type: string }")

    @Test func sourceRowsSharingAKeyCountOneUpdateEachAsOnSQLite() throws {
        let seed = """
            id: seed
            after: 2
            steps:
              - batchInsert: { entity: K, objects: [ { k: k1, v: A }, { k: k2, v: B } ] }
              - batchInsert: { entity: H, objects: [ { code: c1, note: h } ] }
              - batchInsert: { entity: HQ, objects: [ { code: c2, note: q } ] }
              - batchInsert:
                  entity: S
                  objects: [ { sa: k1, sb: x }, { sa: k1, sb: y }, { sa: k2, sb: z }, { sa: k2, sb: w }, { sa: k2, sb: v },
                             { sa: k3, sb: u }, { sa: k3, sb: t }, { sb: "null key" } ]
              - batchInsert: { entity: S, objects: [ { sa: c1, sb: n1 }, { sa: c1, sb: n2 }, { sa: c2, sb: m1 }, { sa: c3, sb: o1 } ] }
            """
        let work = """
            id: work
            after: 3
            steps:
              - batchInsert:
                  entity: K
                  from: { entity: S, predicate: "sa == nil OR sa BEGINSWITH 'k'" }
                  values: { k: "sa", v: "sb" }
                  onConflict: update
              - batchInsert:
                  entity: HQ
                  from: { entity: S, predicate: "sa BEGINSWITH 'c'" }
                  values: { code: "sa", note: "sb" }
                  onConflict: update
            """
        let run = try EngineParity.run(v2: Self.entities, v3: Self.v3, files: ["seed.yaml": seed, "work.yaml": work],
                                       arguments: ["--format", "json"])
        #expect(run.sqlite.status == 0, "\(run.sqlite.stderr)")
        #expect(run.postgres.status == 0, "\(run.postgres.stderr)")
        #expect(try PostgresHookParityCLITests.stepCounts(run.sqlite.stdout) == ["seed: 2, 1, 1, 8, 4", "work: 2, 1"])
        #expect(try PostgresMigrateReportCLITests.comparable(run.samePostgresOutput) == PostgresMigrateReportCLITests.comparable(run.sameSQLiteOutput))
        // k1's row: 2 updates, k2's: 3; k3 and the NULL key are new rows. H's c1: 2 (under H), HQ's c2: 1.
        #expect(run.sqlite.stdout.contains(#""K" : 5"#), "\(run.sqlite.stdout)")
        #expect(run.sqlite.stdout.contains(#""H" : 2"#), "\(run.sqlite.stdout)")
        let k = try run.rows(#"SELECT "_pk" || ' ' || coalesce("k", '-') || ' ' || "v" FROM "K" ORDER BY "_pk""#)
        #expect(k.sqlite == ["1 k1 y", "2 k2 v", "8 k3 t", "10 - null key"])
        #expect(k.postgres == k.sqlite)
    }
}
