import Foundation
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

@Suite struct PostgresStoreURLTests {
    @Test func parsesEveryPart() throws {
        let url = try PostgresStoreURL(parsing: "postgres://app:s%40cret@db.internal:6543/shop?schema=inventory", environment: [:])
        #expect(url.user == "app")
        #expect(url.password == "s@cret")
        #expect(url.host == "db.internal")
        #expect(url.port == 6543)
        #expect(url.database == "shop")
        #expect(url.schema == "inventory")
        #expect(url.description == "postgres://app@db.internal:6543/shop?schema=inventory")
    }

    @Test func defaultsPortAndSchemaAndTakesPostgresqlScheme() throws {
        let url = try PostgresStoreURL(parsing: "postgresql://app@localhost/shop", environment: [:])
        #expect(url.port == 5432)
        #expect(url.schema == "public")
        #expect(url.password == nil)
        #expect(PostgresStoreURL.isPostgres("POSTGRES://x@y/z"))
        #expect(!PostgresStoreURL.isPostgres("app.sqlite"))
    }

    @Test(arguments: [
        ("postgres://localhost/shop", "it names no user (postgres://USER@HOST/DATABASE)"),
        ("postgres://app@localhost", "it names no database (postgres://USER@HOST/DATABASE); Strata never creates databases"),
        ("postgres://app@localhost/shop?schema=", "schema= names no schema"),
        ("postgres://app@localhost/shop?search_path=x", "unknown parameter 'search_path' (the parameters are schema, sslmode and sslrootcert)"),
        ("postgres://app@localhost/shop?sslmode=off", "sslmode='off' is not one of disable, prefer, require, verify-ca, verify-full"),
        ("postgres://app@localhost/shop?sslmode=allow", "sslmode='allow' is not one of disable, prefer, require, verify-ca, verify-full"),
        ("postgres://app@localhost/shop?sslmode=", "sslmode='' is not one of disable, prefer, require, verify-ca, verify-full"),
        ("postgres://app@localhost/shop?sslmode=REQUIRE", "sslmode='REQUIRE' is not one of disable, prefer, require, verify-ca, verify-full"),
        ("postgres://app@localhost/shop?sslrootcert=", "sslrootcert= names no file"),
        ("postgres://app@localhost/shop?sslmode=require&sslrootcert=/ca.pem",
         "sslrootcert= needs sslmode=verify-ca or sslmode=verify-full (sslmode is require)"),
        ("postgres://app@localhost:0/shop", "port 0 is not between 1 and 65535"),
        ("postgres://app@localhost/shop?schema=" + String(repeating: "s", count: 64),
         "the schema name '\(String(repeating: "s", count: 64))' is longer than 63 bytes"),
    ])
    func refusesWithTheReason(text: String, reason: String) throws {
        let error = #expect(throws: PostgresStoreError.self) { try PostgresStoreURL(parsing: text, environment: [:]) }
        #expect(error == .invalidURL(url: text, reason: reason))
        #expect(error?.exitCode == .invalidInput)
    }

    @Test func redactsThePasswordInErrors() {
        let error = #expect(throws: PostgresStoreError.self) {
            try PostgresStoreURL(parsing: "postgres://app:hunter2@localhost/shop?bad=1", environment: [:])
        }
        #expect(error?.description.contains("hunter2") == false)
        #expect(error?.description.contains("postgres://app:***@localhost/shop?bad=1") == true)
    }

    @Test func passwordFromTheEnvironmentThenThePasswordFile() throws {
        let dir = Temporary.directory("pgpass")
        let file = dir + "/pgpass"
        try "# comment\nother:5432:*:app:wrong\nlocalhost:5432:shop:app:pa\\:ss\n*:*:*:*:fallback\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let text = "postgres://app@localhost/shop"
        #expect(try PostgresStoreURL(parsing: text, environment: ["PGPASSWORD": "env", "PGPASSFILE": file]).password == "env")
        #expect(try PostgresStoreURL(parsing: text, environment: ["PGPASSFILE": file]).password == "pa:ss")
        #expect(try PostgresStoreURL(parsing: "postgres://bob@h/db", environment: ["PGPASSFILE": file]).password == "fallback")
        // Like libpq, a password file others can read is ignored.
        chmod(file, 0o644)
        #expect(try PostgresStoreURL(parsing: text, environment: ["PGPASSFILE": file]).password == nil)
    }
}
