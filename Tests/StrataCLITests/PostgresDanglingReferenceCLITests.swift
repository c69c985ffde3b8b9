import Foundation
import StrataTestSupport
import Testing

/// A hook's `batchInsert` whose to-one keys name no object, on SQLite and PostgreSQL: the same 1700 violation,
/// exit 3, located at the step in the hook file (Docs/hooks.md), the whole step rolled back. PostgreSQL
/// printed it without the file, line or step, in other words.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresDanglingReferenceCLITests {
    static let entities = """
        entities:
          Person:
            attributes: { name: { type: string } }
            relationships: { pets: { destination: Pet, toMany: true, inverse: owner } }
          Pet:
            attributes: { name: { type: string } }
            relationships: { owner: { destination: Person, inverse: pets } }
        """

    @Test func aDanglingReferenceOfAHookIsLocatedAtItsStepAsOnSQLite() throws {
        let work = """
            id: work
            after: 3
            steps:
              - batchInsert: { entity: Person, objects: [ { name: Ann } ] }
              - batchInsert: { entity: Pet, objects: [ { name: Rex, owner: 99 }, { name: Max, owner: 1 }, { name: Tom, owner: 98 } ] }
            """
        let run = try EngineParity.run(v2: Self.entities, v3: Self.entities, files: ["work.yaml": work])
        #expect(run.sqlite.status == 3 && run.postgres.status == 3, "\(run.sqlite.stderr)\n\(run.postgres.stderr)")
        let line = "migrations/work.yaml:5:28: error: hook 'work' step 2: the batch would leave a dangling reference "
            + "(no object has that primary key): Pet 1 owner = 99, Pet 3 owner = 98 (1700)"
        #expect(run.sqlite.stderr.contains(line), "\(run.sqlite.stderr)")
        #expect(run.postgres.stderr.contains(line), "\(run.postgres.stderr)")
        #expect(EngineParity.untimed(run.postgres.stderr) == run.sameSQLiteErrors)
        // The step rolled back on both: the version stays 2, no person or pet.
        #expect(try run.versions() == ("2", "2"))
        let rows = try run.rows(#"SELECT count(*) FROM "Person""#)
        #expect(rows.sqlite == ["0"] && rows.postgres == ["0"])
    }
}
