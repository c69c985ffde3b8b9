import Foundation
import StrataTestSupport
import Testing

/// `strata history` and `strata meta get|set|list` on a PostgreSQL store: the same text and JSON as on
/// SQLite (one renderer), with the exit codes SQLite's give.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresReadCommandsCLITests {
    /// The example project (models 1–4, two hooks) and its store created on the server at version 4, so the
    /// hooks are recorded as not needed.
    static func store() throws -> (project: String, schema: String, url: String) {
        let project = try CLI.exampleProject()
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        let created = try CLI.run(["migrate", "--create", "--store", url], in: project)
        #expect(created.status == 0, "\(created.stderr)")
        return (project, schema, url)
    }

    /// `value` as JSON text with sorted keys, for comparing documents.
    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    static func rows(_ sql: String) throws -> [[String]] {
        try PostgresTestServer.psql(sql).split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func historyPrintsTheTimelineOfStepsAndHooks() throws {
        let (project, schema, url) = try Self.store()
        let steps = try Self.rows("SELECT finished, kind, \"toVersion\", duration, \"toolVersion\" FROM \(schema).strata_history ORDER BY id")
        let hooks = try Self.rows("SELECT finished, id, \"afterVersion\", status FROM \(schema).strata_hooks ORDER BY finished, id")
        #expect(steps.count == 1)
        #expect(hooks.map { $0[1] } == ["favorite-recent-recipes", "purge-abandoned-drafts"])
        // One timeline: by time finished, then version, a step before hooks (here all finished together).
        let lines = steps.map { ($0[0], Int($0[2])!, 0, "\($0[0])  create   at \($0[2])  (\(String(format: "%.3f", Double($0[3])!)) s, strata \($0[4]))") }
            + hooks.map { ($0[0], Int($0[2])!, 1, "\($0[0])  hook     \($0[1]) after v\($0[2]): \($0[3])") }
        let expected = lines.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.map(\.3)
        #expect(expected.map { $0.contains("purge-abandoned-drafts after v3") } == [true, false, false])
        let text = try CLI.run(["history", "--store", url], in: project)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == expected.joined(separator: "\n") + "\n")
        #expect(text.stderr == "")
    }

    @Test func historyJSONIsTheDocumentSQLiteGives() throws {
        let (project, _, url) = try Self.store()
        let sqlite = try CLI.run(["migrate", "--create", "--store", project + "/app.sqlite"], in: project)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        var documents: [[String: Any]] = []
        for store in [url, project + "/app.sqlite"] {
            let result = try CLI.run(["history", "--format", "json", "--store", store], in: project)
            #expect(result.status == 0, "\(result.stderr)")
            documents.append(try CLI.json(result.stdout))
        }
        // The same keys and values, but for the times (and the row id SQLite and PostgreSQL both start at 1).
        func stable(_ document: [String: Any]) throws -> String {
            var copy = document
            for list in ["migrations", "hooks"] {
                copy[list] = (document[list] as? [[String: Any]] ?? []).map { row in
                    row.filter { !["started", "finished", "duration"].contains($0.key) }
                }
            }
            return try Self.canonical(copy)
        }
        #expect(try stable(documents[0]) == stable(documents[1]))
        #expect(documents[0]["schemaVersion"] as? Int == 1)
        #expect((documents[0]["migrations"] as? [[String: Any]])?.first?["kind"] as? String == "create")
    }

    @Test func metaSetGetAndListAsOnSQLite() throws {
        let (project, schema, url) = try Self.store()
        let set = try CLI.run(["meta", "set", "region", "eu-west", "--store", url], in: project)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "region = eu-west\n")
        #expect(try CLI.run(["meta", "set", "Tier", "gold", "--store", url], in: project).status == 0)

        let get = try CLI.run(["meta", "get", "region", "--store", url], in: project)
        #expect(get.status == 0)
        #expect(get.stdout == "eu-west\n")
        let version = try CLI.run(["meta", "get", "strata.version", "--format", "json", "--store", url], in: project)
        #expect(try Self.canonical(CLI.json(version.stdout)) == #"{"key":"strata.version","schemaVersion":1,"value":"4"}"#)

        let system = Dictionary(uniqueKeysWithValues: try Self.rows("""
            SELECT key, value FROM \(schema).strata_metadata WHERE key IN ('strata.uuid', 'strata.modelHash')
            """).map { ($0[0], $0[1]) })
        let list = try CLI.run(["meta", "list", "--store", url], in: project)
        #expect(list.status == 0)
        #expect(list.stdout == """
            strata.createdAtVersion = 4
            strata.modelHash = \(system["strata.modelHash"]!)
            strata.uuid = \(system["strata.uuid"]!)
            strata.version = 4
            Tier = gold
            region = eu-west

            """)
        let json = try CLI.json(try CLI.run(["meta", "list", "--format", "json", "--store", url], in: project).stdout)
        #expect(json["user"] as? [String: String] == ["region": "eu-west", "Tier": "gold"])
        #expect((json["system"] as? [String: String])?["strata.version"] == "4")
    }

    @Test func metaErrorsHaveSQLitesExitCodes() throws {
        let (project, schema, url) = try Self.store()
        let unknown = try CLI.run(["meta", "get", "nope", "--store", url], in: project)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("error: no metadata key 'nope'"))
        for key in ["strata.version", "STRATA.x", ""] {
            let system = try CLI.run(["meta", "set", key, "1", "--store", url], in: project)
            #expect(system.status == 2)
            #expect(system.stderr.contains("error: '\(key)' is not a user key"))
        }
        #expect(try PostgresTestServer.psql("SELECT value FROM \(schema).strata_metadata WHERE key = 'strata.version'") == "4")
        let missing = try CLI.run(["history", "--store", PostgresTestServer.url()], in: project)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("the schema has no strata_ tables"))
    }

    @Test func metaSetWaitsForARunningMigrationAndSaysBusy() throws {
        let project = try PostgresOpsProject()
        let holder = try project.lock("Alpha")
        defer { holder.end() }
        let run = try E2E.Child(["migrate", "--ddl-lock-timeout", "600", "--store", project.url], in: project.directory)
        defer { run.kill() }
        let pid = run.process.processIdentifier
        #expect(Wait.until(timeout: 60) { (try? PostgresTestServer.psql(PostgresOpsProject.waitsForLock(pid))) == "t" })
        let busy = try CLI.run(["meta", "set", "region", "x", "--lock-timeout", "0.2", "--store", project.url], in: project.directory)
        #expect(busy.status == 5)
        #expect(busy.stderr.contains("is busy: another strata run holds its lock (strata "), "\(busy.stderr)")
        holder.end()
        #expect(run.wait().status == 0)
        #expect(try CLI.run(["meta", "set", "region", "x", "--store", project.url], in: project.directory).status == 0)
    }
}
