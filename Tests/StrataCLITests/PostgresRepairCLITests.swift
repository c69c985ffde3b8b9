import Foundation
import StrataTestSupport
import Testing

/// `strata repair` on a PostgreSQL store, through the real `strata` binary, as on SQLite: an edited hook or
/// mapping file is drift (exit 6 from `status` and `migrate`) until `repair` re-records it; `repair --skip`
/// records a late hook as skipped and refuses an id that is not one (exit 2, nothing written).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresRepairCLITests {
    /// The example project's store, created at 1 and migrated to 3 (running `purge-abandoned-drafts`).
    static func storeAt3() throws -> (project: String, url: String, schema: String) {
        let project = try CLI.exampleProject()
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: project).status == 0)
        let migrated = try CLI.run(["migrate", "--to", "3", "--store", url, "--now", PostgresHooksCLITests.now], in: project)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        return (project, url, schema)
    }

    @Test func anEditedHookIsDriftUntilRepaired() throws {
        let (project, url, schema) = try Self.storeAt3()
        let file = project + "/migrations/purge-abandoned-drafts.yaml"
        let recorded = try PostgresTestServer.psql(#"SELECT "checksum" FROM "\#(schema)"."strata_hooks" WHERE "id" = 'purge-abandoned-drafts'"#)
        #expect(recorded == E2E.hash(file))
        try (try String(contentsOfFile: file, encoding: .utf8) + "# tweaked\n").write(toFile: file, atomically: true, encoding: .utf8)
        let edited = try #require(E2E.hash(file))

        let status = try CLI.run(["status", "--store", url], in: project)
        #expect(status.status == 6)
        #expect(status.stdout.contains("drift:    1 item(s)\n"), "\(status.stdout)")
        #expect(status.stdout.contains("  drift: hook purge-abandoned-drafts: editedHook: expected checksum \(recorded) (as applied), found file checksum \(edited)\n"))
        let migrate = try CLI.run(["migrate", "--store", url], in: project)
        #expect(migrate.status == 6)
        #expect(migrate.stderr.hasPrefix("""
            error: the store is in drift from version 3 (1 difference):
              hook purge-abandoned-drafts: editedHook: expected checksum \(recorded) (as applied), found file checksum \(edited)
            hint: restore the hook file, or review the edit and run `strata repair` to accept it; applied hooks and steps never re-run
            """), "\(migrate.stderr)")
        #expect(try PostgresTestServer.psql(#"SELECT "value" FROM "\#(schema)"."strata_metadata" WHERE "key" = 'strata.version'"#) == "3")

        let repair = try CLI.run(["repair", "--store", url], in: project)
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(repair.stdout == "re-recorded purge-abandoned-drafts: \(recorded.prefix(12))… → \(edited.prefix(12))…\n")
        #expect(try PostgresTestServer.psql(#"SELECT "checksum" FROM "\#(schema)"."strata_hooks" WHERE "id" = 'purge-abandoned-drafts'"#) == edited)
        #expect(try CLI.run(["repair", "--store", url], in: project).stdout == "no edited hooks\n")
        #expect(try CLI.run(["status", "--store", url], in: project).status == 0)
        let resumed = try CLI.run(["migrate", "--store", url, "--now", PostgresHooksCLITests.now], in: project)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.hasPrefix("Migration: store \(url) at v3 → v4 ($NOW = \(PostgresHooksCLITests.now))\n"), "\(resumed.stdout)")
    }

    @Test func skipRecordsALateBeforeHookAndRefusesOtherIDs() throws {
        let (project, url, schema) = try Self.storeAt3()
        try """
            id: keep-ratings
            before: 3
            steps:
              - batchUpdate: { entity: Recipe, predicate: "rating < 3", propertiesToUpdate: { rating: 3 } }
            """.write(toFile: project + "/migrations/keep-ratings.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["migrate", "--store", url], in: project).status == 6)
        let hooks = #"SELECT count(*) FROM "\#(schema)"."strata_hooks""#
        let before = try PostgresTestServer.psql(hooks)

        let wrong = try CLI.run(["repair", "--skip", "keep-rating", "--store", url], in: project)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("error: 'keep-rating' is not a late hook of this store\nhint: late hooks: keep-ratings"), "\(wrong.stderr)")
        #expect(try PostgresTestServer.psql(hooks) == before)

        let skipped = try CLI.run(["repair", "--skip", "keep-ratings", "--store", url], in: project)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout == "recorded keep-ratings as skipped: it will never run on this store\n")
        #expect(try PostgresTestServer.psql(#"""
            SELECT "status" || ' ' || "afterVersion" || ' ' || "modelVersion" FROM "\#(schema)"."strata_hooks" WHERE "id" = 'keep-ratings'
            """#) == "skipped 3 2")
        let migrated = try CLI.run(["migrate", "--store", url, "--now", PostgresHooksCLITests.now], in: project)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(!migrated.stdout.contains("keep-ratings"))
    }

    @Test func anEditedMappingFileIsDriftUntilRepaired() throws {
        let (dir, _) = try MappingProject.project(v1: AuthorBookMapping.v1, v2: AuthorBookMapping.v2,
                                                  files: ["v2.yaml": AuthorBookMapping.mapping], name: "pgrepair")
        let url = PostgresTestServer.url()
        let schema = String(url.split(separator: "=").last!)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        let migrated = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let sha = try #require(E2E.hash(dir + "/migrations/v2.yaml"))
        let details = #"SELECT "details" FROM "\#(schema)"."strata_history" WHERE "kind" = 'migrate'"#
        #expect(try PostgresTestServer.psql(details) == "; mapping migrations/v2.yaml sha256 \(sha)")
        #expect(try CLI.run(["status", "--store", url], in: dir).status == 0)

        try (AuthorBookMapping.mapping + "\n# reviewed\n").write(toFile: dir + "/migrations/v2.yaml", atomically: true, encoding: .utf8)
        let edited = try #require(E2E.hash(dir + "/migrations/v2.yaml"))
        let status = try CLI.run(["status", "--store", url], in: dir)
        #expect(status.status == 6)
        #expect(status.stdout.contains("  drift: mapping migrations/v2.yaml: editedMapping: expected sha256 \(sha) (as the step ran), found sha256 \(edited)\n"),
                "\(status.stdout)")
        let migrate = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(migrate.status == 6)
        #expect(migrate.stderr.contains("hint: restore the mapping file, or review the edit and run `strata repair` to accept it"), "\(migrate.stderr)")

        let repair = try CLI.run(["repair", "--store", url], in: dir)
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(repair.stdout == "re-recorded mapping file migrations/v2.yaml\n")
        #expect(try PostgresTestServer.psql(details) == "; mapping migrations/v2.yaml sha256 \(edited)")
        #expect(try CLI.run(["status", "--store", url], in: dir).status == 0)
    }
}
