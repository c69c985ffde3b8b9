import Foundation
import StrataTestSupport
import Testing

/// `batchInsert` with `onConflict: update` into tables with several uniqueness constraints, run by the `strata`
/// binary on SQLite and PostgreSQL: the same rows, object IDs, counts and report (SQLite tries one
/// `ON CONFLICT` clause per constraint, in order; PostgreSQL resolves each row's target first).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresUpsertParityCLITests {
    static let entities = """
        entities:
        \(UpsertFixture.twoConstraintEntity)
          U:
            attributes:
              x: { type: string }
              y: { type: int32 }
              z: { type: string }
              w: { type: string }
            uniqueness: [[x, y], [z]]
        """
    static let v3 = entities.replacingOccurrences(of: "c: { type: string }", with: "c: { type: string }\n      note: { type: string }")

    static let seed = """
        id: seed
        after: 2
        steps:
          - batchInsert: { entity: T, objects: [ { a: a1, b: b1, c: A }, { a: a2, b: b2, c: B } ] }
          - batchInsert: { entity: U, objects: [ { x: p, y: 1, z: z1, w: A }, { x: p, y: 2, z: z2, w: B } ] }
        """

    static let rows = [
        #"SELECT "_pk" || ' ' || coalesce("a", '-') || ' ' || coalesce("b", '-') || ' ' || coalesce("c", '-') FROM "T" ORDER BY "_pk""#,
        #"SELECT "_pk" || ' ' || coalesce("x", '-') || ' ' || coalesce("y", 0) || ' ' || coalesce("z", '-') || ' ' || coalesce("w", '-') FROM "U" ORDER BY "_pk""#,
    ]

    @Test func literalRowsUpdateTheRowOfTheFirstConstraintThatMatchesAsOnSQLite() throws {
        let work = """
            id: work
            after: 3
            steps:
              - batchInsert:
                  entity: T
                  objects:
                    - { a: a9, b: b2, c: x }   # b only: row 2
                    - { a: a1, b: b7, c: y }   # a only: row 1 (its b becomes b7)
                    - { a: a3, b: b3, c: z }   # new
                    - { a: a3, b: b1, c: w }   # a: the row just inserted (b1 is free since row 1 moved to b7)
                    - { a: a9, c: n }          # a: row 2; b is not named, so it stays
                  onConflict: update
                  resultType: objectIDs
              - batchInsert:
                  entity: U
                  objects:
                    - { x: p, y: 2, z: z9, w: C }   # (x, y): row 2
                    - { x: q, y: 1, z: z1, w: D }   # z: row 1
                    - { x: p, y: 1, w: E }           # (x, y): nothing any more (row 1 is q 1); z NULL: new
                  onConflict: update
            """
        let run = try EngineParity.run(v2: Self.entities, v3: Self.v3, files: ["seed.yaml": Self.seed, "work.yaml": work],
                                       arguments: ["--format", "json"])
        #expect(run.sqlite.status == 0, "\(run.sqlite.stderr)")
        #expect(run.postgres.status == 0, "\(run.postgres.stderr)")
        #expect(try PostgresHookParityCLITests.stepCounts(run.sqlite.stdout) == ["seed: 2, 2", "work: 1, 1"])
        #expect(try PostgresMigrateReportCLITests.comparable(run.samePostgresOutput) == PostgresMigrateReportCLITests.comparable(run.sameSQLiteOutput))
        let t = try run.rows(Self.rows[0]), u = try run.rows(Self.rows[1])
        // Every proposed row spends a key, as SQLite's AUTOINCREMENT: the new T is 5 (of 3…7), the new U 5 (of 3…5).
        #expect(t.sqlite == ["1 a1 b7 y", "2 a9 b2 n", "5 a3 b1 w"])
        #expect(t.postgres == t.sqlite)
        #expect(u.sqlite == ["1 q 1 z1 D", "2 p 2 z9 C", "5 p 1 - E"])
        #expect(u.postgres == u.sqlite)
    }

    @Test func aRowMatchingTwoRowsOnTwoConstraintsBreaksUniquenessOnBothEngines() throws {
        let work = """
            id: work
            after: 3
            steps:
              - batchInsert: { entity: T, objects: [ { a: a3, b: b3, c: new } ] }
              - batchInsert: { entity: T, objects: [ { a: a1, b: b2, c: both } ], onConflict: update }
            """
        let run = try EngineParity.run(v2: Self.entities, v3: Self.v3, files: ["seed.yaml": Self.seed, "work.yaml": work])
        // SQLite takes a1's row (the first clause) and its b = b2 then collides with row 2: 1551, exit 3, rolled back.
        #expect(run.sqlite.status == 3, "\(run.sqlite.stdout)\(run.sqlite.stderr)")
        #expect(run.postgres.status == 3, "\(run.postgres.stdout)\(run.postgres.stderr)")
        #expect(run.sqlite.stderr.contains("1551") && run.postgres.stderr.contains("1551"), "\(run.sqlite.stderr)\(run.postgres.stderr)")
        #expect(EngineParity.untimed(run.postgres.stderr) == run.sameSQLiteErrors)
        let versions = try run.versions()
        #expect(versions.sqlite == "2" && versions.postgres == "2")
        let t = try run.rows(Self.rows[0])
        #expect(t.sqlite == ["1 a1 b1 A", "2 a2 b2 B"])
        #expect(t.postgres == t.sqlite)
    }

    @Test func fromSourceRowsIntoSeveralConstraintsRunRowByRowAsOnSQLite() throws {
        let work = """
            id: work
            after: 3
            steps:
              - batchInsert:
                  entity: T
                  from: { entity: U }
                  values: { a: "x", b: "z", c: "w" }
                  onConflict: update
            """
        let run = try EngineParity.run(v2: Self.entities, v3: Self.v3, files: ["seed.yaml": Self.seed, "work.yaml": work])
        #expect(run.sqlite.status == 0, "\(run.sqlite.stderr)")
        #expect(run.postgres.status == 0, "\(run.postgres.stderr)")
        #expect(run.samePostgresOutput == run.sameSQLiteOutput)
        // U's first row (p, z1) is new (3); its second (p, z2) lands on that row through a, as SQLite runs it.
        let t = try run.rows(Self.rows[0])
        #expect(t.sqlite == ["1 a1 b1 A", "2 a2 b2 B", "3 p z2 B"])
        #expect(t.postgres == t.sqlite)
    }

    /// A constraint of two columns, from source rows: both source rows land on U's row 2 through (x, y), which is
    /// listed once per source row in the report, as SQLite's `RETURNING` lists it.
    @Test func fromSourceRowsThroughATwoColumnConstraintAsOnSQLite() throws {
        let work = """
            id: work
            after: 3
            steps:
              - batchInsert:
                  entity: U
                  from: { entity: T }
                  values: { x: "'p'", y: "2", z: "b", w: "c" }
                  onConflict: update
                  resultType: objectIDs
              - batchInsert: { entity: U, objects: [ { x: q, y: 9, z: z9, w: N } ] }
            """
        let run = try EngineParity.run(v2: Self.entities, v3: Self.v3, files: ["seed.yaml": Self.seed, "work.yaml": work],
                                       arguments: ["--format", "json"])
        #expect(run.sqlite.status == 0, "\(run.sqlite.stderr)")
        #expect(run.postgres.status == 0, "\(run.postgres.stderr)")
        #expect(try PostgresHookParityCLITests.stepCounts(run.sqlite.stdout) == ["seed: 2, 2", "work: 0, 1"])
        #expect(try PostgresMigrateReportCLITests.comparable(run.samePostgresOutput) == PostgresMigrateReportCLITests.comparable(run.sameSQLiteOutput))
        #expect(run.sqlite.stdout.contains(#""U" : 2"#), "\(run.sqlite.stdout)")
        // T's rows take keys 3 and 4 without making an object; the literal row is 5.
        let u = try run.rows(Self.rows[1])
        #expect(u.sqlite == ["1 p 1 z1 A", "2 p 2 b2 B", "5 q 9 z9 N"])
        #expect(u.postgres == u.sqlite)
    }

    /// An existing row an upsert updates is audited as SQLite audits it (`--audit touched`): a value breaking a rule
    /// there is exit 3 with the same report, rolled back, on both engines.
    @Test(arguments: ["{ a: a1, b: b1, c: toolong }", "{ a: a9, b: b2, c: toolong }"])
    func anUpdatedRowIsAuditedAsOnSQLite(_ row: String) throws {
        let v3 = Self.v3.replacingOccurrences(of: "c: { type: string }", with: "c: { type: string, maxLength: 3 }")
        let work = """
            id: work
            after: 3
            steps:
              - batchInsert: { entity: T, objects: [ \(row) ], onConflict: update }
            """
        let run = try EngineParity.run(v2: Self.entities, v3: v3, files: ["seed.yaml": Self.seed, "work.yaml": work])
        #expect(run.sqlite.status == 3, "\(run.sqlite.stdout)\(run.sqlite.stderr)")
        #expect(run.postgres.status == 3, "\(run.postgres.stdout)\(run.postgres.stderr)")
        #expect(run.samePostgresOutput == run.sameSQLiteOutput)
        #expect(EngineParity.untimed(run.postgres.stderr) == run.sameSQLiteErrors)
        #expect(try run.versions().postgres == "2")
    }

    /// A sub-entity's rows in its root's table (`_entity` set, not updated): the same rows, IDs and report.
    @Test func aSubEntityInAHierarchyTableGivesTheSameRowsAndIDs() throws {
        let entities = """
            entities:
            \(UpsertFixture.hierarchyEntities)
            """
        let seed = """
            id: seed
            after: 2
            steps:
              - batchInsert: { entity: P, objects: [ { code: c1, tag: t1, note: p } ] }
              - batchInsert: { entity: Q, objects: [ { code: c2, tag: t2, note: q, extra: e } ] }
            """
        let work = """
            id: work
            after: 3
            steps:
              - batchInsert:
                  entity: Q
                  objects: [ { tag: t1, note: from-q }, { code: c2, tag: t9, extra: e2 }, { code: c3, tag: t3, note: new } ]
                  onConflict: update
                  resultType: objectIDs
            """
        let v3 = entities.replacingOccurrences(of: "extra: { type: string }", with: "extra: { type: string }\n      more: { type: string }")
        let run = try EngineParity.run(v2: entities, v3: v3, files: ["seed.yaml": seed, "work.yaml": work], arguments: ["--format", "json"])
        #expect(run.sqlite.status == 0, "\(run.sqlite.stderr)")
        #expect(run.postgres.status == 0, "\(run.postgres.stderr)")
        #expect(try PostgresMigrateReportCLITests.comparable(run.samePostgresOutput) == PostgresMigrateReportCLITests.comparable(run.sameSQLiteOutput))
        let query = #"""
            SELECT "_pk" || ' ' || "_entity" || ' ' || coalesce("code", '-') || ' ' || coalesce("tag", '-') || ' ' || coalesce("note", '-')
              || ' ' || coalesce("extra", '-') FROM "P" ORDER BY "_pk"
            """#
        let (sqlite, postgres) = try run.rows(query)
        #expect(sqlite == ["1 P c1 t1 from-q -", "2 Q c2 t9 q e2", "5 Q c3 t3 new -"])
        #expect(postgres == sqlite)
    }
}
