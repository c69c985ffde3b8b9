import Foundation
import StrataTestSupport
import Testing

/// `strata lint --engine postgresql`: what a PostgreSQL store would refuse in the hooks, as warnings (no server).
@Suite struct PostgresLintCLITests {
    @Test func warnsAboutWhatAPostgreSQLStoreWouldRefuse() throws {
        let project = try CLI.exampleProject()
        try #"""
            id: word-boundary
            after: 4
            steps:
              - batchUpdate: { entity: Recipe, predicate: "name MATCHES '\\\\bSoup.*'", propertiesToUpdate: { favorite: true } }
            """#.write(toFile: project + "/migrations/word-boundary.yaml", atomically: true, encoding: .utf8)
        try """
            id: raw-notes
            after: 4
            steps:
              - sql: "UPDATE {{Recipe}} SET {{Recipe.notes}} = 'x'"
            """.write(toFile: project + "/migrations/raw-notes.yaml", atomically: true, encoding: .utf8)
        let sqlite = try CLI.run(["lint"], in: project)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(!sqlite.stderr.contains("PostgreSQL"))
        let postgres = try CLI.run(["lint", "--engine", "postgresql"], in: project)
        #expect(postgres.status == 0, "\(postgres.stderr)")
        #expect(postgres.stderr.contains(#"migrations/word-boundary.yaml:2:8: warning: hook 'word-boundary' (migrations/word-boundary.yaml): MATCHES "\bSoup.*" uses a word boundary (\b), which only ICU regular expressions have on a PostgreSQL store"#))
        #expect(postgres.stderr.contains("migrations/raw-notes.yaml:4:11: warning: hook 'raw-notes' step 1: this sql: step has no PostgreSQL text"))
        #expect(postgres.stdout.hasSuffix("4 hook(s), 0 error(s), 2 warning(s)\n"))
    }

    /// A `from:` upsert into a table with several uniqueness constraints runs on PostgreSQL (row by row, as on
    /// SQLite): nothing to warn about.
    @Test func aFromUpsertIntoSeveralUniquenessConstraintsIsNotAWarning() throws {
        let entities = PostgresUpsertFromParityCLITests.entities
        let hook = "id: work\nafter: 2\nsteps:\n  - batchInsert: { entity: T, from: { entity: S }, values: { a: \"sa\", b: \"sb\" }, onConflict: update }\n"
        let (dir, _) = try MappingProject.project(v1: "version: 1\n" + entities, v2: "version: 2\n" + entities, files: ["work.yaml": hook], name: "lint")
        let postgres = try CLI.run(["lint", "--engine", "postgresql"], in: dir)
        #expect(postgres.status == 0, "\(postgres.stderr)")
        #expect(!postgres.stderr.contains("warning"), "\(postgres.stderr)")
        #expect(postgres.stdout.hasSuffix("1 hook(s), 0 error(s), 0 warning(s)\n"), "\(postgres.stdout)")
    }
}
