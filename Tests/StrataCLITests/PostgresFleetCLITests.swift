import Foundation
import StrataTestSupport
import Testing

/// `--stores-from FILE` listing PostgreSQL stores, mixed with SQLite files, through the real `strata` binary
/// (SPEC §14.1, §14.2): migrate, status and audit run each store through its engine, `--jobs` at once, one
/// summary; a bad URL is exit 2 before any store starts; `--backup-dir` with a PostgreSQL store is exit 2.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresFleetCLITests {
    static func pgVersion(_ schema: String) throws -> String {
        try PostgresTestServer.psql(#"SELECT "value" FROM "\#(schema)"."strata_metadata" WHERE "key" = 'strata.version'"#)
    }

    /// A project with an SQLite store at 1 and two PostgreSQL stores at 1, listed in `list.txt`.
    static func fleet() throws -> (project: FleetProject, urls: [String], schemas: [String]) {
        let project = try FleetProject()
        _ = try project.store("tenants/a.sqlite")
        var urls: [String] = [], schemas: [String] = []
        for _ in 0..<2 {
            let url = PostgresTestServer.url()
            #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: project.dir).status == 0)
            urls.append(url)
            schemas.append(String(url.split(separator: "=").last!))
        }
        // The second URL twice, once spelled postgresql://: one store, listed once.
        let respelled = urls[1].replacingOccurrences(of: "postgres://", with: "postgresql://")
        try (["# tenants", "tenants/a.sqlite"] + urls + [respelled]).joined(separator: "\n")
            .write(toFile: project.dir + "/list.txt", atomically: true, encoding: .utf8)
        return (project, urls, schemas)
    }

    @Test func migrateAndStatusRunEveryStoreThroughItsEngineWithOneSummary() throws {
        let (project, urls, schemas) = try Self.fleet()
        let status = try project.run(["status", "--stores-from", "list.txt", "--check", "--continue-on-error", "--format", "json"], now: false)
        #expect(status.status == 7, "\(status.stderr)")
        #expect(try FleetProject.codes(status.stdout) == ["tenants/a.sqlite: 7"] + urls.map { "\($0): 7" }, "\(status.stdout)")

        let migrated = try project.run(["migrate", "--stores-from", "list.txt", "--jobs", "2", "--format", "json"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let rows = try FleetProject.fleet(migrated.stdout)["stores"] as? [[String: Any]] ?? []
        #expect(rows.map { "\($0["path"]!) \($0["outcome"]!) \($0["fromVersion"]!)→\($0["toVersion"]!) \($0["hooks"]!)" }
                    == ["tenants/a.sqlite migrated 1→4 2"] + urls.map { "\($0) migrated 1→4 2" })
        #expect(try project.version("tenants/a.sqlite") == "4")
        #expect(try schemas.map(Self.pgVersion) == ["4", "4"])

        // A rating over the model's max 5 in one PostgreSQL store: its audit row alone is exit 3.
        _ = try PostgresTestServer.psql(#"INSERT INTO "\#(schemas[0])"."Recipe" ("name", "rating", "favorite") VALUES ('Loud', 9, false)"#)
        let audit = try project.run(["audit", "--stores-from", "list.txt", "--continue-on-error", "--format", "json"], now: false)
        #expect(audit.status == 3, "\(audit.stderr)")
        let auditRows = try FleetProject.fleet(audit.stdout)["stores"] as? [[String: Any]] ?? []
        #expect(auditRows.map { "\($0["path"]!) \($0["outcome"]!) \($0["exitCode"]!) \($0["violations"]!)" }
                    == ["tenants/a.sqlite passed 0 0", "\(urls[0]) violations 3 1", "\(urls[1]) passed 0 0"])
        #expect(auditRows[1]["message"] as? String == "1 rule violated: Recipe.rating 1610")
        _ = try PostgresTestServer.psql(#"DELETE FROM "\#(schemas[0])"."Recipe""#)

        // One PostgreSQL store changed by hand: status says drift (6) for it alone.
        _ = try PostgresTestServer.psql(#"ALTER TABLE "\#(schemas[1])"."Recipe" ADD COLUMN "extra" text"#)
        let drifted = try project.run(["status", "--stores-from", "list.txt", "--format", "json"], now: false)
        #expect(drifted.status == 6)
        let statusRows = try FleetProject.fleet(drifted.stdout)["stores"] as? [[String: Any]] ?? []
        #expect(statusRows.map { "\($0["outcome"]!) \($0["exitCode"]!)" } == ["up-to-date 0", "up-to-date 0", "drift 6"])
        #expect(statusRows.last?["message"] as? String == "1 drift item: Recipe.extra: extraColumn: expected no column, found text")
        let text = try project.run(["status", "--stores-from", "list.txt"], now: false)
        #expect(text.status == 6)
        #expect(text.stdout.contains(urls[1]))
    }

    @Test func aBadURLOrABackupDirStopsTheFleetBeforeAnyStore() throws {
        let (project, urls, schemas) = try Self.fleet()
        try ("tenants/a.sqlite\n" + urls[0] + "\npostgres://nouser.example/db\n").write(toFile: project.dir + "/bad.txt", atomically: true, encoding: .utf8)
        let bad = try project.run(["migrate", "--stores-from", "bad.txt"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("error: invalid PostgreSQL store URL 'postgres://nouser.example/db': it names no user"), "\(bad.stderr)")
        #expect(try project.version("tenants/a.sqlite") == "1")
        #expect(try Self.pgVersion(schemas[0]) == "1")

        try FileManager.default.createDirectory(atPath: project.dir + "/backups", withIntermediateDirectories: true)
        let backup = try project.run(["migrate", "--stores-from", "list.txt", "--backup-dir", "backups"])
        #expect(backup.status == 2)
        #expect(backup.stderr.hasPrefix("error: migrate --backup is not available on a PostgreSQL store"), "\(backup.stderr)")
        #expect(try project.version("tenants/a.sqlite") == "1")
        #expect(try schemas.map(Self.pgVersion) == ["1", "1"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.dir + "/backups").isEmpty)
    }
    /// Rows name a PostgreSQL store as it was written in the list, its password replaced by `***`, as the messages
    /// about a URL given name it; the row pastes back into `--store`. Before, a row was the parsed URL with its schema
    /// percent-decoded (`schema=Ten A"x_…`), which is not a URL.
    @Test func rowsNameAStoreAsWrittenWithoutItsPassword() throws {
        let project = try FleetProject()
        let schema = "Ten A\"x_" + UUID().uuidString.prefix(8).lowercased()
        let encoded = schema.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "\"", with: "%22")
        let url = PostgresTestServer.url(schema: "S").replacingOccurrences(of: "?schema=S", with: "?schema=\(encoded)&sslmode=disable")
            .replacingOccurrences(of: "postgres://strata@", with: "postgresql://strata:s3cret@")
        let row = url.replacingOccurrences(of: ":s3cret@", with: ":***@")
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: project.dir).status == 0)
        try (url + "\n").write(toFile: project.dir + "/list.txt", atomically: true, encoding: .utf8)

        let status = try project.run(["status", "--stores-from", "list.txt", "--format", "json"], now: false)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(try FleetProject.codes(status.stdout) == ["\(row): 0"])
        let text = try project.run(["status", "--stores-from", "list.txt"], now: false)
        #expect(text.status == 0)
        #expect(text.stdout.contains(row + " "), "\(text.stdout)")
        #expect(!text.stdout.contains("s3cret") && !text.stdout.contains(schema), "\(text.stdout)")
        // The row is the store: given to --store (the password from elsewhere, here the server trusts the role), it reads it.
        let pasted = try CLI.run(["status", "--store", row], in: project.dir)
        #expect(pasted.status == 0, "\(pasted.stderr)")
        #expect(try Self.pgVersion(schema.replacingOccurrences(of: "\"", with: "\"\"")) == "1")
    }
}
