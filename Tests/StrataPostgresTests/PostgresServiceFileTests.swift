import Foundation
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// libpq's service file: `service=`/`PGSERVICE` names a section of `PGSERVICEFILE` (else `~/.pg_service.conf`),
/// else of `PGSYSCONFDIR/pg_service.conf`; the URL wins over the service, the service over the environment.
@Suite struct PostgresServiceFileTests {
    static let text = """
        # the team's services
        [other]
        host=elsewhere

        [shop]
          host=db-1,db-2
        port=6432
        dbname=shop
        user=deploy
        # a comment inside
        target_session_attrs=read-write
        options=-c statement_timeout=5min
        port=9999
        [after]
        host=never

        """

    static func file(_ text: String = text, name: String = "pg_service.conf") throws -> String {
        let directory = Temporary.directory("pgservice")
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        return directory + "/" + name
    }

    @Test func aServiceFillsWhatTheURLLeavesOut() throws {
        let file = try Self.file()
        let url = try PostgresStoreURL(parsing: "postgres:///?service=shop&schema=app", environment: ["PGSERVICEFILE": file])
        #expect(url.hosts == [.init(host: "db-1", port: 6432), .init(host: "db-2", port: 6432)])
        #expect([url.user, url.database, url.schema] == ["deploy", "shop", "app"])
        #expect(url.targetSessionAttrs == .readWrite)
        #expect(url.options == [.init(name: "statement_timeout", value: "5min")])
        // The URL wins over the service, the service over the environment; PGSERVICE names it too.
        let given = try PostgresStoreURL(parsing: "postgres://app@h:1/db", environment: ["PGSERVICEFILE": file, "PGSERVICE": "shop", "PGUSER": "env"])
        #expect([given.user, given.host, given.database] == ["app", "h", "db"] && given.port == 1 && given.targetSessionAttrs == .readWrite)
        let environment = try PostgresStoreURL(parsing: "postgres:///?service=shop", environment: ["PGSERVICEFILE": file, "PGUSER": "env", "PGPORT": "1"])
        #expect(environment.user == "deploy" && environment.port == 6432)
        // The service's password beats PGPASSWORD and the password file; the URL's beats the service's.
        let secret = try Self.file("[s]\nhost=h\npassword=from-service\n")
        #expect(try PostgresStoreURL(parsing: "postgres://app@/db?service=s", environment: ["PGSERVICEFILE": secret, "PGPASSWORD": "env"]).password == "from-service")
        #expect(try PostgresStoreURL(parsing: "postgres://app:url@/db?service=s", environment: ["PGSERVICEFILE": secret]).password == "url")
    }

    /// `~/.pg_service.conf` first; the system file (`PGSYSCONFDIR`) when the user's has no such section.
    @Test func theUsersFileThenTheSystemFile() throws {
        let home = Temporary.directory("pghome")
        try "[mine]\nhost=home-db\ndbname=d\nuser=u\n".write(toFile: home + "/.pg_service.conf", atomically: true, encoding: .utf8)
        let system = try Self.file("[mine]\nhost=system-db\n[theirs]\nhost=system-db\ndbname=d\nuser=u\n")
        let sysconf = (system as NSString).deletingLastPathComponent
        let environment = ["HOME": home, "PGSYSCONFDIR": sysconf]
        #expect(try PostgresStoreURL(parsing: "postgres:///?service=mine", environment: environment).host == "home-db")
        #expect(try PostgresStoreURL(parsing: "postgres:///?service=theirs", environment: environment).host == "system-db")
        #expect(PostgresServiceFile.files(environment: ["HOME": "/h"]) == ["/h/.pg_service.conf", "/etc/postgresql-common/pg_service.conf"])
        #expect(PostgresServiceFile.files(environment: ["HOME": "/h", "PGSERVICEFILE": "/s.conf", "PGSYSCONFDIR": "/etc/pg"]) == ["/s.conf", "/etc/pg/pg_service.conf"])
    }

    @Test func refusesAServiceThatIsNotFoundOrNotWellFormed() throws {
        let file = try Self.file()
        let missing = "postgres://app@h/db?service=nope"
        let error = #expect(throws: PostgresStoreError.self) {
            try PostgresStoreURL(parsing: missing, environment: ["PGSERVICEFILE": file, "PGSYSCONFDIR": "/nonexistent"])
        }
        #expect(error == .invalidURL(url: missing, reason: "service 'nope' is not defined in '\(file)' or '/nonexistent/pg_service.conf'"))
        #expect(error?.exitCode == .invalidInput)
        for (text, reason) in [
            ("[s]\nhost=h\nschema=app\n", "line 3: unknown key 'schema' in service 's'"),
            ("[s]\nhost = h\n", "line 2: unknown key 'host ' in service 's'"),
            ("# x\n[s]\nhost\n", "line 3: 'host' is not KEY=VALUE (service 's')"),
            ("[s]\nservice=t\n", "line 2: a service cannot name another service (service 's')"),
            ("[s]\nsslcrl=/crl.pem\n", nil),
        ] as [(String, String?)] {
            let bad = try Self.file(text)
            let url = "postgres://app@h/db?service=s"
            let expected = reason.map { "'\(bad)' \($0)" }
                ?? "sslcrl= (service 's', '\(bad)' line 2) " + PostgresConnectionKeyword.crlReason
            #expect(throws: PostgresStoreError.invalidURL(url: url, reason: expected)) {
                try PostgresStoreURL(parsing: url, environment: ["PGSERVICEFILE": bad])
            }
        }
    }

    /// A service's bad value names the service, its file and line.
    @Test func aBadValueNamesTheServiceFileAndLine() throws {
        let file = try Self.file("[s]\nhost=h\nport=http\n")
        #expect(throws: PostgresStoreError.invalidURL(url: "postgres://app@/db?service=s",
                                                      reason: "port='http' (service 's', '\(file)' line 3) is not a port between 1 and 65535")) {
            try PostgresStoreURL(parsing: "postgres://app@/db?service=s", environment: ["PGSERVICEFILE": file])
        }
        // application_name in a service is not read: Strata names its sessions.
        let named = try Self.file("[s]\nhost=h\napplication_name=psql-app\n")
        #expect(try PostgresStoreURL(parsing: "postgres://app@/db?service=s", environment: ["PGSERVICEFILE": named]).host == "h")
    }
}
