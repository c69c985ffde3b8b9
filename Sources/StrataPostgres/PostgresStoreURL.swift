import Foundation
import StrataCore

/// A PostgreSQL store named on the command line: `postgres://user[:password]@host[:port]/database?schema=app&sslmode=prefer`
/// (or `postgresql://`). SPEC §14.2: the store is a schema in an existing database.
///
/// The URL is read as libpq reads it: its query takes libpq's connection keywords (see
/// `PostgresConnectionKeyword` for those Strata reads, ignores and refuses); what it leaves out comes from
/// the service file's section `service=` (else `PGSERVICE`), then from libpq's environment variables
/// (`PGUSER`, `PGHOST`, `PGPORT`, `PGDATABASE`, `PGSSLMODE`, `PGOPTIONS`, `PGTARGETSESSIONATTRS`, …). The
/// password comes from the URL, the service or `PGPASSWORD`, else the password file (`passfile=`, else
/// `PGPASSFILE`, default `~/.pgpass`), line by line for each host. A client certificate is
/// `sslcert=`/`sslkey=`, else `~/.postgresql/postgresql.crt` and `.key` when both exist (as libpq).
///
/// Several hosts (`postgres://h1:5432,h2:5433/db`, `host=h1,h2&port=5432,5433`, or `PGHOST`/`PGPORT` lists;
/// one port for all hosts or one for each) are tried in order: see ``targetSessionAttrs``. A URL without a
/// host is libpq's default Unix-domain socket: `/var/run/postgresql`, then `/tmp`.
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
/// let pair = try PostgresStoreURL(parsing: "postgres://app@db-1,db-2:5433/shop?target_session_attrs=read-write")
/// pair.hosts.map(\.port)   // [5432, 5433]
/// ```
public struct PostgresStoreURL: Hashable, Sendable, CustomStringConvertible {
    public var user: String
    /// The hosts in the order they are tried (libpq's: the first that accepts the connection and is of the
    /// kind ``targetSessionAttrs`` asks for is used), each with its port and password.
    public var hosts: [Endpoint]
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
    /// `sslpassword=`: the passphrase of an encrypted `sslkey`.
    public var sslPassword: String?
    /// `ssl_min_protocol_version=` (else `PGSSLMINPROTOCOLVERSION`): the oldest TLS version accepted
    /// (default `TLSv1.2`, as libpq's).
    public var sslMinProtocolVersion: PostgresTLSVersion
    /// `ssl_max_protocol_version=` (else `PGSSLMAXPROTOCOLVERSION`): the newest TLS version offered (default
    /// none: the newest the TLS library knows).
    public var sslMaxProtocolVersion: PostgresTLSVersion?
    /// `connect_timeout=` (else `PGCONNECT_TIMEOUT`): the seconds to wait for each host to accept the
    /// connection and the login, at least 2 (as libpq); nil (absent, 0 or negative) is Strata's default,
    /// ``defaultConnectTimeout``.
    public var connectTimeout: Int?
    /// `target_session_attrs=` (else `PGTARGETSESSIONATTRS`): which kind of server to keep (default `any`).
    public var targetSessionAttrs: PostgresTargetSessionAttrs
    /// `load_balance_hosts=random` (else `PGLOADBALANCEHOSTS`): the hosts are tried in a random order.
    public var loadBalanceHosts: Bool
    /// `options=` (else `PGOPTIONS`): the server settings sent at login.
    public var options: [Setting]

    /// The seconds Strata waits for a server when the URL gives no `connect_timeout` (libpq waits forever).
    public static let defaultConnectTimeout = 10

    /// The socket directories tried for a URL without a host: Debian's and Ubuntu's libpq's, then upstream's.
    public static let defaultSocketDirectories = ["/var/run/postgresql", "/tmp"]

    /// The first host (the only one of most URLs).
    public var host: String { hosts[0].host }
    /// The first host's port.
    public var port: Int { hosts[0].port }
    /// The first host's password.
    public var password: String? { hosts[0].password }

    /// Whether the first host is the directory of a Unix-domain socket rather than a TCP host (it starts with `/`).
    public var isUnixSocket: Bool { hosts[0].isUnixSocket }

