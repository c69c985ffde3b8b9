import Foundation
import GRDB

/// Fleets of the example's stores for the `--stores` tests: a project folder with `tenants/`, stores made
/// at v1 (or any version) with a few recipes, and stores broken in the ways a fleet meets.
struct FleetProject {
    let dir: String

    init() throws {
        dir = try CLI.exampleProject()
        try FileManager.default.createDirectory(atPath: dir + "/tenants", withIntermediateDirectories: true)
    }

    /// A store of the example at `version` with `recipes` recipes at `name` (relative to the project); its
    /// lock file, left by the `--create`, is removed unless `keepLock`.
    @discardableResult
    func store(_ name: String, version: Int = 1, recipes: Int = 40, keepLock: Bool = false) throws -> String {
        let folder = (dir + "/" + name as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path: String
        if version == 1 {
            path = try ExampleData.v1Store(in: dir, recipes: recipes, name: name)
        } else {
            let created = try CLI.run(["migrate", "--create", "--to", String(version), "--store", name], in: dir)
            precondition(created.status == 0, created.stderr)
            path = dir + "/" + name
        }
        if !keepLock { try? FileManager.default.removeItem(atPath: path + "-strata.lock") }
        return path
    }

    /// A v1 store whose schema drifted (a column added by hand): migrate and status exit 6.
    func drifted(_ name: String) throws {
        try E2E.execute(try store(name), #"ALTER TABLE "Recipe" ADD COLUMN "extra" TEXT"#)
    }

    /// A v1 store whose first recipe (used recently, so the favorites hook after v4 touches it) has a
    /// 201-character name: the hook's audit finds a maxLength violation and rolls back its step, exit 3.
    func violating(_ name: String) throws {
        try E2E.execute(try store(name), #"UPDATE "Recipe" SET "name" = replace(hex(zeroblob(201)), '00', 'x') WHERE "_pk" = 1"#)
    }

    /// A file that is not SQLite: exit 2.
    func notSQLite(_ name: String) throws {
        try "not a database\n".write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
    }

    /// A v1 store with pages in its middle overwritten: exit 1.
    func corrupt(_ name: String) throws {
        let path = try store(name, recipes: 3_000)
        let pageSize = try E2E.rows(path, "PRAGMA page_size").first.flatMap { Int($0) } ?? 4096
        let pages = (E2E.fileSize(path) ?? 0) / pageSize
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        for page in [pages / 2 - 1, pages / 2, pages / 2 + 1] {
            try handle.seek(toOffset: UInt64(page * pageSize))
            handle.write(Data(repeating: 0x7f, count: pageSize))
        }
        try handle.close()
    }

    /// Runs `strata args…` in the project with `--now` pinned.
    func run(_ args: [String], now: Bool = true) throws -> CLI.Result {
        try CLI.run(args + (now ? ["--now", ExampleData.now] : []), in: dir)
    }

    /// The store's recorded version.
    func version(_ name: String) throws -> String? {
        try E2E.rows(dir + "/" + name, "SELECT value FROM strata_metadata WHERE key = 'strata.version'").first
    }

    /// The `fleet` section of a JSON document, each store's `duration` and the fleet's removed (they vary).
    static func fleet(_ stdout: String) throws -> [String: Any] {
        var fleet = try CLI.json(stdout)["fleet"] as? [String: Any] ?? [:]
        fleet.removeValue(forKey: "duration")
        fleet["stores"] = (fleet["stores"] as? [[String: Any]] ?? []).map { store in
            var store = store
            store.removeValue(forKey: "duration")
            return store
        }
        return fleet
    }

    /// Each store's `path: exit` from a JSON document (`-` for a store that did not run).
    static func codes(_ stdout: String) throws -> [String] {
        try (fleet(stdout)["stores"] as? [[String: Any]] ?? []).map { "\($0["path"]!): \(($0["exitCode"] as? Int).map(String.init) ?? "-")" }
    }

    /// `time="0.123"` attributes replaced by `time="T"`, and `0.123 s` durations (under 10 s) by `9.999 s`,
    /// which keeps a text table's columns aligned.
    static func timeless(_ text: String) -> String {
        text.replacingOccurrences(of: #"time="[0-9.]+""#, with: #"time="T""#, options: .regularExpression)
            .replacingOccurrences(of: #"\b[0-9]\.[0-9]{3} s"#, with: "9.999 s", options: .regularExpression)
    }
}
