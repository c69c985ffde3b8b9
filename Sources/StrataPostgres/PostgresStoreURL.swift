import Foundation
import StrataCore

/// A PostgreSQL store named on the command line: `postgres://user[:password]@host[:port]/database?schema=app&sslmode=prefer`
/// (or `postgresql://`). SPEC §14.2: the store is a schema in an existing database.
///
/// The password comes from the URL, else `PGPASSWORD`, else the password file (`PGPASSFILE`, default
/// `~/.pgpass`, as libpq reads it), else none (trust or peer authentication).
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
        guard let user = components.user, !user.isEmpty else {
            throw invalid("it names no user (postgres://USER@HOST/DATABASE)")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("it names no host") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw invalid("it names no database (postgres://USER@HOST/DATABASE); Strata never creates databases")
        }
        var schema = "public", sslMode = PostgresSSLMode.prefer, sslRootCert: String?
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "schema":
                guard !value.isEmpty else { throw invalid("schema= names no schema") }
                schema = value
            case "sslmode":
                guard let mode = PostgresSSLMode(rawValue: value) else {
                    throw invalid("sslmode='\(value)' is not one of " + PostgresSSLMode.allCases.map(\.rawValue).joined(separator: ", "))
                }
                sslMode = mode
            case "sslrootcert":
                guard !value.isEmpty else { throw invalid("sslrootcert= names no file") }
                sslRootCert = value
            default:
                throw invalid("unknown parameter '\(item.name)' (the parameters are schema, sslmode and sslrootcert)")
            }
        }
        if sslRootCert != nil && !sslMode.verifiesCertificate {
            throw invalid("sslrootcert= needs sslmode=verify-ca or sslmode=verify-full (sslmode is \(sslMode.rawValue))")
        }
        guard PostgresNames.fits(schema) else { throw invalid("the schema name '\(schema)' is longer than 63 bytes") }
        guard PostgresNames.fits(database) else { throw invalid("the database name '\(database)' is longer than 63 bytes") }
        let port: Int
        if components.percentEncodedHost != nil, let given = components.port {
            guard (1...65535).contains(given) else { throw invalid("port \(given) is not between 1 and 65535") }
            port = given
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
        self.password = components.password
            ?? environment["PGPASSWORD"]
            ?? PostgresPasswordFile.password(host: self.host, port: port, database: database, user: user, environment: environment)
    }

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
