import Foundation
import StrataTestSupport
import Testing

/// `--to` outside the models on a PostgreSQL store: the same exit code, message and hint as on SQLite
/// (FaultsCLITests), from the library's `MigrationError` worded for the command line. Before, `--to` below the
/// store's version on PostgreSQL had no hint, and the library's error named the flag `--to`.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresTargetVersionCLITests {
    @Test func aTargetOutsideTheModelsIsExit2AsOnSQLite() throws {
        let project = try CLI.exampleProject()
        let url = PostgresTestServer.url()
        #expect(try CLI.run(["migrate", "--create", "--to", "2", "--store", url], in: project).status == 0)
        let below = try CLI.run(["migrate", "--to", "1", "--store", url], in: project)
        #expect(below.status == 2)
        #expect(below.stderr == "error: --to 1 is below the store's version 2\nhint: Strata migrates forward only; restore a backup to go back\n")
        let above = try CLI.run(["migrate", "--to", "9", "--store", url], in: project)
        #expect(above.status == 2)
        #expect(above.stderr == "error: --to 9: there is no model version 9\nhint: versions: 1, 2, 3, 4\n")
        let missing = try CLI.run(["migrate", "--store", PostgresTestServer.url()], in: project)
        #expect(missing.status == 2)
        #expect(missing.stderr.hasSuffix("hint: check the URL and schema, or pass --create to create the store there\n"), "\(missing.stderr)")
    }
}
