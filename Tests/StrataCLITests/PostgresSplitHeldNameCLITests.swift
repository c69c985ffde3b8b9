import Foundation
import StrataTestSupport
import Testing

/// A split whose new table takes the name of a table the same step drops or renames, run by the `strata` binary
/// on SQLite and PostgreSQL (the new table goes by `strata_rename_…` until the old one has left the name): the
/// same rows, object IDs, links, report and next IDs.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresSplitHeldNameCLITests {
    /// Checks everything the two runs must share; `tables` are read in full (`_pk` and `columns`).
    static func expectSame(_ run: EngineParity, _ tables: [(name: String, columns: [String])], expected: [[String]]) throws {
        #expect(run.sqlite.status == 0, "\(run.sqlite.stderr)")
        #expect(run.postgres.status == 0, "\(run.postgres.stderr)")
        #expect(run.samePostgresOutput == run.sameSQLiteOutput)
        for (table, rows) in zip(tables, expected) {
            let values = table.columns.map { "coalesce(CAST(\"\($0)\" AS text), '-')" }.joined(separator: " || ' ' || ")
            let query = "SELECT \"_pk\" || ' ' || \(values) FROM \"\(table.name)\" ORDER BY \"_pk\""
            let (sqlite, postgres) = try run.rows(query)
            #expect(sqlite == rows, "\(query)")
            #expect(postgres == sqlite, "\(query)")
            // A new object takes the same next ID on both.
            let first = table.columns[0]
            try E2E.execute(run.dir + "/app.sqlite", "INSERT INTO \"\(table.name)\" (\"\(first)\") VALUES (NULL)")
            let next = try run.psql("INSERT INTO \"\(table.name)\" (\"\(first)\") VALUES (NULL) RETURNING \"_pk\"")
            #expect(next.first == (try E2E.rows(run.dir + "/app.sqlite", "SELECT max(\"_pk\") FROM \"\(table.name)\"")).first,
                    "\(table.name): \(next)")
        }
        let status = try CLI.run(["status", "--store", run.url], in: run.dir)
        #expect(status.status == 0, "\(status.stdout)\(status.stderr)")
        let tables = try run.psql("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'strata_rename_%'")
        #expect(tables.isEmpty, "\(tables)")
    }

    @Test func aSplitTableTakesTheNameOfATableTheStepDrops() throws {
        let v2 = """
            entities:
              A:
                attributes:
                  n: { type: int16 }
                  s: { type: string }
                relationships:
                  refs: { destination: R, toMany: true, inverse: a }
              B:
                attributes:
                  n: { type: int16 }
              C:
                attributes:
                  n: { type: int16 }
              R:
                attributes:
                  label: { type: string }
                relationships:
                  a: { destination: A, inverse: refs }
            """
        let v3 = """
            entities:
              B:
                attributes:
                  n: { type: int16 }
                  s: { type: string }
                relationships:
                  refs: { destination: R, toMany: true, inverse: a }
              C:
                attributes:
                  n: { type: int16 }
                  s: { type: string }
              R:
                attributes:
                  label: { type: string }
                relationships:
                  a: { destination: B, inverse: refs }
            """
        let seed = """
            id: seed
            after: 2
            steps:
              - batchInsert: { entity: B, objects: [ { n: 100 } ] }
              - batchInsert: { entity: C, objects: [ { n: 200 }, { n: 201 }, { n: 202 }, { n: 203 }, { n: 204 }, { n: 205 } ] }
              - batchInsert: { entity: A, objects: [ { n: 1, s: one }, { n: 0, s: zero }, { n: 3, s: three }, { n: -4, s: minus } ] }
              - batchInsert: { entity: R, objects: [ { label: r1, a: 1 }, { label: r2, a: 2 }, { label: r3 } ] }
            """
        let mapping = """
            mapping: { from: 2, to: 3 }
            entities:
              B: { source: A, filter: "n > 0" }
              C: { source: A, filter: "n <= 0", attributes: { s: "s + '!'" } }
            """
        let run = try EngineParity.run(v2: v2, v3: v3, files: ["seed.yaml": seed, "v3.yaml": mapping])
        try Self.expectSame(run, [("B", ["n", "s"]), ("C", ["n", "s"]), ("R", ["label", "a"])],
                            expected: [["1 1 one", "3 3 three"], ["2 0 zero!", "4 -4 minus!"], ["1 r1 1", "2 r2 -", "3 r3 -"]])
        #expect(run.sqlite.stdout.contains("mapped C from A: 2 carried, 2 dropped by filter"), "\(run.sqlite.stdout)")
    }

    @Test func aSplitTableTakesTheNameOfATableTheStepRenames() throws {
        let v2 = """
            entities:
              A:
                attributes:
                  n: { type: int16 }
              C:
                attributes:
                  m: { type: string }
            """
        let v3 = """
            entities:
              A:
                attributes:
                  n: { type: int16 }
              C:
                attributes:
                  n: { type: int16 }
              X:
                attributes:
                  m: { type: string }
            """
        let seed = """
            id: seed
            after: 2
            steps:
              - batchInsert: { entity: C, objects: [ { m: c1 }, { m: c2 }, { m: c3 }, { m: c4 }, { m: c5 } ] }
              - batchInsert: { entity: A, objects: [ { n: 1 }, { n: -2 }, { n: 3 }, { n: -4 } ] }
            """
        let mapping = """
            mapping: { from: 2, to: 3 }
            entities:
              A: { source: A, filter: "n > 0" }
              C: { source: A, filter: "n <= 0" }
              X: { source: C }
            """
        let run = try EngineParity.run(v2: v2, v3: v3, files: ["seed.yaml": seed, "v3.yaml": mapping])
        try Self.expectSame(run, [("A", ["n"]), ("C", ["n"]), ("X", ["m"])],
                            expected: [["1 1", "3 3"], ["2 -2", "4 -4"], ["1 c1", "2 c2", "3 c3", "4 c4", "5 c5"]])
    }
}
