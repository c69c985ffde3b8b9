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
        ("postgres://app@localhost/shop?search_path=x", "unknown parameter 'search_path' (the parameters are schema, service, user, password, passfile, dbname, host, port, "
         + "connect_timeout, options, sslmode, sslrootcert, sslcert, sslkey, sslpassword, ssl_min_protocol_version, ssl_max_protocol_version, "
         + "target_session_attrs, load_balance_hosts, gssencmode, "
         + "channel_binding, sslnegotiation and sslcertmode)"),
        ("postgres://app@localhost/shop?sslmode=off", "sslmode='off' is not one of disable, allow, prefer, require, verify-ca, verify-full"),
        ("postgres://app@localhost/shop?sslmode=", "sslmode='' is not one of disable, allow, prefer, require, verify-ca, verify-full"),
        ("postgres://app@localhost/shop?sslmode=REQUIRE", "sslmode='REQUIRE' is not one of disable, allow, prefer, require, verify-ca, verify-full"),
        ("postgres://app@localhost/shop?sslcert=", "sslcert= names no file"),
        ("postgres://app@localhost/shop?sslcert=/c.pem", "sslcert= needs sslkey= (the certificate's private key)"),
        ("postgres://app@localhost/shop?sslkey=/k.pem", "sslkey= needs sslcert= (the certificate of that key)"),
        ("postgres://app@localhost/shop?sslmode=disable&sslcert=/c.pem&sslkey=/k.pem", "sslcert= needs TLS (sslmode is disable)"),
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

    /// libpq's environment variables fill what the URL leaves out; what the URL gives wins.
    @Test func theEnvironmentFillsWhatTheURLLeavesOut() throws {
        let environment = ["PGUSER": "envuser", "PGHOST": "envhost", "PGPORT": "6000", "PGDATABASE": "envdb",
                           "PGSSLMODE": "require", "PGSSLCERT": "/c.pem", "PGSSLKEY": "/k.pem"]
        let filled = try PostgresStoreURL(parsing: "postgres:///?schema=app", environment: environment)
        #expect([filled.user, filled.host, filled.database, filled.schema] == ["envuser", "envhost", "envdb", "app"])
        #expect(filled.port == 6000 && filled.sslMode == .require)
        #expect(filled.sslCert == "/c.pem" && filled.sslKey == "/k.pem")
        let given = try PostgresStoreURL(parsing: "postgres://app@db:5433/shop?sslmode=disable", environment: environment)
        #expect([given.user, given.host, given.database] == ["app", "db", "shop"])
        #expect(given.port == 5433 && given.sslMode == .disable)
        #expect(given.sslCert == nil && given.sslKey == nil && given.sslRootCert == nil)
        // The environment's files count only where the mode uses them; the URL's own are checked.
        let verified = try PostgresStoreURL(parsing: "postgres://app@db/shop?sslmode=verify-ca", environment: ["PGSSLROOTCERT": "/ca.pem"])
        #expect(verified.sslRootCert == "/ca.pem")
        #expect(try PostgresStoreURL(parsing: "postgres://app@db/shop", environment: ["PGSSLROOTCERT": "/ca.pem"]).sslRootCert == nil)
        #expect(throws: PostgresStoreError.invalidURL(url: "postgres://app@db/shop?sslcert=/c", reason: "sslcert= needs sslkey= (the certificate's private key)")) {
            try PostgresStoreURL(parsing: "postgres://app@db/shop?sslcert=/c", environment: ["PGSSLKEY": "/k.pem"])
        }
        #expect(throws: PostgresStoreError.invalidURL(url: "postgres://app@db/shop", reason: "PGPORT='x1' is not a port between 1 and 65535")) {
            try PostgresStoreURL(parsing: "postgres://app@db/shop", environment: ["PGPORT": "x1"])
        }
        #expect(throws: PostgresStoreError.invalidURL(url: "postgres://app@db/shop", reason: "PGSSLMODE='on' is not one of disable, allow, prefer, require, verify-ca, verify-full")) {
            try PostgresStoreURL(parsing: "postgres://app@db/shop", environment: ["PGSSLMODE": "on"])
        }
        // Empty variables count as unset.
        #expect(throws: PostgresStoreError.invalidURL(url: "postgres:///shop", reason: "it names no user (postgres://USER@HOST/DATABASE)")) {
            try PostgresStoreURL(parsing: "postgres:///shop", environment: ["PGUSER": "", "PGHOST": "h"])
        }
    }

    /// libpq's default client certificate: `~/.postgresql/postgresql.crt` and `.key`, when both exist.
    @Test func takesTheDefaultClientCertificateWhenBothFilesExist() throws {
        let home = Temporary.directory("pghome")
        try FileManager.default.createDirectory(atPath: home + "/.postgresql", withIntermediateDirectories: true)
        let text = "postgres://app@db/shop"
        try "cert".write(toFile: home + "/.postgresql/postgresql.crt", atomically: true, encoding: .utf8)
        #expect(try PostgresStoreURL(parsing: text, environment: ["HOME": home]).sslCert == nil)
        try "key".write(toFile: home + "/.postgresql/postgresql.key", atomically: true, encoding: .utf8)
        let url = try PostgresStoreURL(parsing: text, environment: ["HOME": home])
        #expect(url.sslCert == home + "/.postgresql/postgresql.crt" && url.sslKey == home + "/.postgresql/postgresql.key")
        #expect(try PostgresStoreURL(parsing: text + "?sslmode=disable", environment: ["HOME": home]).sslCert == nil)
        #expect(try PostgresStoreURL(parsing: text + "?sslcert=/c&sslkey=/k", environment: ["HOME": home]).sslCert == "/c")
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

    /// libpq reads the file by bytes: a `:` or `\` a combining mark follows (one `Character` with it) still
    /// separates or escapes.
    @Test func thePasswordFileIsReadByScalars() {
        let text = "localhost:5432:shop:app:\u{301}pw\nlocalhost:5432:shop:bob:x\\\u{301}y\n"
        let app = PostgresPasswordFile.password(in: text, host: "localhost", port: 5432, database: "shop", user: "app")
        #expect(app.map { Array($0.unicodeScalars) } == Array("\u{301}pw".unicodeScalars))
        let bob = PostgresPasswordFile.password(in: text, host: "localhost", port: 5432, database: "shop", user: "bob")
        #expect(bob.map { Array($0.unicodeScalars) } == Array("x\u{301}y".unicodeScalars))
    }
}
