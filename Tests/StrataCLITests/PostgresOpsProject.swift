import Foundation
import StrataTestSupport

/// A project whose three steps each touch one table only (version 2 adds `Alpha.note`, 3 `Beta.note`,
/// 4 `Gamma.note`), so a test that locks one table stops a run at a chosen step; and its store on the
/// throwaway PostgreSQL server, created at version 1.
struct PostgresOpsProject {
    let directory: String
    let schema: String
    let url: String

    /// The tables in step order, with the version a run stopped at that table's step stays at.
    static let steps = [("Alpha", 1), ("Beta", 2), ("Gamma", 3)]

    init() throws {
        directory = Temporary.directory("pgops")
        let models = directory + "/models"
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        let names = Self.steps.map(\.0)
        for version in 1...4 {
            var yaml = "version: \(version)\nentities:\n"
            for (index, name) in names.enumerated() {
                yaml += "  \(name):\n    attributes:\n      name: { type: string }\n"
                if version >= index + 2 { yaml += "      note: { type: string }\n" }
            }
            try yaml.write(toFile: models + "/\(version).yaml", atomically: true, encoding: .utf8)
        }
        schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        url = PostgresTestServer.url(schema: schema)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", url], in: directory)
        guard created.status == 0 else { throw Wait.Timeout(event: "creating the store: \(created.stderr)") }
    }

    /// The recorded version.
    func version() throws -> String {
        try PostgresTestServer.psql("SELECT value FROM \(schema).strata_metadata WHERE key = 'strata.version'")
    }

    /// The `migrate` history rows as `from→to` lines, in order.
    func steps() throws -> [String] {
        try PostgresTestServer.psql("""
            SELECT "fromVersion" || '→' || "toVersion" FROM \(schema).strata_history WHERE kind = 'migrate' ORDER BY id
            """).split(separator: "\n").map(String.init)
    }

    /// The tables that have a `note` column: the layout the schema really has.
    func tablesWithNote() throws -> [String] {
        try PostgresTestServer.psql("""
            SELECT table_name FROM information_schema.columns WHERE table_schema = '\(schema)' AND column_name = 'note' \
            ORDER BY table_name
            """).split(separator: "\n").map(String.init)
    }

    /// Starts a session that holds `table` in ACCESS EXCLUSIVE mode until it is ended.
    func lock(_ table: String) throws -> PostgresTestServer.BackgroundSession {
        try PostgresTestServer.background(
            "BEGIN; LOCK TABLE \(schema).\"\(table)\" IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(600)",
            readyWhen: { PostgresTestServer.holds($0, mode: "AccessExclusiveLock") })
    }

    /// The query true once the `strata` process `pid` waits for a lock.
    static func waitsForLock(_ pid: Int32) -> String {
        PostgresTestServer.waitsForLock("strata % \(pid)@%")
    }
}