    /// The first host's Unix-domain socket, `<host>/.s.PGSQL.<port>`, when it is a socket directory.
    public var socketPath: String? { hosts[0].socketPath }

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
    ///   - environment: where libpq's variables (`PGHOST`, `PGSERVICE`, `PGPASSWORD`, …) and `HOME` are read.
    /// - Throws: `PostgresStoreError.invalidURL` naming what is wrong (exit 2).
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func invalid(_ reason: String) -> PostgresStoreError { .invalidURL(url: Self.redacted(text), reason: reason) }
        guard Self.isPostgres(text) else { throw invalid("it does not start with postgres:// or postgresql://") }
        var given = try Self.given(try PostgresURLText(text), environment: environment, invalid: invalid)
        guard let user = given["user"]?.value else {
            throw invalid("it names no user (postgres://USER@HOST/DATABASE)")
        }
        guard let database = given["dbname"]?.value, !database.contains("/") else {
            throw invalid("it names no database (postgres://USER@HOST/DATABASE); Strata never creates databases")
        }
        let connectTimeout = try Self.connectTimeout(given["connect_timeout"], invalid: invalid)
        let schema = given["schema"]?.value ?? "public"
        var sslMode = PostgresSSLMode.prefer
        if let value = given["sslmode"] {
            guard let mode = PostgresSSLMode(rawValue: value.value) else {
                throw invalid("\(value.quoted) is not one of " + PostgresSSLMode.allCases.map(\.rawValue).joined(separator: ", "))
            }
            sslMode = mode
        }
        // The environment's and the service's files count where the mode uses them; a URL that names them
        // where they would change nothing is refused below.
        func fromURL(_ keyword: String) -> Bool { [.query, .authority].contains(given[keyword]?.source) }
        if !sslMode.verifiesCertificate && !fromURL("sslrootcert") { given["sslrootcert"] = nil }
        if sslMode == .disable || fromURL("sslcert") || fromURL("sslkey") {
            for keyword in ["sslcert", "sslkey"] where !fromURL(keyword) { given[keyword] = nil }
        }
        let sslRootCert = given["sslrootcert"]?.value
        if sslRootCert != nil && !sslMode.verifiesCertificate {
            throw invalid("sslrootcert= needs sslmode=verify-ca or sslmode=verify-full (sslmode is \(sslMode.rawValue))")
        }
        var sslCert = given["sslcert"]?.value, sslKey = given["sslkey"]?.value
        if (sslCert == nil) != (sslKey == nil) {
            throw invalid(sslCert == nil ? "sslkey= needs sslcert= (the certificate of that key)" : "sslcert= needs sslkey= (the certificate's private key)")
        }
        if sslCert != nil && sslMode == .disable { throw invalid("sslcert= needs TLS (sslmode is disable)") }
        if sslCert == nil, sslMode != .disable, let home = environment["HOME"], !home.isEmpty {
            // libpq's default client certificate, used when both files exist.
            let cert = home + "/.postgresql/postgresql.crt", key = home + "/.postgresql/postgresql.key"
            if FileManager.default.fileExists(atPath: cert) && FileManager.default.fileExists(atPath: key) { (sslCert, sslKey) = (cert, key) }
        }
        func version(_ keyword: String) throws(PostgresStoreError) -> PostgresTLSVersion? {
            guard let given = given[keyword] else { return nil }
            guard let version = PostgresTLSVersion(libpq: given.value) else {
                throw invalid("\(given.quoted) is not one of " + PostgresTLSVersion.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return version
        }
        let minimum = try version("ssl_min_protocol_version") ?? .tlsv12, maximum = try version("ssl_max_protocol_version")
        if let maximum, maximum < minimum {
            throw invalid("ssl_max_protocol_version \(maximum.rawValue) is older than ssl_min_protocol_version \(minimum.rawValue)")
        }
        if given["sslcertmode"]?.value == "disable" { (sslCert, sslKey) = (nil, nil) }   // libpq: never offer one
        guard PostgresNames.fits(schema) else { throw invalid("the schema name '\(schema)' is longer than 63 bytes") }
        guard PostgresNames.fits(database) else { throw invalid("the database name '\(database)' is longer than 63 bytes") }
        self.user = user
        self.database = database
        self.schema = schema
        self.sslMode = sslMode
        self.sslRootCert = sslRootCert
        self.sslCert = sslCert
        self.sslKey = sslKey
        self.sslPassword = given["sslpassword"]?.value
        self.sslMinProtocolVersion = minimum
        self.sslMaxProtocolVersion = maximum
        self.connectTimeout = connectTimeout
        self.targetSessionAttrs = try Self.choice(given["target_session_attrs"], default: .any, invalid: invalid)
        self.loadBalanceHosts = try Self.choice(given["load_balance_hosts"], default: LoadBalance.disable, invalid: invalid) == .random
        do {
            self.options = try given["options"].map { (options) throws(Setting.Malformed) in try Setting.settings(of: options.value) } ?? []
        } catch {
            throw invalid("\(given["options"]!.quoted) is malformed: \(error.reason)")
        }
        let passwordFile = given["passfile"]?.value ?? Self.variable("HOME", in: environment).map { $0 + "/.pgpass" }
        hosts = try Self.endpoints(host: given["host"], port: given["port"], invalid: invalid).map { host, port in
            Endpoint(host: host, port: port, password: given["password"]?.value ?? passwordFile.flatMap {
                PostgresPasswordFile.password(host: host, port: port, database: database, user: user, file: $0)
            })
        }
    }

    /// `load_balance_hosts`' values.
    enum LoadBalance: String, CaseIterable {
        case disable, random
    }

    /// The case of `T` a keyword names, else `default`.
    static func choice<T: RawRepresentable & CaseIterable>(_ given: Given?, default: T, invalid: (String) -> PostgresStoreError)
        throws(PostgresStoreError) -> T where T.RawValue == String {
        guard let given else { return `default` }
        guard let value = T(rawValue: given.value) else {
            throw invalid("\(given.quoted) is not one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }

    /// The longest Unix-domain socket path the system takes (`sockaddr_un`'s `sun_path`, less its NUL).
    static let maximumSocketPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// `connect_timeout`'s seconds as libpq reads them: a whole number; 0 or less is no timeout of the URL's
    /// (nil: Strata's default), 1 is 2.
    static func connectTimeout(_ given: Given?, invalid: (String) -> PostgresStoreError) throws(PostgresStoreError) -> Int? {
        guard let given else { return nil }
        guard let seconds = Int32(given.value.trimmingCharacters(in: .whitespaces)) else {
            throw invalid("\(given.quoted) is not a whole number of seconds")
        }
        return seconds <= 0 ? nil : max(2, Int(seconds))
    }

    /// The URL without its password, for messages: its hosts and ports, a socket directory percent-encoded.
    public var description: String {
        "postgres://\(user)@\(hosts.map(\.description).joined(separator: ","))/\(database)?schema=\(schema)"
    }

    /// `text` with the password (between `:` and `@` of the authority, and a `password=` parameter's value)
    /// replaced by `***`. Scalar by scalar: a combining mark after the `:` or `=` (one `Character` with it)
    /// must not keep the password from being found.
    static func redacted(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        let stars = Array("***".unicodeScalars), scheme = Array("://".unicodeScalars), key = Array("password=".unicodeScalars)
        func first(_ scalar: Unicode.Scalar, in range: Range<Int>) -> Int? { range.first { scalars[$0] == scalar } }
        if let start = (0..<max(0, scalars.count - 2)).first(where: { Array(scalars[$0..<$0 + 3]) == scheme }).map({ $0 + 3 }),
           let at = first("@", in: start..<scalars.count), let colon = first(":", in: start..<at) {
            scalars.replaceSubrange(colon + 1..<at, with: stars)
        }
        if let mark = first("?", in: 0..<scalars.count) {
            let parts = scalars[(mark + 1)...].split(separator: "&", omittingEmptySubsequences: false)
                .map { $0.starts(with: key) ? key + stars : Array($0) }
            scalars = Array(scalars[...mark]) + Array(parts.joined(separator: ["&"]))
        }
        return String(String.UnicodeScalarView(scalars))
    }
}
