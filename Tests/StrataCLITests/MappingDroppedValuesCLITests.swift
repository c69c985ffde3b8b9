import Foundation
import GRDB
import StrataTestSupport
import Testing

/// The values a mapping step drops with an attribute its destination lacks (Docs/mapping.md): named by the
/// source entity and counted in its table, the same in the text plan, JSON, a dry run and the run.
@Suite struct MappingDroppedValuesCLITests {
    /// The destructive changes of the first step of a JSON report: `change` → `count`.
    static func destructive(_ text: String) throws -> [String: Int] {
        let migration = try CLI.json(text)["migration"] as? [String: Any]
        let step = (migration?["steps"] as? [[String: Any]])?.first
        var counts: [String: Int] = [:]
        for change in step?["destructive"] as? [[String: Any]] ?? [] {
            if let name = change["change"] as? String, let n = change["count"] as? Int { counts[name] = n }
        }
        return counts
    }

    /// `MergeProject` without `Media.width`: Photo's widths (100, 200, 300) are dropped.
    static func mergeWithoutWidth() throws -> (dir: String, store: String) {
        let v2 = MergeProject.v2.replacingOccurrences(of: "      width:    { type: int64 }\n", with: "")
        precondition(v2 != MergeProject.v2)
        let (dir, store) = try MappingProject.project(v1: MergeProject.v1, v2: v2, files: ["v2.yaml": MergeProject.mapping], name: "merge")
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO "Photo" ("_pk", "name", "width") VALUES (1, 'p1', 100), (2, 'p2', 200), (3, 'p3', 300), (4, 'p4', NULL);
                INSERT INTO "Video" ("_pk", "name", "seconds") VALUES (1, 'v1', '10');
                """)
        }
        try queue.close()
        return (dir, store)
    }

    @Test func aMergedSourceAttributeIsCountedInItsTable() throws {
        let (dir, _) = try Self.mergeWithoutWidth()
        let line = "  [destructive] removeAttribute Photo.width: 3 values dropped (e.g. 100, 200, 300)\n"
        let dry = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains(line), "\(dry.stdout)")
        let json = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run", "--format", "json"], in: dir)
        #expect(try Self.destructive(json.stdout)["removeAttribute Photo.width: removed with its values [destructive]"] == 3, "\(json.stdout)")
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(line), "\(run.stdout)")
        #expect(!run.stdout.contains("Media.width"), "\(run.stdout)")
    }

    @Test func aMappedEntitysSourceAttributeIsCountedInItsTable() throws {
        let (dir, _) = try MappingProject.make(["v2.yaml": MappingProject.mapping], badRating: false)
        let line = "  [destructive] removeAttribute Author.kind: 3 values dropped (e.g. \"person\", \"company\")\n"
        let dry = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains(line), "\(dry.stdout)")
        let json = try CLI.run(["migrate", "--store", "app.sqlite", "--dry-run", "--format", "json"], in: dir)
        #expect(try Self.destructive(json.stdout)["removeAttribute Author.kind: removed with its values [destructive]"] == 3, "\(json.stdout)")
        let run = try CLI.run(["migrate", "--store", "app.sqlite"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(line), "\(run.stdout)")
        #expect(!run.stdout.contains("Company.kind") && !run.stdout.contains("Person.kind"), "\(run.stdout)")
    }
}

@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresMappingDroppedValuesCLITests {
    @Test func aMappedEntitysSourceAttributeIsCountedAsOnSQLite() throws {
        let (dir, _) = try MappingProject.make(["v2.yaml": MappingProject.mapping], badRating: false)
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir).status == 0)
        _ = try PostgresMappingSplitCLITests.pg(schema, """
            INSERT INTO "Author" ("kind", "name") VALUES ('person', 'Ann'), ('company', 'Acme'), ('person', 'Bob');
            """)
        let line = "  [destructive] removeAttribute Author.kind: 3 values dropped (e.g. \"person\", \"company\")\n"
        let dry = try CLI.run(["migrate", "--store", url, "--dry-run"], in: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains(line), "\(dry.stdout)")
        let json = try CLI.run(["migrate", "--store", url, "--dry-run", "--format", "json"], in: dir)
        #expect(try MappingDroppedValuesCLITests.destructive(json.stdout)["removeAttribute Author.kind: removed with its values [destructive]"] == 3,
                "\(json.stdout)")
        let run = try CLI.run(["migrate", "--store", url], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(line), "\(run.stdout)")
    }
}
