import Foundation
import GRDB
import Strata
@testable import StrataCore   // SHA256, internal to the library
import StrataTestSupport

/// Child processes, file hashes and a bench-only v5 for the crash, concurrency, dry-run and fault tests.
enum E2E {
    /// A `strata` process running in the background, its output going to files (no pipe to drain).
    final class Child {
        let process: Process
        let stdoutPath: String
        let stderrPath: String

        init(_ args: [String], in directory: String, environment: [String: String] = [:], executable: String = CLI.binary) throws {
            let output = Temporary.directory("child")
            stdoutPath = output + "/stdout"
            stderrPath = output + "/stderr"
            _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
            _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
            process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = args
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            var env = ProcessInfo.processInfo.environment
            for key in ["STRATA_STORE", "STRATA_MODELS", "STRATA_MIGRATIONS"] { env.removeValue(forKey: key) }
            for (key, value) in environment { env[key] = value }
            process.environment = env
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
            try process.run()
        }

        /// Sends SIGKILL and waits for the process to be gone.
        func kill() {
            if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        /// Waits and returns what `CLI.run` would have.
        func wait() -> CLI.Result {
            process.waitUntilExit()
            defer {
                try? FileManager.default.removeItem(atPath: stdoutPath)
                try? FileManager.default.removeItem(atPath: stderrPath)
            }
            return CLI.Result(status: process.terminationStatus,
                              stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
                              stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
        }
    }

    /// SHA-256 of a file's bytes, or nil when it does not exist.
    static func hash(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { SHA256.hex($0) }
    }

    /// Hashes of the files a read-only run must not change: the main file, `-wal` and `-journal`.
    static func storeHashes(_ path: String) -> [String?] {
        [hash(path), hash(path + "-wal"), hash(path + "-journal")]
    }

    /// Copies a file over another (removing the destination and its journal files first).
    static func copy(_ source: String, to destination: String) throws {
        for suffix in ["", "-journal", "-wal", "-shm"] where FileManager.default.fileExists(atPath: destination + suffix) {
            try FileManager.default.removeItem(atPath: destination + suffix)
        }
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    /// A statement's rows as one text line each (columns joined by `|`), read on a fresh connection.
    static func rows(_ path: String, _ sql: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map(text).joined(separator: "|")
            }
        }
    }

    /// Runs SQL on a fresh connection (to fill or hand-edit a store between runs).
    static func execute(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { try $0.execute(sql: sql) }
    }

    static func text(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let i): return String(i)
        case .double(let d): return String(d)
        case .string(let s): return s
        case .blob(let b): return "x'" + b.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }

    // MARK: - The bench-only v5

    /// v4 with `Recipe.ingredients` changed from cascade to nullify: the foreign key `Ingredient.recipe`
    /// changes its ON DELETE action, so the v4 → v5 step rebuilds the Ingredient table.
    static let v5Model = """
        version: 5
        entities:
          Recipe:
            attributes:
              name:     { type: string, optional: false, default: Untitled, minLength: 1, maxLength: 200 }
              lastUsed: { type: date, indexed: true }
              portions: { type: int16, min: 1, max: 100, renamedFrom: servings }
              rating:   { type: int16, min: 0, max: 5, default: 0, optional: false }
              notes:    { type: string, maxLength: 2000 }
              favorite: { type: bool, default: false, optional: false }
            relationships:
              ingredients: { destination: Ingredient, toMany: true, inverse: recipe, deleteRule: nullify }
              author:      { destination: Chef, inverse: recipes, deleteRule: nullify }
            indexes: [[favorite, lastUsed]]
          Ingredient:
            attributes:
              name:     { type: string, optional: false, default: Unnamed, minLength: 1 }
              quantity: { type: string }
            relationships:
              recipe: { destination: Recipe, inverse: ingredients, deleteRule: nullify }
          Chef:
            attributes:
              name:  { type: string, optional: false, default: Anonymous }
              email: { type: string, pattern: "[^@ ]+@[^@ ]+" }
            relationships:
              recipes: { destination: Recipe, toMany: true, inverse: author, deleteRule: nullify }
            uniqueness: [[email]]
        """

    /// A hook in the same transaction as the v5 rebuild: every salt gets a new quantity.
    static let v5Hook = """
        id: more-salt
        after: 5
        steps:
          - batchUpdate: { entity: Ingredient, predicate: "name == 'salt'", propertiesToUpdate: { quantity: "2 tsp" } }
        """

    /// The example project plus v5 and its hook: v1 → v5 adds a table and columns, renames a column,
    /// deletes drafts (cascading to ingredients), marks favorites, rebuilds Ingredient and updates it.
    static func benchProject() throws -> String {
        let dir = try CLI.exampleProject()
        try v5Model.write(toFile: dir + "/models/5.yaml", atomically: true, encoding: .utf8)
        try v5Hook.write(toFile: dir + "/migrations/more-salt.yaml", atomically: true, encoding: .utf8)
        return dir
    }
}

extension E2E {
    /// An `sqlite3` shell killed in the middle of an UPDATE of every `Recipe`: the store's `-journal` is hot
    /// afterwards (see `SQLiteShell`).
    static func killWriterMidTransaction(_ path: String) throws {
        try SQLiteShell.midTransaction(path, #"UPDATE "Recipe" SET "name" = "name" || '-changed'"#).kill()
    }

    static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }
}
