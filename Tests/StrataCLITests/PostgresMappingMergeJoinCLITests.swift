import Foundation
import StrataTestSupport
import Testing

/// A merge whose sources hold many-to-many links in join tables, on PostgreSQL beside SQLite with the same rows
/// (`MappingMergeJoinCLITests`): every link of `Album.items` → Photo, `Album.vitems` → Video, `Photo.tags` and
/// `Video.tags` is kept, re-linked to the same new IDs.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMappingMergeJoinCLITests {
    /// `MappingMergeJoinCLITests.rows`, the entity tables' keys given (OVERRIDING SYSTEM VALUE; the join tables have no identity column).
    static let rows = MappingMergeJoinCLITests.rows.split(separator: "\n").map { line in
        line.hasPrefix("INSERT INTO \"_") ? String(line) : line.replacingOccurrences(of: ") VALUES", with: ") OVERRIDING SYSTEM VALUE VALUES")
    }.joined(separator: "\n")

    @Test func aMergeKeepsTheJoinTableLinksOfEverySourceAsOnSQLite() throws {
        let (dir, store) = try MappingMergeJoinCLITests.project()
        let (schema, sqlite, postgres) = try PostgresMappingSplitCLITests.migrateBoth(dir, rows: Self.rows)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(postgres.status == 0, "\(postgres.stderr)")
        #expect(MappingMergeJoinCLITests.summary(postgres.stdout).last == "  mapped Media from Photo, Video: 4 carried, 4 with new IDs",
                "\(postgres.stdout)")
        for (query, expected) in zip(MappingMergeJoinCLITests.queries, MappingMergeJoinCLITests.expected) {
            #expect(try E2E.rows(store, query) == expected, "\(query)")
            #expect(try PostgresMappingSplitCLITests.pg(schema, query) == expected, "\(query)")
        }
        let tables = try PostgresMappingSplitCLITests.pg(schema, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1")
        #expect(tables.filter { !$0.hasPrefix("strata_") } == ["Album", "Media", "Tag", "_Album_items", "_Media_tags"], "\(tables)")
        let status = try CLI.run(["status", "--store", PostgresTestServer.url(schema: schema)], in: dir)
        #expect(status.stdout.contains("drift:    none\n"), "\(status.stdout)")
    }

    /// A filter leaving video 3 out: the same rows, and the same count of the links to it dropped, as on SQLite.
    @Test func linksToAnObjectTheFilterDropsAreCountedAsOnSQLite() throws {
        let (dir, store) = try MappingMergeJoinCLITests.project(mapping: MappingMergeJoinCLITests.filtered)
        let (schema, sqlite, postgres) = try PostgresMappingSplitCLITests.migrateBoth(dir, rows: Self.rows)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(postgres.status == 0, "\(postgres.stderr)")
        let mapped = MappingMergeJoinCLITests.summary(sqlite.stdout).last ?? ""
        #expect(mapped.hasSuffix("4 links to them dropped (_Album_items.target 2, _Media_tags.source 2)"), "\(sqlite.stdout)")
        #expect(MappingMergeJoinCLITests.summary(postgres.stdout).last == mapped, "\(postgres.stdout)")
        for query in MappingMergeJoinCLITests.queries {
            #expect(try PostgresMappingSplitCLITests.pg(schema, query) == (try E2E.rows(store, query)), "\(query)")
        }
        #expect(try E2E.rows(store, MappingMergeJoinCLITests.queries[3]) == ["1|4", "1|6", "2|4", "2|5"])
    }
}
