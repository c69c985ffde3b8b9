import Foundation
import StrataTestSupport
import Testing

/// SPEC §14.2 "every statement runs under `SET LOCAL lock_timeout` (`--ddl-lock-timeout`)" beyond `migrate`:
/// `batch update|delete`, `audit` (one store and a fleet), `meta set`, `repair` and `adopt` take
/// `--ddl-lock-timeout`, which their lock-wait error tells the user to raise. Before, `batch` refused the option
/// its own exit-5 hint named ("Unknown option '--ddl-lock-timeout'"), and `audit` waited for ever on a table
/// another session held exclusively. Every wait is for a lock seen in `pg_locks`, never a sleep.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresLockTimeoutCommandsCLITests {
    /// A one-version project whose `Item.name` has a rule the audit runs, its store created with two rows.
    struct Project {
        let directory: String
        let schema: String
        let url: String

        init() throws {
            directory = Temporary.directory("pglockcmds")
            try FileManager.default.createDirectory(atPath: directory + "/models", withIntermediateDirectories: true)
            try """
                version: 1
                entities:
                  Item:
                    attributes:
                      name: { type: string, minLength: 1 }
                """.write(toFile: directory + "/models/1.yaml", atomically: true, encoding: .utf8)
            schema = "t_" + UUID().uuidString.prefix(8).lowercased()
            url = PostgresTestServer.url(schema: schema)
            let created = try CLI.run(["migrate", "--create", "--store", url], in: directory)
            guard created.status == 0 else { throw Wait.Timeout(event: "creating the store: \(created.stderr)") }
            _ = try PostgresTestServer.psql(#"INSERT INTO \#(schema)."Item" ("name") VALUES ('a'), ('b')"#)
        }

        /// The names, in `_pk` order.
        func names() throws -> String {
            try PostgresTestServer.psql(#"SELECT string_agg("name", ',' ORDER BY "_pk") FROM \#(schema)."Item""#)
        }

        /// A session holding `table` in `mode` (ACCESS EXCLUSIVE: no reads either; EXCLUSIVE: reads only) until it is ended.
        func lock(_ table: String, mode: String = "ACCESS EXCLUSIVE") throws -> PostgresTestServer.BackgroundSession {
            try PostgresTestServer.background(
                "BEGIN; LOCK TABLE \(schema).\"\(table)\" IN \(mode) MODE; SELECT pg_sleep(600)",
                // An EXCLUSIVE table lock is the second ExclusiveLock: the transaction's virtualxid holds the first.
                readyWhen: { mode == "EXCLUSIVE" ? PostgresTestServer.holds($0, mode: "ExclusiveLock", count: 2)
                    : PostgresTestServer.holds($0, mode: "AccessExclusiveLock") })
        }
    }

    static let waited = "error: waited more than 0.5 s (--ddl-lock-timeout) for a lock that another session holds; "
        + "the transaction was rolled back (PostgreSQL: canceling statement due to lock timeout)"
    static let hint = "hint: find the holder in pg_locks / pg_stat_activity; retry when it has finished, or raise --ddl-lock-timeout"

    @Test(arguments: [(["batch", "update", "--entity", "Item", "--set", "name=z"], #"WITH "strata_changed" AS ("#),
                      (["batch", "delete", "--entity", "Item"], #"INSERT INTO pg_temp."strata_doomed""#)])
    func aBatchBlockedByATableLockTakesTheOptionItsHintNames(_ command: [String], _ statement: String) throws {
        let project = try Project()
        let holder = try project.lock("Item")
        defer { holder.end() }
        let blocked = try CLI.run(command + ["--ddl-lock-timeout", "0.5", "--store", project.url], in: project.directory)
        #expect(blocked.status == 5, "\(blocked.stderr)")
        #expect(blocked.stderr.hasPrefix(Self.waited + "\n  in: " + statement), "\(blocked.stderr)")
        #expect(blocked.stderr.hasSuffix(Self.hint + "\n"), "\(blocked.stderr)")
        holder.end()
        #expect(try project.names() == "a,b")
    }

    @Test func anAuditBlockedByATableLockEndsWithExit5InsteadOfWaitingForEver() throws {
        let project = try Project()
        let holder = try project.lock("Item")
        defer { holder.end() }
        let blocked = try CLI.run(["audit", "--ddl-lock-timeout", "0.5", "--store", project.url], in: project.directory)
        #expect(blocked.status == 5, "\(blocked.stderr)")
        #expect(blocked.stdout == "")
        #expect(blocked.stderr.hasPrefix(Self.waited + "\n  in: "), "\(blocked.stderr)")
        #expect(blocked.stderr.hasSuffix(Self.hint + "\n"), "\(blocked.stderr)")

        let list = project.directory + "/stores.txt"
        try (project.url + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let fleet = try CLI.run(["audit", "--stores-from", list, "--ddl-lock-timeout", "0.5", "--format", "json"], in: project.directory)
        #expect(fleet.status == 5, "\(fleet.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(fleet.stdout.utf8)) as? [String: Any]
        let row = ((document?["fleet"] as? [String: Any])?["stores"] as? [[String: Any]])?.first
        #expect(row?["exitCode"] as? Int == 5)
        // A row carries the library's message (no command-line flag in it).
        #expect((row?["message"] as? String)?.hasPrefix("waited more than 0.5 s (lock_timeout) for a lock that another session holds") == true,
                "\(fleet.stdout)")

        holder.end()
        let free = try CLI.run(["audit", "--ddl-lock-timeout", "0.5", "--store", project.url], in: project.directory)
        #expect(free.status == 0, "\(free.stderr)")
    }

    @Test func metaSetBlockedOnStrataMetadataTakesTheOption() throws {
        let project = try Project()
        // Reads go on (`meta set` reads the metadata first); the write waits.
        let holder = try project.lock("strata_metadata", mode: "EXCLUSIVE")
        defer { holder.end() }
        let blocked = try CLI.run(["meta", "set", "region", "eu", "--ddl-lock-timeout", "0.5", "--store", project.url], in: project.directory)
        #expect(blocked.status == 5, "\(blocked.stderr)")
        #expect(blocked.stderr.hasPrefix(Self.waited + "\n  in: INSERT INTO \"strata_metadata\""), "\(blocked.stderr)")
        holder.end()
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM \(project.schema).strata_metadata WHERE key = 'region'") == "0")
    }

    @Test func anSQLiteStoreAcceptsAndIgnoresTheOption() throws {
        let project = try CLI.exampleProject()
        #expect(try CLI.run(["migrate", "--create", "--store", "app.sqlite"], in: project).status == 0)
        for command in [["batch", "update", "--entity", "Recipe", "--set", "rating=1"], ["audit"], ["meta", "set", "region", "eu"], ["repair"]] {
            let result = try CLI.run(command + ["--ddl-lock-timeout", "0.5", "--store", "app.sqlite"], in: project)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let bad = try CLI.run(["batch", "delete", "--entity", "Recipe", "--ddl-lock-timeout", "0", "--store", "app.sqlite"], in: project)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--ddl-lock-timeout must be a number of seconds from 0.001 to 1000000, got '0.0'"), "\(bad.stderr)")
    }
}
