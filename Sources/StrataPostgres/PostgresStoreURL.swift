import Foundation
import StrataCore

/// A PostgreSQL store named on the command line: `postgres://user[:password]@host[:port]/database?schema=app&sslmode=prefer`
/// (or `postgresql://`). SPEC §14.2: the store is a schema in an existing database.
///
/// The password comes from the URL, else `PGPASSWORD`, else the password file (`PGPASSFILE`, default
/// `~/.pgpass`, as libpq reads it), else none (trust or peer authentication). What the URL leaves out is
/// taken from libpq's environment variables: `PGUSER`, `PGHOST`, `PGPORT`, `PGDATABASE`, `PGSSLMODE`,
/// `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY`, `PGCONNECT_TIMEOUT`. A client certificate is
/// `sslcert=`/`sslkey=`, else `~/.postgresql/postgresql.crt` and `.key` when both exist (as libpq).
///
/// A host that is an absolute path (`host=/var/run/postgresql`, a percent-encoded host
/// `postgres://app@%2Fvar%2Frun%2Fpostgresql/shop`, or `PGHOST`) is the directory of the server's
/// Unix-domain socket `<directory>/.s.PGSQL.<port>`; as libpq, `sslmode` and the TLS files are not used there.
///
/// ```swift
/// let url = try PostgresStoreURL(parsing: "postgres://app@db.internal:5432/shop?schema=inventory")
/// url.schema   // "inventory"
/// let local = try PostgresStoreURL(parsing: "postgres://app@/shop?host=/var/run/postgresql")
/// local.socketPath   // "/var/run/postgresql/.s.PGSQL.5432"
/// ```
public struct PostgresStoreURL: Hashable, Sendable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    /// The schema holding the store's tables and Strata's `strata_` tables (default `public`).
    public var schema: String
    /// `sslmode=`: whether and how TLS is used (default `prefer`, as libpq).
    public var sslMode: PostgresSSLMode
    /// `sslrootcert=`: the PEM file of the certificate authorities `verify-ca` and `verify-full` trust
    /// (default: the system's).
    public var sslRootCert: String?
    /// `sslcert=` and `sslkey=`: the client certificate (PEM) and its private key (PEM), for servers that
    /// authenticate clients by certificate.
    public var sslCert: String?
    public var sslKey: String?
    /// `connect_timeout=` (else `PGCONNECT_TIMEOUT`): the seconds to wait for the server to accept the
    /// connection and the login, at least 2 (as libpq); nil (absent, 0 or negative) is Strata's default,
    /// ``defaultConnectTimeout``.
    public var connectTimeout: Int?

    /// The seconds Strata waits for a server when the URL gives no `connect_timeout` (libpq waits forever).
    public static let defaultConnectTimeout = 10

    /// Whether ``host`` is the directory of a Unix-domain socket rather than a TCP host (it starts with `/`).
    public var isUnixSocket: Bool { host.hasPrefix("/") }

    /// The server's Unix-domain socket, `<host>/.s.PGSQL.<port>`, when ``host`` is a socket directory.
    public var socketPath: String? { isUnixSocket ? Self.socketPath(directory: host, port: port) : nil }

    static func socketPath(directory: String, port: Int) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + ".s.PGSQL.\(port)"
    }

    /// Whether `store` names a PostgreSQL store (rather than an SQLite file).
    public static func isPostgres(_ store: String) -> Bool {
        let lower = store.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Parses a store URL.
    /// - Parameters:
    ///   - text: the `--store` value.
    ///   - environment: where `PGPASSWORD`, `PGPASSFILE` and `HOME` are read.
    /// - Throws: `PostgresStoreError.invalidURL` naming what is wrong (exit 2).
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func invalid(_ reason: String) -> PostgresStoreError { .invalidURL(url: Self.redacted(text), reason: reason) }
        guard Self.isPostgres(text) else { throw invalid("it does not start with postgres:// or postgresql://") }
        guard let components = URLComponents(string: text) else { throw invalid("it is not a valid URL") }
        // What the URL leaves out comes from libpq's environment variables; an empty one counts as unset.
        func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let user = components.user.flatMap({ $0.isEmpty ? nil : $0 }) ?? env("PGUSER") else {
            throw invalid("it names no user (postgres://USER@HOST/DATABASE)")
        }
        let path = String(components.path.drop { $0 == "/" })
        guard let database = path.isEmpty ? env("PGDATABASE") : path, !database.contains("/") else {
            throw invalid("it names no database (postgres://USER@HOST/DATABASE); Strata never creates databases")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] {
            if item.name == "application_name" {
                throw invalid("application_name= cannot be set: Strata names its sessions 'strata <version> pid@host', "
                              + "the name a run that finds the store busy quotes")
            }
            guard Self.parameters.contains(item.name) else {
                throw invalid("unknown parameter '\(item.name)' (the parameters are " + Self.parameterList + ")")
            }
            let value = item.value ?? ""
            if value.isEmpty && item.name != "sslmode" {   // an empty sslmode is refused below, with the valid ones
                let what = ["schema": "schema", "host": "host", "connect_timeout": "number of seconds"][item.name] ?? "file"
                throw invalid("\(item.name)= names no \(what)")
            }
            parameters[item.name] = value
        }
        guard let host = parameters["host"] ?? components.host.flatMap({ $0.isEmpty ? nil : $0 }) ?? env("PGHOST") else {
            throw invalid("it names no host")
        }
        let connectTimeout = try Self.connectTimeout(parameters["connect_timeout"].map { ("connect_timeout", $0) }
                                                     ?? env("PGCONNECT_TIMEOUT").map { ("PGCONNECT_TIMEOUT", $0) },
                                                     invalid: invalid)
        if parameters["sslmode"] == nil { parameters["sslmode"] = env("PGSSLMODE") }
        let schema = parameters["schema"] ?? "public"
        var sslMode = PostgresSSLMode.prefer
        if let value = parameters["sslmode"] {
            guard let mode = PostgresSSLMode(rawValue: value) else {
                throw invalid("sslmode='\(value)' is not one of " + PostgresSSLMode.allCases.map(\.rawValue).joined(separator: ", "))
            }
            sslMode = mode
        }
        // The environment's files count where the mode uses them (a URL that names them where they would
        // change nothing is refused below).
        if parameters["sslrootcert"] == nil && sslMode.verifiesCertificate { parameters["sslrootcert"] = env("PGSSLROOTCERT") }
        if parameters["sslcert"] == nil && parameters["sslkey"] == nil && sslMode != .disable {
            (parameters["sslcert"], parameters["sslkey"]) = (env("PGSSLCERT"), env("PGSSLKEY"))
        }
        let sslRootCert = parameters["sslrootcert"]
        if sslRootCert != nil && !sslMode.verifiesCertificate {
            throw invalid("sslrootcert= needs sslmode=verify-ca or sslmode=verify-full (sslmode is \(sslMode.rawValue))")
        }
        var sslCert = parameters["sslcert"], sslKey = parameters["sslkey"]
        if (sslCert == nil) != (sslKey == nil) {
            throw invalid(sslCert == nil ? "sslkey= needs sslcert= (the certificate of that key)" : "sslcert= needs sslkey= (the certificate's private key)")
        }
        if sslCert != nil && sslMode == .disable { throw invalid("sslcert= needs TLS (sslmode is disable)") }
        if sslCert == nil, sslMode != .disable, let home = env("HOME") {
            // libpq's default client certificate, used when both files exist.
            let cert = home + "/.postgresql/postgresql.crt", key = home + "/.postgresql/postgresql.key"
            if FileManager.default.fileExists(atPath: cert) && FileManager.default.fileExists(atPath: key) { (sslCert, sslKey) = (cert, key) }
        }
        guard PostgresNames.fits(schema) else { throw invalid("the schema name '\(schema)' is longer than 63 bytes") }
        guard PostgresNames.fits(database) else { throw invalid("the database name '\(database)' is longer than 63 bytes") }
        let port: Int
        if components.percentEncodedHost.map({ !$0.isEmpty }) == true, let given = components.port {
            guard (1...65535).contains(given) else { throw invalid("port \(given) is not between 1 and 65535") }
            port = given
        } else if let given = env("PGPORT") {
            guard let number = Int(given), (1...65535).contains(number) else { throw invalid("PGPORT='\(given)' is not a port between 1 and 65535") }
            port = number
        } else {
            port = 5432
        }
        if host.hasPrefix("/") {
            let socket = Self.socketPath(directory: host, port: port)
            guard socket.utf8.count <= Self.maximumSocketPathBytes else {
                throw invalid("the Unix-domain socket path '\(socket)' is longer than \(Self.maximumSocketPathBytes) bytes, the most the system takes")
            }
        }
        self.user = user
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = port
        self.database = database
        self.schema = schema
        self.sslMode = sslMode
        self.sslRootCert = sslRootCert
        self.sslCert = sslCert
        self.sslKey = sslKey
        self.connectTimeout = connectTimeout
        self.password = components.password
            ?? environment["PGPASSWORD"]
            ?? PostgresPasswordFile.password(host: self.host, port: port, database: database, user: user, environment: environment)
    }

    /// The longest Unix-domain socket path the system takes (`sockaddr_un`'s `sun_path`, less its NUL).
    static let maximumSocketPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The URL's query parameters.
    static let parameters: Set = ["schema", "host", "sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout"]
    static let parameterList = "schema, host, sslmode, sslrootcert, sslcert, sslkey and connect_timeout"

    /// `connect_timeout`'s seconds as libpq reads them: a whole number; 0 or less is no timeout of the URL's
    /// (nil: Strata's default), 1 is 2.
    static func connectTimeout(_ given: (name: String, value: String)?, invalid: (String) -> PostgresStoreError) throws(PostgresStoreError) -> Int? {
        guard let (name, value) = given else { return nil }
        guard let seconds = Int32(value.trimmingCharacters(in: .whitespaces)) else {
            throw invalid("\(name)='\(value)' is not a whole number of seconds")
        }
        return seconds <= 0 ? nil : max(2, Int(seconds))
    }

    /// The URL without its password, for messages; a socket directory is percent-encoded as the host.
    public var description: String {
        let shown = isUnixSocket ? host.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
            : host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(shown):\(port)/\(database)?schema=\(schema)"
    }

    /// `text` with the password (between `:` and `@` of the authority) replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@") else { return text }
        let authority = text[scheme.upperBound..<at]
        guard let colon = authority.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
