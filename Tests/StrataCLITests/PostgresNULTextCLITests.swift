import Foundation
import StrataTestSupport
import Testing

/// A hook value holding U+0000: SQLite stores it; PostgreSQL text cannot hold it (the server refused the INSERT,
/// exit 1, "invalid byte sequence for encoding "UTF8": 0x00", unlocated). On PostgreSQL it is exit 2 before
/// anything runs, located at the value in the hook file, and `lint --engine postgresql` warns of it
/// (Docs/postgresql.md).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresNULTextCLITests {
    static let entities = """
        entities:
          Note:
            attributes:
              text: { type: string }
        """

    static let work = """
        id: work
        after: 3
        steps:
          - batchInsert: { entity: Note, objects: [ { text: ok } ] }
          - batchInsert:
              entity: Note
              objects: [ { text: fine }, { text: "keep\\0me" } ]
        """

    static let message = "hook 'work' step 2: object 2's Note.text holds a NUL character (U+0000), which PostgreSQL text cannot hold"

    @Test func aNULInAHookValueIsExit2AtTheValueOnPostgreSQL() throws {
        let run = try EngineParity.run(v2: Self.entities, v3: Self.entities, files: ["work.yaml": Self.work])
        #expect(run.sqlite.status == 0, "\(run.sqlite.stderr)")
        #expect(try E2E.rows(run.dir + "/app.sqlite", #"SELECT hex("text") FROM "Note" ORDER BY "_pk""#) == ["6F6B", "66696E65", "6B656570006D65"])
        #expect(run.postgres.status == 2, "\(run.postgres.stderr)")
        #expect(run.postgres.stderr.hasPrefix("migrations/work.yaml:7:43: error: " + Self.message + "\n"), "\(run.postgres.stderr)")
        // Nothing ran: the store stays at version 1.
        #expect(try run.psql("SELECT value FROM strata_metadata WHERE key = 'strata.version'") == ["1"])
    }

    @Test func lintForPostgreSQLWarnsOfIt() throws {
        let run = try EngineParity.run(v2: Self.entities, v3: Self.entities, files: ["work.yaml": Self.work])
        let sqlite = try CLI.run(["lint"], in: run.dir)
        let postgres = try CLI.run(["lint", "--engine", "postgresql"], in: run.dir)
        #expect(sqlite.status == 0 && !sqlite.stdout.contains("NUL") && !sqlite.stderr.contains("NUL"))
        #expect((postgres.stdout + postgres.stderr).contains("migrations/work.yaml:7:43: warning: " + Self.message), "\(postgres.stdout)\(postgres.stderr)")
    }
}
