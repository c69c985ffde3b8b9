import Foundation
import StrataTestSupport
import Testing

/// `--stores 'postgres://…?schema=GLOB'` through the real `strata` binary (SPEC §14.1, §14.2; Docs/postgresql.md
/// "Fleets"): the schemas whose names match, listed once from the server, each run as the same URL in
/// `--stores-from`; a matched schema without Strata's tables fails as a missing store; no match and a glob
/// outside the schema are exit 2. Each test matches its own prefix, so tests share the server.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresSchemaGlobCLITests {
    /// A prefix no other test's schemas start with.
    static func prefix() -> String { "g" + UUID().uuidString.prefix(8).lowercased() + "_" }

    /// Stores at version 1 in `prefix` + each name, made in `project`; their URLs.
    static func tenants(_ names: [String], prefix: String, in project: FleetProject) throws -> [String] {
        try names.map { name in
            let url = PostgresTestServer.url(schema: prefix + name)
            let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: project.dir)
            #expect(created.status == 0, "\(created.stderr)")
            return url
        }
    }

    static func version(_ schema: String) throws -> String {
        try PostgresTestServer.psql(#"SELECT "value" FROM "\#(schema)"."strata_metadata" WHERE "key" = 'strata.version'"#)
    }

    /// The text summary with durations as `S` (the fleet's) and `9.999 s` (each store's).
    static func summary(_ stdout: String) -> String {
        FleetProject.timeless(stdout).replacingOccurrences(of: #"jobs?, [0-9.]+ s"#, with: "jobs, S", options: .regularExpression)
    }

    /// One row of the text table: the store column as wide as `width`.
    static func row(_ url: String, width: Int, _ rest: String) -> String {
        url.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + rest
    }

    @Test func migrateRunsEveryMatchedSchemaWithJobs2AndOneSummary() throws {
        let project = try FleetProject()
        let prefix = Self.prefix()
        let urls = try Self.tenants(["c", "a", "b"], prefix: prefix, in: project).sorted()
        _ = try Self.tenants(["x"], prefix: "other" + prefix, in: project)   // another prefix: never matched
        let glob = PostgresTestServer.url(schema: prefix + "*") + "&sslmode=disable"
        let r = try project.run(["migrate", "--stores", glob, "--jobs", "2", "--no-progress"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "")
        // Each row is the store's URL as the glob's text gives it: its parameters (`sslmode`) carried over.
        let stores = urls.map { $0 + "&sslmode=disable" }
        let width = stores[0].count
        #expect(Self.summary(r.stdout) == """
            Fleet migrate: 3 stores, 2 jobs, S: 3 migrated; exit 0

            \(Self.row("store", width: width, "outcome   exit  from  to  hooks  violations  duration  message"))
            \(stores.map { Self.row($0, width: width, "migrated     0     1   4      2           0   9.999 s") }.joined(separator: "\n"))

            """)
        #expect(try ["a", "b", "c", "x"].map { try Self.version(($0 == "x" ? "other" : "") + prefix + $0) } == ["4", "4", "4", "1"])

        let again = try project.run(["migrate", "--stores", glob, "--jobs", "2", "--format", "json"])
        #expect(again.status == 0, "\(again.stderr)")
        let rows = try FleetProject.fleet(again.stdout)["stores"] as? [[String: Any]] ?? []
        #expect(rows.map { "\($0["path"]!) \($0["outcome"]!) \($0["exitCode"]!)" } == stores.map { "\($0) up-to-date 0" })
    }

    @Test func aMatchedSchemaWithoutStrataTablesFailsAsAMissingStore() throws {
        let project = try FleetProject()
        let prefix = Self.prefix()
        let urls = try Self.tenants(["a", "c"], prefix: prefix, in: project)
        _ = try PostgresTestServer.psql(#"CREATE SCHEMA "\#(prefix)b"; CREATE TABLE "\#(prefix)b"."Notes" ("id" integer)"#)
        let plain = PostgresTestServer.url(schema: prefix + "b")
        let glob = PostgresTestServer.url(schema: prefix + "*")
        let missing = "error: store '\(plain)' (exit 2): no Strata store in \(plain): the schema has no strata_ tables\n"

        let stop = try project.run(["migrate", "--stores", glob, "--format", "json"])
        #expect(stop.status == 2)
        #expect(try FleetProject.codes(stop.stdout) == ["\(urls[0]): 0", "\(plain): 2", "\(urls[1]): -"])
        #expect(stop.stderr == missing)
        #expect(try [Self.version(prefix + "a"), Self.version(prefix + "c")] == ["4", "1"])

        let goOn = try project.run(["migrate", "--stores", glob, "--continue-on-error", "--format", "json"])
        #expect(goOn.status == 2)
        #expect(try FleetProject.codes(goOn.stdout) == ["\(urls[0]): 0", "\(plain): 2", "\(urls[1]): 0"])
        #expect(try Self.version(prefix + "c") == "4")
        let status = try project.run(["status", "--stores", glob, "--continue-on-error", "--format", "json"], now: false)
        #expect(status.status == 2)
        #expect(try FleetProject.codes(status.stdout) == ["\(urls[0]): 0", "\(plain): 2", "\(urls[1]): 0"])
        #expect(status.stderr == missing)
        #expect(try PostgresTestServer.psql(#"SELECT count(*) FROM pg_tables WHERE schemaname = '\#(prefix)b'"#) == "1")
    }

    @Test func statusAuditAndDryRunRunOverTheGlob() throws {
        let project = try FleetProject()
        let prefix = Self.prefix()
        let urls = try Self.tenants(["a", "b"], prefix: prefix, in: project)
        let glob = PostgresTestServer.url(schema: prefix + "[ab]")
        let pending = try project.run(["status", "--stores", glob, "--check", "--continue-on-error", "--format", "json"], now: false)
        #expect(pending.status == 7, "\(pending.stderr)")
        #expect(try FleetProject.codes(pending.stdout) == urls.map { "\($0): 7" })

        let dry = try project.run(["migrate", "--stores", glob, "--dry-run", "--jobs", "2", "--format", "json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let fleet = try FleetProject.fleet(dry.stdout)
        #expect(fleet["dryRun"] as? Bool == true)
        #expect((fleet["stores"] as? [[String: Any]])?.map { "\($0["path"]!) \($0["outcome"]!) \($0["fromVersion"]!)→\($0["toVersion"]!)" }
                == urls.map { "\($0) migrated 1→4" })
        #expect(try [Self.version(prefix + "a"), Self.version(prefix + "b")] == ["1", "1"])

        #expect(try project.run(["migrate", "--stores", glob, "--jobs", "2"]).status == 0)
        _ = try PostgresTestServer.psql(#"INSERT INTO "\#(prefix)b"."Recipe" ("name", "rating", "favorite") VALUES ('Loud', 9, false)"#)
        let audit = try project.run(["audit", "--stores", glob, "--continue-on-error", "--format", "json"], now: false)
        #expect(audit.status == 3, "\(audit.stderr)")
        let rows = try FleetProject.fleet(audit.stdout)["stores"] as? [[String: Any]] ?? []
        #expect(rows.map { "\($0["path"]!) \($0["outcome"]!) \($0["exitCode"]!) \($0["violations"]!)" }
                == ["\(urls[0]) passed 0 0", "\(urls[1]) violations 3 1"])
        let status = try project.run(["status", "--stores", glob, "--check"], now: false)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(Self.summary(status.stdout).hasPrefix("Fleet status: 2 stores, 1 jobs, S: 2 up-to-date; exit 0\n"), "\(status.stdout)")
    }

    @Test func aGlobMatchingNoSchemaIsExit2() throws {
        let project = try FleetProject()
        let prefix = Self.prefix()
        _ = try Self.tenants(["a"], prefix: prefix, in: project)
        for pattern in [prefix + "z*", prefix + "??", prefix.uppercased() + "*"] {
            let glob = PostgresTestServer.url(schema: pattern)
            for command in [["migrate"], ["status"], ["audit"], ["migrate", "--dry-run"]] {
                let r = try project.run(command + ["--stores", glob], now: false)
                #expect(r.status == 2, "\(command) \(pattern)")
                #expect(r.stderr.hasPrefix("error: --stores '\(glob)' names no store\nhint: check the pattern or the list"), "\(r.stderr)")
                #expect(r.stdout == "")
            }
        }
        #expect(try Self.version(prefix + "a") == "1")
        // A server that cannot be reached: exit 1 naming the glob (its password hidden), before any store.
        let closed = "postgres://strata:pw@127.0.0.1:1/postgres?schema=\(prefix)*"
        let unreachable = try project.run(["status", "--stores", closed], now: false)
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.hasPrefix("error: cannot connect to postgres://strata:***@127.0.0.1:1/postgres?schema=\(prefix)*: "),
                "\(unreachable.stderr)")
        #expect(unreachable.stdout == "")
    }

    @Test func aGlobOutsideTheSchemaCreateAndBackupDirAreExit2() throws {
        let project = try FleetProject()
        let prefix = Self.prefix()
        let url = try Self.tenants(["a"], prefix: prefix, in: project)[0]
        let glob = PostgresTestServer.url(schema: prefix + "*")
        let host = glob.replacingOccurrences(of: "@127.0.0.1:", with: "@127.0.0.*:")
        let database = glob.replacingOccurrences(of: "/postgres?", with: "/postgre[s]?")
        let user = glob.replacingOccurrences(of: "postgres://strata@", with: "postgres://strat*a:pw@")
        let port = String(glob.split(separator: ":")[2].prefix { $0 != "/" })
        let hint = "hint: match schemas of one database: postgres://USER@HOST[:PORT]/DATABASE?schema=PATTERN; "
            + "list stores on other hosts or databases in --stores-from FILE\n"
        try FileManager.default.createDirectory(atPath: project.dir + "/backups", withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["--stores", host], "error: --stores '\(host)': the host '127.0.0.*:\(port)' holds a glob character; a pattern may only be the schema's\n" + hint),
            (["--stores", database], "error: --stores '\(database)': the database 'postgre[s]' holds a glob character; a pattern may only be the schema's\n" + hint),
            (["--stores", user], "error: --stores '\(user.replacingOccurrences(of: ":pw@", with: ":***@"))': the user 'strat*a' holds a glob character; "
                + "a pattern may only be the schema's\n" + hint),
            (["--stores", glob, "--create"], "error: --create cannot be used with --stores naming PostgreSQL schemas: a pattern names no store to create; "
                + "create each with --store URL --create, or list the URLs in --stores-from\n"),
            (["--stores", glob, "--backup-dir", "backups"], "error: migrate --backup is not available on a PostgreSQL store"),
        ]
        for (args, message) in cases {
            let r = try project.run(["migrate"] + args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
        }
        #expect(try Self.version(prefix + "a") == "1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.dir + "/backups").isEmpty)
        #expect(url.hasSuffix("?schema=\(prefix)a"))
    }
}
