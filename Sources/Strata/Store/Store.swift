import Foundation
import GRDB

/// An SQLite file that Strata manages (or is about to).
///
/// Every connection has `PRAGMA foreign_keys = ON` and Strata's SQL functions registered. Strata's
/// own operations take and return Strata's values; ``read(_:)`` and ``write(_:)`` hand out GRDB's
/// `Database` for anything else.
/// ```swift
/// let store = try Store.open(path: "app.sqlite")
/// let metadata = try store.metadata()
/// print("version \(metadata.version)")
/// ```
public final class Store: Sendable {
    public let path: String
    /// The connection: Strata's own `DatabaseQueue`, or the application's `DatabaseQueue` or `DatabasePool`
    /// (``open(database:models:hooks:options:)``). All access to SQLite goes through it; outside this module,
    /// through ``read(_:)`` and ``write(_:)``.
    let queue: any DatabaseWriter
    /// What opening the store migrated (``open(at:models:hooks:options:)``); nil for the other ways to open one.
    public let migration: MigrationRunReport?

    init(path: String, queue: any DatabaseWriter, migration: MigrationRunReport? = nil) {
        self.path = path
        self.queue = queue
        self.migration = migration
    }

    /// Opens an existing store.
    /// - Parameters:
    ///   - path: the SQLite file.
    ///   - readOnly: open without write access (status, audit, dry-run sources).
    ///   - busyTimeout: how long SQLite waits for another writer's lock.
    /// - Throws: `StoreError` (missing file, not SQLite, corrupt, read-only), `StorePathError.notARegularFile`
    ///   (a FIFO, directory or device: exit 2 before SQLite touches it).
    public static func open(path: String, readOnly: Bool = false, busyTimeout: TimeInterval = 5) throws -> Store {
        try StorePath.checkRegularFile(path)   // first: a link loop "does not exist" to fileExists
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missing(path: path) }
        do {
            return try openChecked(path: path, readOnly: readOnly, busyTimeout: busyTimeout)
        } catch let error as DatabaseError where readOnly && error.extendedResultCode == .SQLITE_READONLY_ROLLBACK {
            // A writer died mid-transaction (hot rollback journal): a read-only connection cannot roll it
            // back. Any read-write reader does so on its first read; recover like that, then open read-only.
            do {
                try openChecked(path: path, readOnly: false, busyTimeout: busyTimeout).queue.close()
                return try openChecked(path: path, readOnly: true, busyTimeout: busyTimeout)
            } catch {
                throw StoreError.from(error, path: path)
            }
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    /// Connects and touches the schema, so that "not a database" surfaces here, not later.
    private static func openChecked(path: String, readOnly: Bool, busyTimeout: TimeInterval) throws -> Store {
        let store = try connectUnmapped(path: path, readOnly: readOnly, busyTimeout: busyTimeout)
        _ = try store.queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        return store
    }

    /// Opens (creating when missing) a connection with Strata's configuration.
    static func connect(path: String, readOnly: Bool = false, busyTimeout: TimeInterval = 5) throws -> Store {
        do {
            return try connectUnmapped(path: path, readOnly: readOnly, busyTimeout: busyTimeout)
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    /// ``connect(path:readOnly:busyTimeout:)`` throwing GRDB's errors as they are.
    private static func connectUnmapped(path: String, readOnly: Bool, busyTimeout: TimeInterval) throws -> Store {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.readonly = readOnly
        // sqlite3_busy_timeout takes milliseconds in an Int32: keep the value finite and in range.
        config.busyMode = .timeout(busyTimeout.isFinite ? min(max(busyTimeout, 0), 1_000_000) : 5)
        config.prepareDatabase { db in
            db.registerStrataFunctions()
        }
        // The connection's `Database.description` is its label: code that only has the `Database` (reading
        // Strata's own tables inside a transaction) names the store by it in `StoreError.corrupt`.
        config.label = path
        return Store(path: path, queue: try DatabaseQueue(path: path, configuration: config))
    }

    /// The recorded metadata.
    /// - Throws: `StoreError.notAdopted` when the file has none.
    public func metadata() throws -> StoreMetadata {
        guard let metadata = try wrap({ try queue.read { try StoreMetadata.read($0) } }) else {
            throw StoreError.notAdopted(path: path)
        }
        return metadata
    }

    /// The recorded version, read alone (``metadata()`` decodes the whole record).
    /// - Throws: `StoreError.notAdopted` when the file has no metadata.
    func version() throws -> Int {
        guard let version = try wrap({ try queue.read { try StoreMetadata.version($0) } }) else {
            throw StoreError.notAdopted(path: path)
        }
        return version
    }

    /// Runs `body`, turning GRDB errors into `StoreError`s.
    func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as DatabaseError { throw StoreError.from(error, path: path) }
    }
}
