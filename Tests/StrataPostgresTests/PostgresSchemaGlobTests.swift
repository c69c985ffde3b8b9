import Foundation
import StrataCore
@testable import StrataPostgres
import Testing

/// `--stores postgres://…?schema=GLOB` split into the schema's pattern and the text around it, each matched
/// schema's store URL, and which schema names match (pure: no server).
@Suite struct PostgresSchemaGlobTests {
    @Test(arguments: [
        ("postgres://app@db:6543/shop?schema=tenant_*&sslmode=disable", "postgres://app@db:6543/shop?schema=", "tenant_*", "&sslmode=disable"),
        ("postgres://app@db/shop?sslmode=require&schema=t_[ab]", "postgres://app@db/shop?sslmode=require&schema=", "t_[ab]", ""),
        ("postgres://app@db/shop?schema=first&schema=t_?", "postgres://app@db/shop?schema=first&schema=", "t_?", ""),
        ("postgres://app@db/shop", "postgres://app@db/shop?schema=", "public", ""),
        ("postgres://app@db/shop?", "postgres://app@db/shop?schema=", "public", ""),
        ("postgres://app@db/shop?sslmode=disable", "postgres://app@db/shop?sslmode=disable&schema=", "public", ""),
    ])
    func splitsAroundTheSchemasValue(text: String, head: String, value: String, tail: String) {
        let split = PostgresSchemaGlob.split(text)
        #expect(split.head == head && split.value == value && split.tail == tail)
    }

    @Test func parsesThePatternAndTheServer() throws {
        let glob = try PostgresSchemaGlob(parsing: "postgresql://app:s%40cret@db:6543/shop?sslmode=disable&schema=tenant_%2A", environment: [:])
        #expect(glob.pattern == "tenant_*")
        #expect(glob.server.description == "postgres://app@db:6543/shop?schema=public")
        #expect(glob.server.password == "s@cret" && glob.server.sslMode == .disable)
        #expect(glob.source == "postgresql://app:***@db:6543/shop?sslmode=disable&schema=tenant_%2A")
        #expect(glob.storeURL(schema: "tenant_a") == "postgresql://app:s%40cret@db:6543/shop?sslmode=disable&schema=tenant_a")
        #expect(glob.storeURL(schema: "t a&b=c/é") == "postgresql://app:s%40cret@db:6543/shop?sslmode=disable&schema=t%20a%26b%3Dc%2F%C3%A9")
        let store = try PostgresStoreURL(parsing: glob.storeURL(schema: "t a&b=c/é"), environment: [:])
        #expect(store.schema == "t a&b=c/é" && store.sslMode == .disable && store.password == "s@cret")
        let tail = try PostgresSchemaGlob(parsing: "postgres://app@db/shop?schema=t_*&sslmode=disable", environment: [:])
        #expect(tail.storeURL(schema: "t_1") == "postgres://app@db/shop?schema=t_1&sslmode=disable")
        let ipv6 = try PostgresSchemaGlob(parsing: "postgres://app@[::1]:5433/shop?schema=t_*", environment: [:])
        #expect(ipv6.server.host == "::1" && ipv6.pattern == "t_*")
        let starredPassword = try PostgresSchemaGlob(parsing: "postgres://app:p*ss@db/shop?schema=t_*", environment: [:])
        #expect(starredPassword.server.password == "p*ss")
    }

    @Test func matchesSchemasByNameInCodePointOrderWithoutPostgresOwn() throws {
        let names = ["tenant_b", "public", "tenant_a", "pg_catalog", "information_schema", "pg_toast", "pg_temp_3", "pg_toast_temp_3",
                     "tenant_", "Tenant_c", "tenant_é", "tenant_Z", ".tenant_x", "tenant_10", "tenant_9"]
        func matches(_ pattern: String) throws -> [String] {
            try PostgresSchemaGlob(parsing: "postgres://app@db/shop?schema=" + pattern, environment: [:]).matches(among: names)
        }
        #expect(try matches("tenant_*") == ["tenant_", "tenant_10", "tenant_9", "tenant_Z", "tenant_a", "tenant_b", "tenant_é"])
        #expect(try matches("tenant_[ab]") == ["tenant_a", "tenant_b"])
        #expect(try matches("tenant_?") == ["tenant_9", "tenant_Z", "tenant_a", "tenant_b"])
        #expect(try matches("*") == ["Tenant_c", "public", "tenant_", "tenant_10", "tenant_9", "tenant_Z", "tenant_a", "tenant_b", "tenant_é"])
        #expect(try matches(".*") == [".tenant_x"])
        #expect(try matches("pg_*") == [])
        #expect(try matches("public") == ["public"])
        #expect(try PostgresSchemaGlob(parsing: "postgres://app@db/shop", environment: [:]).matches(among: names) == ["public"])
    }

    @Test(arguments: [
        ("postgres://app@db-*/shop?schema=t_*", "host", "db-*"),
        ("postgres://app@db[12]:5432/shop?schema=t_*", "host", "db[12]:5432"),
        ("postgres://app@db:54*/shop?schema=t_*", "host", "db:54*"),
        ("postgres://app*@db/shop?schema=t_*", "user", "app*"),
        ("postgres://app:secret@db/shop_*?schema=t_*", "database", "shop_*"),
        ("postgres://app@db/shop%3F?schema=t_*", "database", "shop%3F"),
        ("postgres://app@[::1]/shop[1]", "database", "shop[1]"),
        ("postgres://app@h1,db-*/shop?schema=t_*", "host", "h1,db-*"),
    ])
    func refusesAGlobOutsideTheSchema(text: String, part: String, value: String) throws {
        let error = #expect(throws: PostgresStoreError.self) { try PostgresSchemaGlob(parsing: text, environment: [:]) }
        #expect(error == .globOutsideSchema(url: PostgresStoreURL.redacted(text), part: part, value: value))
        #expect(error?.exitCode == .invalidInput)
    }

    /// A host list may hold IPv6 addresses in brackets, any of its hosts: they are not globs.
    @Test func aHostListWithIPv6AddressesIsNoGlob() throws {
        let glob = try PostgresSchemaGlob(parsing: "postgres://app@h1:5432,[::1]:5433,[fe80::2]/shop?schema=t_*", environment: [:])
        #expect(glob.pattern == "t_*")
        #expect(glob.server.hosts == [.init(host: "h1", port: 5432), .init(host: "::1", port: 5433), .init(host: "fe80::2", port: 5432)])
        #expect(glob.storeURL(schema: "t_1") == "postgres://app@h1:5432,[::1]:5433,[fe80::2]/shop?schema=t_1")
    }

    @Test(arguments: [
        ("postgres://app@db/shop?schema=", "schema= names no schema"),
        ("postgres://db/shop?schema=t_*", "it names no user (postgres://USER@HOST/DATABASE)"),
        ("postgres://app@db/shop?schema=t_*&sslmode=off", "sslmode='off' is not one of disable, allow, prefer, require, verify-ca, verify-full"),
        ("postgres://app@db/shop?schema=t_%G1", "the schema pattern 't_%G1' is not valid percent-encoding"),
    ])
    func refusesWhatStoreWouldNameTheGlob(text: String, reason: String) throws {
        let error = #expect(throws: PostgresStoreError.self) { try PostgresSchemaGlob(parsing: text, environment: [:]) }
        #expect(error == .invalidURL(url: text, reason: reason))
    }
}
