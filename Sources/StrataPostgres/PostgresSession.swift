import Foundation
import PostgresNIO
import StrataCore

/// One connection to a PostgreSQL store's server: the one place StrataPostgres hands statements to
/// PostgresNIO. Every statement is an `SQLText` rendered for PostgreSQL, its values bound as `$n`.
struct PostgresSession: Sendable {
    let connection: PostgresConnection
    let url: PostgresStoreURL
    let logger: Logger
    /// Whether the caller holds one transaction around the whole run (a dry run, rolled back at its end):
    /// `transaction` then only sets its `SET LOCAL`s, without `BEGIN`, `COMMIT` or `ROLLBACK` of its own.
    var insideRunTransaction = false

    /// Connects as `url` says, with `application_name` = `strata <version> pid@host` (SPEC §14.2), and
    /// sets the session's `search_path` to the store's schema. A socket directory as the host connects to
    /// its Unix-domain socket, without TLS whatever `sslmode` says (as libpq). The server must accept the
    /// connection and the login within the URL's `connect_timeout` (default 10 s).
    /// - Throws: `PostgresStoreError.connection` when the server cannot be reached, does not answer in time or
    ///   refuses the login.
    static func connect(_ url: PostgresStoreURL) async throws(PostgresStoreError) -> PostgresSession {
        var logger = Logger(label: "strata.postgres")
        logger.logLevel = .critical
        let tls = url.isUnixSocket ? .disable : try tls(for: url)
        let timeout = url.connectTimeout ?? PostgresStoreURL.defaultConnectTimeout
        func attempt(_ tls: PostgresConnection.Configuration.TLS) async throws -> PostgresConnection {
            var configuration = if let socket = url.socketPath {
                PostgresConnection.Configuration(unixSocketPath: socket, username: url.user, password: url.password, database: url.database)
            } else {
                PostgresConnection.Configuration(host: url.host, port: url.port, username: url.user, password: url.password,
                                                 database: url.database, tls: tls)
            }
            configuration.options.additionalStartupParameters = [("application_name", applicationName)]
            configuration.options.connectTimeout = .seconds(Int64(timeout))
            return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        }
        let connection: PostgresConnection
        do {
            if url.sslMode == .allow && !url.isUnixSocket {
                // libpq's allow: plain first; a login the server refuses (a hostssl-only pg_hba.conf line)
                // is tried once more with TLS. A server that cannot be reached is not tried twice.
                do {
                    connection = try await attempt(.disable)
                } catch let error as PSQLError where error.code == .server {
                    connection = try await attempt(tls)
                }
            } else {
                connection = try await attempt(tls)
            }
        } catch {
            throw .connection(store: url.description, message: Self.connectionMessage(of: error, url: url, timeout: timeout))
        }
        let session = PostgresSession(connection: connection, url: url, logger: logger)
        try await session.execute(PostgresSchemaSQL.setSearchPath(url.schema, local: false))
        return session
    }

    /// `strata <version> <pid>@<host>`, the name other sessions see in `pg_stat_activity`.
    static var applicationName: String {
        "strata \(StrataVersion.current) \(getpid())@\(ProcessInfo.processInfo.hostName)"
    }

    func close() async {
        try? await connection.close()
    }

    /// Runs one statement, discarding any rows.
    func execute(_ statement: SQLText) async throws(PostgresStoreError) {
        _ = try await rows(statement)
    }

    /// Runs one query and returns its rows.
    func rows(_ statement: SQLText) async throws(PostgresStoreError) -> [PostgresRandomAccessRow] {
        let (sql, arguments) = statement.rendered(for: .postgresql)
        return try await run(sql, arguments).rows
    }

    /// Runs one statement rendered by a ``PostgresRenderer`` and returns its rows and the number of rows it
    /// inserted, updated or deleted (the command tag's count).
    func run(_ rendering: PostgresRenderer.Rendering) async throws(PostgresStoreError) -> (rows: [PostgresRandomAccessRow], affected: Int) {
        try await run(rendering.sql, rendering.arguments)
    }

    func run(_ sql: String, _ arguments: [Value]) async throws(PostgresStoreError) -> (rows: [PostgresRandomAccessRow], affected: Int) {
        let binds = Self.bindings(arguments)
        do {
            let result = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).get()
            return (result.rows.map { PostgresRandomAccessRow($0) }, result.metadata.rows ?? 0)
        } catch {
            throw .server(message: Self.message(of: error), sqlState: (error as? PSQLError)?.serverInfo?[.sqlState], statement: sql,
                          constraint: (error as? PSQLError)?.serverInfo?[.constraintName])
        }
    }

    /// `arguments` as PostgreSQL parameters, each sent with its type.
    static func bindings(_ arguments: [Value]) -> PostgresBindings {
        var binds = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: binds.appendNull()
            case .integer(let i): binds.append(i)
            case .real(let d): binds.append(d)
            case .text(let s): binds.append(s)
            case .blob(let b): binds.append(ByteBuffer(bytes: b))
            }
        }
        return binds
    }

    /// The single value of a one-row, one-column query, decoded as `T` (nil for NULL or no row).
    func value<T: PostgresDecodable>(_ statement: SQLText, as type: T.Type) async throws(PostgresStoreError) -> T? {
        guard let row = try await rows(statement).first, row[0].bytes != nil else { return nil }
        return try Self.decode(row[0], as: T.self, statement: statement)
    }

    /// `cell` decoded as `T`.
    static func decode<T: PostgresDecodable>(_ cell: PostgresCell, as type: T.Type, statement: SQLText) throws(PostgresStoreError) -> T {
        do { return try cell.decode(T.self) } catch {
            throw .server(message: "unexpected value in column \(cell.columnName): \(error)", sqlState: nil,
                          statement: statement.rendered(for: .postgresql).sql)
        }
    }

    /// Runs `body` in one transaction (`BEGIN`, `SET LOCAL search_path`, `SET LOCAL lock_timeout`): committed
    /// when it returns, rolled back when it throws (a lock wait past `lockTimeout` as `PostgresLockWaitError`, exit 5).
    func transaction<T: Sendable>(lockTimeout: Double, _ body: () async throws -> T) async throws -> T {
        if insideRunTransaction {
            try await execute(PostgresSchemaSQL.setSearchPath(url.schema, local: true))
            try await execute("SET LOCAL lock_timeout = \(keyword: String(Int((lockTimeout * 1000).rounded())))")
            return try await body()
        }
        try await execute("BEGIN")
        do {
            try await execute(PostgresSchemaSQL.setSearchPath(url.schema, local: true))
            try await execute("SET LOCAL lock_timeout = \(keyword: String(Int((lockTimeout * 1000).rounded())))")
            let result = try await body()
            try await execute("COMMIT")
            return result
        } catch {
            try? await execute("ROLLBACK")
            throw PostgresLockWaitError.lockWait(error, seconds: lockTimeout)
        }
    }

    /// The server's message for `error`, without PostgresNIO's debugging details.
    static func message(of error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return message + (error.serverInfo?[.detail].map { " (\($0))" } ?? "")
            }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}
