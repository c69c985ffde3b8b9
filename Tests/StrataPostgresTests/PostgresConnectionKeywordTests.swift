import Foundation
@testable import StrataPostgres
import Testing

/// libpq's other connection keywords: `options`, `target_session_attrs`, `load_balance_hosts`, `dbname`,
/// `user`, `password` read; the harmless ones ignored; the ones Strata cannot honour refused naming why.
@Suite struct PostgresConnectionKeywordTests {
    typealias Setting = PostgresStoreURL.Setting

    @Test(arguments: [
        ("-c statement_timeout=5s", [Setting(name: "statement_timeout", value: "5s")]),
        ("-cwork_mem=64MB  --lock-timeout=2s", [Setting(name: "work_mem", value: "64MB"), Setting(name: "lock_timeout", value: "2s")]),
        (#"-c search_path=a\ b,c -c x.y=back\\slash"#, [Setting(name: "search_path", value: "a b,c"), Setting(name: "x.y", value: #"back\slash"#)]),
        ("-c geqo=", [Setting(name: "geqo", value: "")]),
        ("   ", []),
    ] as [(String, [Setting])])
    func optionsAreLibpqsSwitches(text: String, settings: [Setting]) throws {
        #expect(try Setting.settings(of: text) == settings)
    }

    @Test func optionsAreSentEscapedAsLibpqWritesThem() throws {
        let settings = [Setting(name: "search_path", value: "a b"), Setting(name: "x", value: #"c\d"#)]
        let text = Setting.optionsText(settings)
        #expect(text == #"-c search_path=a\ b -c x=c\\d"#)
        #expect(try Setting.settings(of: text) == settings)
    }

    @Test(arguments: [
        ("-c", "'-c' is not followed by NAME=VALUE"),
        ("-B 100", "'-B' is not -c NAME=VALUE or --NAME=VALUE (the only switches Strata passes on)"),
        ("statement_timeout=5", "'statement_timeout=5' is not -c NAME=VALUE or --NAME=VALUE (the only switches Strata passes on)"),
        ("-c work_mem", "'work_mem' is not NAME=VALUE"),
        ("--=1", "'=1' is not NAME=VALUE"),
    ])
    func malformedOptionsAreExit2(options: String, reason: String) throws {
        let encoded = options.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let text = "postgres://app@h/db?options=\(encoded)"
        let error = #expect(throws: PostgresStoreError.self) { try PostgresStoreURL(parsing: text, environment: [:]) }
        #expect(error == .invalidURL(url: text, reason: "options='\(options)' is malformed: \(reason)"))
        #expect(error?.exitCode == .invalidInput)
        #expect(throws: PostgresStoreError.invalidURL(url: "postgres://app@h/db", reason: "PGOPTIONS='\(options)' is malformed: \(reason)")) {
            try PostgresStoreURL(parsing: "postgres://app@h/db", environment: ["PGOPTIONS": options])
        }
    }

    @Test func targetSessionAttrsAndLoadBalanceHostsFromTheURLThenTheEnvironment() throws {
        for attrs in PostgresTargetSessionAttrs.allCases {
            #expect(try PostgresStoreURL(parsing: "postgres://app@h/db?target_session_attrs=\(attrs.rawValue)", environment: [:]).targetSessionAttrs == attrs)
        }
        let plain = try PostgresStoreURL(parsing: "postgres://app@h/db", environment: [:])
        #expect(plain.targetSessionAttrs == .any && !plain.loadBalanceHosts && plain.options == [])
        let environment = ["PGTARGETSESSIONATTRS": "standby", "PGLOADBALANCEHOSTS": "random", "PGOPTIONS": "-c work_mem=1MB"]
        let filled = try PostgresStoreURL(parsing: "postgres://app@h/db", environment: environment)
        #expect(filled.targetSessionAttrs == .standby && filled.loadBalanceHosts && filled.options == [Setting(name: "work_mem", value: "1MB")])
        let given = try PostgresStoreURL(parsing: "postgres://app@h/db?target_session_attrs=primary&load_balance_hosts=disable&options=-c%20geqo=off",
                                         environment: environment)
        #expect(given.targetSessionAttrs == .primary && !given.loadBalanceHosts && given.options == [Setting(name: "geqo", value: "off")])
        for (text, environment, reason) in [
            ("postgres://app@h/db?target_session_attrs=master", [:],
             "target_session_attrs='master' is not one of any, read-write, read-only, primary, standby, prefer-standby"),
            ("postgres://app@h/db", ["PGTARGETSESSIONATTRS": "Read-Write"],
             "PGTARGETSESSIONATTRS='Read-Write' is not one of any, read-write, read-only, primary, standby, prefer-standby"),
            ("postgres://app@h/db?load_balance_hosts=true", [:], "load_balance_hosts='true' is not one of disable, random"),
            ("postgres://app@h/db?target_session_attrs=", [:], "target_session_attrs= names no value"),
        ] as [(String, [String: String], String)] {
            #expect(throws: PostgresStoreError.invalidURL(url: text, reason: reason)) { try PostgresStoreURL(parsing: text, environment: environment) }
        }
    }

    /// libpq lets the query name the database, user and password; they win over the URL's authority and path.
    @Test func dbnameUserAndPasswordInTheQuery() throws {
        let url = try PostgresStoreURL(parsing: "postgres://a:b@h/c?dbname=shop&user=app&password=s%26cret", environment: ["PGPASSWORD": "env"])
        #expect([url.database, url.user, url.password] == ["shop", "app", "s&cret"])
        // sslcertmode=disable: no client certificate is offered, not even the URL's.
        #expect(try PostgresStoreURL(parsing: "postgres://app@h/db?sslcert=/c&sslkey=/k&sslcertmode=disable", environment: [:]).sslCert == nil)
        #expect(try PostgresStoreURL(parsing: "postgres://app@h/db?sslcert=/c&sslkey=/k&sslcertmode=allow", environment: [:]).sslKey == "/k")
        // libpq's JDBC spelling `ssl=true` is sslmode=require; any other value of ssl is unknown.
        #expect(try PostgresStoreURL(parsing: "postgres://app@h/db?ssl=true", environment: [:]).sslMode == .require)
        #expect(try PostgresStoreURL(parsing: "postgres://app@h/db?ssl=true&sslmode=verify-full", environment: [:]).sslMode == .verifyFull)
    }

    /// Harmless keywords are read and change nothing; those whose value Strata cannot honour are refused
    /// (exit 2) naming why; the others Strata cannot do are refused whatever their value.
    @Test func ignoresTheHarmlessAndRefusesWhatItCannotHonour() throws {
        let plain = try PostgresStoreURL(parsing: "postgres://app@h/db", environment: [:])
        let harmless = "keepalives=1&keepalives_idle=30&keepalives_interval=5&keepalives_count=3&tcp_user_timeout=1000"
            + "&fallback_application_name=deploy&sslcompression=0&sslsni=1&krbsrvname=postgres&gsslib=gssapi&gssdelegation=0"
            + "&client_encoding=UTF8&gssencmode=disable&channel_binding=prefer&sslnegotiation=postgres&sslcertmode=allow"
        #expect(try PostgresStoreURL(parsing: "postgres://app@h/db?" + harmless, environment: [:]) == plain)
        #expect(try PostgresStoreURL(parsing: "postgres://app@h/db", environment: ["PGGSSENCMODE": "prefer", "PGAPPNAME": "x", "PGKRBSRVNAME": "k"]) == plain)
        for (query, environment, reason) in [
            ("sslcrl=/crl.pem", [:], "sslcrl= " + PostgresConnectionKeyword.crlReason),
            ("sslcrldir=/crl", [:], "sslcrldir= " + PostgresConnectionKeyword.crlReason),
            ("", ["PGSSLCRL": "/crl.pem"], "PGSSLCRL " + PostgresConnectionKeyword.crlReason),
            ("hostaddr=10.0.0.1", [:], "hostaddr= is not supported: Strata connects by host name or socket directory; name the address in host="),
            ("replication=database", [:], "replication= is not supported: Strata is not a replication client"),
            ("gssencmode=require", [:], "gssencmode='require' is not supported: Strata does not do GSSAPI encryption (gssencmode may be disable or prefer)"),
            ("", ["PGCHANNELBINDING": "require"],
             "PGCHANNELBINDING='require' is not supported: the connection library Strata uses (PostgresNIO) does not do SCRAM channel binding (channel_binding may be disable or prefer)"),
            ("sslnegotiation=direct", [:],
             "sslnegotiation='direct' is not supported: Strata negotiates TLS the PostgreSQL way, not directly (sslnegotiation may be postgres)"),
            ("sslcertmode=require", [:],
             "sslcertmode='require' is not supported: Strata cannot make sure the server asks for the client certificate (sslcertmode may be allow or disable)"),
            ("require_auth=scram-sha-256", [:],
             "require_auth= is not supported: the connection library Strata uses (PostgresNIO) answers whichever authentication the server asks for and cannot be restricted"),
        ] as [(String, [String: String], String)] {
            let text = "postgres://app@h/db" + (query.isEmpty ? "" : "?" + query)
            let error = #expect(throws: PostgresStoreError.self) { try PostgresStoreURL(parsing: text, environment: environment) }
            #expect(error == .invalidURL(url: text, reason: reason))
            #expect(error?.exitCode == .invalidInput)
        }
    }
}
