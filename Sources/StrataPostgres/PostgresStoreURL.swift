import Foundation
import StrataCore

/// A PostgreSQL store named on the command line: `postgres://user[:password]@host[:port]/database?schema=app&sslmode=prefer`
/// (or `postgresql://`). SPEC §14.2: the store is a schema in an existing database.
///
/// The password comes from the URL, else `PGPASSWORD`, else the password file (`PGPASSFILE`, default
/// `~/.pgpass`, as libpq reads it), else none (trust or peer authentication). What the URL leaves out is
/// taken from libpq's environment variables: `PGUSER`, `PGHOST`, `PGPORT`, `PGDATABASE`, `PGSSLMODE`,
/// `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY`. A client certificate is `sslcert=`/`sslkey=`, else
/// `~/.postgresql/postgresql.crt` and `.key` when both exist (as libpq).
///
/// ```swift
/// let url = try PostgresStoreURL(parsing: "postgres://app@db.internal:5432/shop?schema=inventory")
/// url.schema   // "inventory"
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
        guard let host = components.host.flatMap({ $0.isEmpty ? nil : $0 }) ?? env("PGHOST") else { throw invalid("it names no host") }
        guard !host.hasPrefix("/") else {
            throw invalid("the host '\(host)' is a Unix-domain socket directory, which Strata cannot connect through; name a TCP host")
        }
        let path = String(components.path.drop { $0 == "/" })
        guard let database = path.isEmpty ? env("PGDATABASE") : path, !database.contains("/") else {
            throw invalid("it names no database (postgres://USER@HOST/DATABASE); Strata never creates databases")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard Self.parameters.contains(item.name) else {
                throw invalid("unknown parameter '\(item.name)' (the parameters are schema, sslmode, sslrootcert, sslcert and sslkey)")
            }
            let value = item.value ?? ""
            if value.isEmpty && item.name != "sslmode" {   // an empty sslmode is refused below, with the valid ones
                throw invalid("\(item.name)= names no \(item.name == "schema" ? "schema" : "file")")
            }
            parameters[item.name] = value
        }
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
        self.user = user
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = port
        self.database = database
        self.schema = schema
        self.sslMode = sslMode
        self.sslRootCert = sslRootCert
        self.sslCert = sslCert
        self.sslKey = sslKey
        self.password = components.password
            ?? environment["PGPASSWORD"]
            ?? PostgresPasswordFile.password(host: self.host, port: port, database: database, user: user, environment: environment)
    }

    /// The URL's query parameters.
    static let parameters: Set = ["schema", "sslmode", "sslrootcert", "sslcert", "sslkey"]

    /// The URL without its password, for messages.
    public var description: String {
        "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)?schema=\(schema)"
    }

    /// `text` with the password (between `:` and `@` of the authority) replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@") else { return text }
        let authority = text[scheme.upperBound..<at]
        guard let colon = authority.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
