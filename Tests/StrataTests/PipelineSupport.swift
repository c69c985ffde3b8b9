import Foundation
import GRDB
@testable import Strata
@testable import StrataCore   // SHA256, internal to the library
import StrataTestSupport

/// Stores, file hashes and child processes for the pipeline tests.
enum PipelineSupport {
    /// The holder named in a store's lock file, or nil (no file, or empty after a release).
    static func lockFileHolder(_ storePath: String) -> LockHolder? {
        (try? String(contentsOfFile: StoreLock.lockPath(forStore: storePath), encoding: .utf8)).flatMap(LockHolder.init(fileText:))
    }

    static let yaml = """
        version: 1
        entities:
          Item:
            attributes:
              name: { type: string }
              n:    { type: int64 }
        """

    /// A closed Strata store with `rows` Item rows, in WAL or rollback-journal mode.
    static func makeStore(rows: Int, wal: Bool = false, directory: String = TestStore.directory()) throws -> String {
        let model = try ModelLoader.load(yaml: yaml, file: "model.yaml")
        let path = directory + "/store.sqlite"
        let store = try StoreCreator.create(at: path, model: model)
        try store.queue.writeWithoutTransaction { db in
            if wal { try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try insert(db, rows: rows)
        }
        try store.queue.close()
        return path
    }

    /// Inserts `rows` Item rows named `item-N…` (about 60 bytes each).
    static func insert(_ db: Database, rows: Int, from start: Int = 1) throws {
        guard rows > 0 else { return }
        try db.execute(sql: """
            WITH RECURSIVE seq(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
            INSERT INTO "Item" ("name", "n") SELECT 'item-' || i || '-' || hex(zeroblob(24)), i FROM seq
            """, arguments: [start, start + rows - 1])
    }

    /// SHA-256 of a file's bytes, or nil when it does not exist.
    static func hash(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return SHA256.hex(data)
    }

    /// Hashes of the store's main file and `-wal` (the files a reader must not change).
    static func storeHashes(_ path: String) -> [String?] { [hash(path), hash(path + "-wal")] }

    /// Every Item row (key, name, number), to compare a copy with what it was copied from.
    static func items(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: #"SELECT "_pk", "name", "n" FROM "Item" ORDER BY "_pk""#).map { row in
            row.databaseValues.map(MigrationSupport.text).joined(separator: "|")
        }
    }

    static func items(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read(items)
    }

    static func rowCount(_ path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Item""#)! }
    }

    /// Starts a child process; the caller kills it.
    static func spawn(_ executable: String, _ arguments: [String], stdin: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let stdin { process.standardInput = stdin }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// SIGKILLs a child and reaps it.
    static func kill9(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// An `sqlite3` shell in the middle of an UPDATE of every Item (see `SQLiteShell`).
    static func writerMidTransaction(_ path: String) throws -> SQLiteShell {
        try SQLiteShell.midTransaction(path, #"UPDATE "Item" SET "name" = "name" || '-changed'"#)
    }

    /// A store whose writer died mid-transaction: the `-journal` is hot and the main file holds changed pages.
    static func storeWithHotJournal(rows: Int = 5_000) throws -> String {
        let path = try makeStore(rows: rows)
        try writerMidTransaction(path).kill()
        return path
    }
}

extension Error {
    /// The exit status of a Strata error (nil for other errors).
    var pipelineExit: ExitStatus? { (self as? StrataError)?.exitCode }
    /// The message a person sees.
    var pipelineMessage: String { "\(self)" }
}
