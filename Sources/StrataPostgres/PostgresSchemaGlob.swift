import Foundation
import StrataCore
import Strata

/// `--stores 'postgres://USER@HOST[:PORT]/DATABASE?schema=PATTERN'` (SPEC §14.1, §14.2; Docs/postgresql.md
/// "Fleets"): the schemas of one database whose names a glob matches, each schema one store.
///
/// The glob is the `schema` parameter's value only (percent-decoded; `public` when the URL has none),
/// matched as ``FleetStores`` matches a file name (`*`, `?`, `[…]`, a leading `.` only when spelled). The
/// user, host, port and database name one database: a glob character there is exit 2. A matched schema's
/// store is the glob's text with the schema's value replaced by its name, percent-encoded, so every other
/// parameter (`sslmode`, `sslrootcert`, …) and the password carry over; it then runs as the same URL in
/// `--stores-from` does.
/// ```swift
/// let glob = try PostgresSchemaGlob(parsing: "postgres://deploy@db/shop?schema=tenant_*&sslmode=require")
/// glob.storeURL(schema: "tenant_a")   // "postgres://deploy@db/shop?schema=tenant_a&sslmode=require"
/// let stores = try await glob.stores() // one URL per matched schema, by name
/// ```
public struct PostgresSchemaGlob: Sendable, Equatable {
    /// The glob's text up to the schema's value (ending `schema=`) and after it.
    let head: String
    let tail: String
    /// The glob the schema names must match, percent-decoded.
    public let pattern: String
    /// The database the schemas are listed from (the URL with `schema=public`).
    public let server: PostgresStoreURL
    /// The glob as given, its password replaced by `***`, for messages.
    public let source: String

    /// Splits and checks a `--stores` URL.
    /// - Parameters:
    ///   - text: the `--stores` value, a `postgres://` or `postgresql://` URL.
    ///   - environment: where libpq's variables, `PGPASSWORD` and `~/.pgpass` are read (as ``PostgresStoreURL``).
    /// - Throws: `PostgresStoreError.globOutsideSchema` (a glob character in the user, host, port or
    ///   database), `PostgresStoreError.invalidURL` (what `--store` would refuse); both exit 2.
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        source = PostgresStoreURL.redacted(text)
        let (head, value, tail) = Self.split(text)
        if let (part, spelled) = Self.globbedPart(text) {
            throw PostgresStoreError.globOutsideSchema(url: source, part: part, value: spelled)
        }
        guard let pattern = value.removingPercentEncoding else {
            throw PostgresStoreError.invalidURL(url: source, reason: "the schema pattern '\(value)' is not valid percent-encoding")
        }
        guard !pattern.isEmpty else { throw PostgresStoreError.invalidURL(url: source, reason: "schema= names no schema") }
        do {
            server = try PostgresStoreURL(parsing: head + "public" + tail, environment: environment)
        } catch PostgresStoreError.invalidURL(_, let reason) {
            throw PostgresStoreError.invalidURL(url: source, reason: reason)
        }
        (self.head, self.tail, self.pattern) = (head, tail, pattern)
    }

    /// The store URL of `schema`: the glob's text with the pattern replaced by the name, every character
    /// but ASCII letters, digits and `-._~` percent-encoded.
    public func storeURL(schema: String) -> String {
        head + (schema.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? schema) + tail
    }

    /// The names among `schemas` that are stores of this glob: not PostgreSQL's own (`pg_catalog`,
    /// `information_schema`, `pg_toast…`, `pg_temp…`), matching ``pattern``, in code-point order.
    public func matches(among schemas: [String]) -> [String] {
        schemas.filter { !Self.isSystemSchema($0) && FleetStores.nameMatches(pattern, $0) }
            .sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    /// Whether `schema` is one of PostgreSQL's own, never a store.
    static func isSystemSchema(_ schema: String) -> Bool {
        ["pg_catalog", "information_schema"].contains(schema) || schema.hasPrefix("pg_toast") || schema.hasPrefix("pg_temp")
    }

    /// `text` cut around the value of its (last) `schema` parameter; a URL without one gets `schema=`
    /// appended, its pattern `public`.
    static func split(_ text: String) -> (head: String, value: String, tail: String) {
        guard let mark = text.firstIndex(of: "?") else { return (text + "?schema=", "public", "") }
        let query = text[text.index(after: mark)...]
        var value: Range<String.Index>?
        for item in query.split(separator: "&", omittingEmptySubsequences: false) where item.hasPrefix("schema=") {
            value = item.index(item.startIndex, offsetBy: "schema=".count)..<item.endIndex
        }
        guard let value else { return (text + (query.isEmpty || query.hasSuffix("&") ? "" : "&") + "schema=", "public", "") }
        return (String(text[..<value.lowerBound]), String(text[value]), String(text[value.upperBound...]))
    }

    /// The first part before the query (user, host and port, database) holding a glob character (`*`,
    /// `?` percent-encoded, `[` outside an IPv6 literal of the host list), with its text; the password is not looked at.
    static func globbedPart(_ text: String) -> (part: String, value: String)? {
        let start = text.range(of: "://")?.upperBound ?? text.startIndex
        let rest = text[start...].prefix { $0 != "?" }
        let authority = rest.prefix { $0 != "/" }
        let database = rest.dropFirst(authority.count).drop { $0 == "/" }
        let at = authority.lastIndex(of: "@")
        let user = at.map { authority[..<$0].prefix { $0 != ":" } } ?? ""
        // Each host of the list may be an IPv6 address in brackets: those brackets are not globs.
        let hosts: Substring = at.map { authority[authority.index(after: $0)...] } ?? authority
        let host = hosts.split(separator: ",", omittingEmptySubsequences: false).map { (spec: Substring) -> Substring in
            guard spec.hasPrefix("["), let close = spec.firstIndex(of: "]") else { return spec }
            return spec[spec.index(after: close)...]
        }.joined(separator: ",")
        for (part, value) in [("user", String(user)), ("host", host), ("database", String(database))] {
            let decoded = value.removingPercentEncoding ?? String(value)
            if FleetStores.isGlob(decoded) || decoded.contains("]") { return (part, String(value)) }
        }
        return nil
    }

    /// What a schema name keeps unencoded in a URL: RFC 3986's unreserved characters.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension PostgresSchemaGlob {
    /// The store URLs of the schemas this glob matches, listed once from the server (`pg_namespace`).
    /// Whether a schema holds a store is not looked at here: a matched schema without Strata's tables
    /// fails as `--store` would on it (exit 2, a missing store), as a file a `--stores` glob matches that
    /// is not a store does.
    /// - Throws: `PostgresStoreError.connection` (exit 1, naming the glob) when the server cannot be reached,
    ///   ``FleetError/noStores(source:)`` (exit 2) when no schema matches.
    public func stores() async throws -> [String] {
        let session: PostgresSession
        do {
            session = try await PostgresSession.connect(server)
        } catch {
            guard case .connection(_, let message) = error else { throw error }
            throw PostgresStoreError.connection(store: source, message: message)   // the glob, not its `schema=public`
        }
        let statement: SQLText = "SELECT nspname::text FROM pg_catalog.pg_namespace"
        let names: [String]
        do {
            names = try await session.rows(statement).map { row throws(PostgresStoreError) in
                try PostgresSession.decode(row[0], as: String.self, statement: statement)
            }
            await session.close()
        } catch {
            await session.close()
            throw error
        }
        let stores = matches(among: names).map(storeURL(schema:))
        if stores.isEmpty { throw FleetError.noStores(source: "--stores '\(source)'") }
        return stores
    }
}
