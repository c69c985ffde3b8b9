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

    /// Connects as `url` says, with `application_name` = `strata <version> pid@host` (SPEC §14.2) and the
    /// URL's `options` sent at login, and sets the session's `search_path` to the store's schema. The hosts
    /// are tried in order (shuffled with `load_balance_hosts=random`); the first that accepts the login and
    /// is of the kind `target_session_attrs` asks for is kept (libpq's `prefer-standby`: a standby in a first
    /// pass, any in a second). A socket directory as the host connects to its Unix-domain socket, without
    /// TLS whatever `sslmode` says (as libpq). Each host must accept the connection and the login within the
    /// URL's `connect_timeout` (default 10 s).
    /// - Throws: `PostgresStoreError.connection` when no host can be reached, answers in time, accepts the
    ///   login and is of the kind asked for: naming each host tried and why.
    static func connect(_ url: PostgresStoreURL) async throws(PostgresStoreError) -> PostgresSession {
        var logger = Logger(label: "strata.postgres")
        logger.logLevel = .critical
        let tls = url.hosts.allSatisfy(\.isUnixSocket) ? .disable : try tls(for: url)
        let timeout = url.connectTimeout ?? PostgresStoreURL.defaultConnectTimeout
        let order = url.loadBalanceHosts ? url.hosts.shuffled() : url.hosts
        let passes: [PostgresTargetSessionAttrs] = url.targetSessionAttrs == .preferStandby ? [.standby, .any] : [url.targetSessionAttrs]
        var failures: [(endpoint: PostgresStoreURL.Endpoint, reason: String)] = []
        for wanted in passes {
            for endpoint in order {
                let connection: PostgresConnection
                do {
                    connection = try await open(endpoint, of: url, tls: tls, timeout: timeout, logger: logger)
                } catch {
                    failures.append((endpoint, connectionMessage(of: error, url: url, endpoint: endpoint, timeout: timeout)))
                    continue
                }
                let refused: String?
                do { refused = try await mismatch(of: connection, wanted: wanted, logger: logger) } catch { refused = message(of: error) }
                if let refused {
                    failures.append((endpoint, refused))
                    try? await connection.close()
                    continue
                }
                let session = PostgresSession(connection: connection, url: url, logger: logger)
                try await session.execute(PostgresSchemaSQL.setSearchPath(url.schema, local: false))
                return session
            }
        }
        throw .connection(store: url.description, message: Self.failureMessage(failures, url: url))
    }

    /// One connection to `endpoint`, logged in: libpq's `sslmode=allow` tries plain first and, when the server
    /// refuses that login (a hostssl-only pg_hba.conf line), once more with TLS; a server that cannot be
    /// reached is not tried twice.
    static func open(_ endpoint: PostgresStoreURL.Endpoint, of url: PostgresStoreURL, tls: PostgresConnection.Configuration.TLS,
                     timeout: Int, logger: Logger) async throws -> PostgresConnection {
        func attempt(_ tls: PostgresConnection.Configuration.TLS) async throws -> PostgresConnection {
            var configuration = if let socket = endpoint.socketPath {
                PostgresConnection.Configuration(unixSocketPath: socket, username: url.user, password: endpoint.password, database: url.database)
            } else {
                PostgresConnection.Configuration(host: endpoint.host, port: endpoint.port, username: url.user, password: endpoint.password,
                                                 database: url.database, tls: tls)
            }
            // The server applies `options` first and the other startup parameters after: Strata's name wins, and
            // `extra_float_digits` 1 (PostgreSQL 12+: a double's shortest exact text, which `string()` and `round()`
            // of a double read, as SQLite's) whatever the server's or the role's setting.
            configuration.options.additionalStartupParameters = (url.options.isEmpty ? [] : [("options", PostgresStoreURL.Setting.optionsText(url.options))])
                + [("application_name", applicationName), ("extra_float_digits", "1")]
            configuration.options.connectTimeout = .seconds(Int64(timeout))
            return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        }
        if url.sslMode == .allow && !endpoint.isUnixSocket {
            do {
                return try await attempt(.disable)
            } catch let error as PSQLError where error.code == .server {
                return try await attempt(tls)
            }
        }
        return try await attempt(tls)
    }

    /// Why the server of `connection` is not of the kind `wanted` (libpq's words), or nil when it is:
    /// `read-write`/`read-only` ask `SHOW transaction_read_only`, `primary`/`standby` `pg_is_in_recovery()`.
    static func mismatch(of connection: PostgresConnection, wanted: PostgresTargetSessionAttrs, logger: Logger) async throws -> String? {
        switch wanted {
        case .any, .preferStandby:
            return nil
        case .readWrite, .readOnly:
            let rows = try await connection.query(PostgresQuery(unsafeSQL: "SHOW transaction_read_only"), logger: logger).get().rows
            let readOnly = try rows.first?.decode(String.self) == "on"
            if wanted == .readWrite && readOnly { return "session is read-only" }
            if wanted == .readOnly && !readOnly { return "session is not read-only" }
            return nil
        case .primary, .standby:
            let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_catalog.pg_is_in_recovery()"), logger: logger).get().rows
            let inRecovery = try rows.first?.decode(Bool.self) == true
            if wanted == .primary && inRecovery { return "server is in hot standby mode" }
            if wanted == .standby && !inRecovery { return "server is not in hot standby mode" }
            return nil
        }
    }

    /// The message of a connection no host gave: one host's reason alone, as libpq; for several, each host
    /// tried (once, its last reason) and why.
    static func failureMessage(_ failures: [(endpoint: PostgresStoreURL.Endpoint, reason: String)], url: PostgresStoreURL) -> String {
        var reasons: [PostgresStoreURL.Endpoint: String] = [:]
        var tried: [PostgresStoreURL.Endpoint] = []
        for (endpoint, reason) in failures {
            if reasons[endpoint] == nil { tried.append(endpoint) }
            reasons[endpoint] = reason
        }
        if url.hosts.count == 1, let only = tried.first { return reasons[only]! }
        let wanted = url.targetSessionAttrs == .any ? "" : " (target_session_attrs=\(url.targetSessionAttrs.rawValue))"
        return "no host accepted the connection\(wanted): " + tried.map { "\($0.description): \(reasons[$0]!)" }.joined(separator: "; ")
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
