import Foundation
import StrataTestSupport

/// One project migrated by the `strata` binary on an SQLite store and on a PostgreSQL schema, for tests that
/// expect the same outcome on both: models 1 and 2 with the same entities (a hook after 2 seeds the same
/// objects on both through `batchInsert`), model 3 and whatever `files` add in `migrations/` (a hook after 3,
/// a mapping file from 2 to 3).
struct EngineParity {
    var dir: String
    var url: String
    var schema: String
    var sqlite: CLI.Result
    var postgres: CLI.Result

    /// Creates both stores at version 1, then runs `migrate` (with `arguments`) on each.
    static func run(v2 entities: String, v3: String, files: [String: String], arguments: [String] = []) throws -> EngineParity {
        let (dir, _) = try MappingProject.project(v1: "version: 1\n" + entities, v2: "version: 2\n" + entities, files: files, name: "parity")
        try ("version: 3\n" + v3).write(toFile: dir + "/models/3.yaml", atomically: true, encoding: .utf8)
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: dir)
        precondition(created.status == 0, created.stderr)
        let sqlite = try CLI.run(["migrate", "--store", "app.sqlite", "--now", "2024-05-21T00:00:00Z"] + arguments, in: dir)
        let postgres = try CLI.run(["migrate", "--store", url, "--now", "2024-05-21T00:00:00Z"] + arguments, in: dir)
        return EngineParity(dir: dir, url: url, schema: schema, sqlite: sqlite, postgres: postgres)
    }

    /// The SQLite store's UUID and name written as the PostgreSQL store's, timings and SQL statement counts left out.
    var sameSQLiteOutput: String { same(sqlite.stdout) }
    var samePostgresOutput: String { Self.untimed(postgres.stdout) }
    var sameSQLiteErrors: String { same(sqlite.stderr) }

    func same(_ text: String) -> String {
        let sqliteUUID = try? E2E.rows(dir + "/app.sqlite", "SELECT value FROM strata_metadata WHERE key = 'strata.uuid'").first
        let uuid = try? psql("SELECT value FROM strata_metadata WHERE key = 'strata.uuid'").first
        var text = Self.untimed(text)
        if let sqliteUUID, let uuid { text = text.replacingOccurrences(of: sqliteUUID, with: uuid) }
        return text.replacingOccurrences(of: "app.sqlite", with: url)
    }

    static func untimed(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9]+ SQL statements?(, [0-9.]+ m?s)?"#, with: "N SQL statements", options: .regularExpression)
            .replacingOccurrences(of: #"[0-9.]+ m?s\b"#, with: "T", options: .regularExpression)
    }

    func psql(_ sql: String) throws -> [String] {
        try PostgresTestServer.psql("SET search_path TO \"\(schema)\";\n" + sql).split(separator: "\n").map(String.init).filter { $0 != "SET" }
    }

    /// `query`'s rows on each store (text, one per row; write it in SQL both engines read alike).
    func rows(_ query: String) throws -> (sqlite: [String], postgres: [String]) {
        (try E2E.rows(dir + "/app.sqlite", query), try psql(query))
    }

    /// The store's version on each engine.
    func versions() throws -> (sqlite: String?, postgres: String?) {
        (try MappingProject.version(dir + "/app.sqlite"), try psql("SELECT value FROM strata_metadata WHERE key = 'strata.version'").first)
    }
}
