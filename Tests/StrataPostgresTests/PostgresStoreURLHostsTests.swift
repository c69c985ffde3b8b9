import Foundation
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// Several hosts and their ports, paired as libpq pairs them, from the URL's authority, `host=`/`port=`
/// and `PGHOST`/`PGPORT`; a URL without a host is libpq's default socket directory.
@Suite struct PostgresStoreURLHostsTests {
    typealias Endpoint = PostgresStoreURL.Endpoint

    @Test(arguments: [
        // The authority: each host its own port, an empty one 5432 (PGPORT is not read: libpq's port list is given).
        ("postgres://app@h1:5433,h2/shop", [:], [Endpoint(host: "h1", port: 5433), Endpoint(host: "h2", port: 5432)]),
        ("postgres://app@h1,[::1]:6000/shop", ["PGPORT": "7000"], [Endpoint(host: "h1", port: 5432), Endpoint(host: "::1", port: 6000)]),
        // host= and port= lists; one port for every host.
        ("postgres://app@/shop?host=a,b&port=1,2", [:], [Endpoint(host: "a", port: 1), Endpoint(host: "b", port: 2)]),
        ("postgres://app@/shop?host=a,b,/run/pg&port=6432", [:],
         [Endpoint(host: "a", port: 6432), Endpoint(host: "b", port: 6432), Endpoint(host: "/run/pg", port: 6432)]),
        // port= wins over the authority's ports, host= over its hosts.
        ("postgres://app@x:1,y:2/shop?port=9", [:], [Endpoint(host: "x", port: 9), Endpoint(host: "y", port: 9)]),
        ("postgres://app@x:7/shop?host=a", [:], [Endpoint(host: "a", port: 7)]),
        // PGHOST and PGPORT lists fill what the URL leaves out.
        ("postgres://app@/shop", ["PGHOST": "a,b", "PGPORT": "5,6"], [Endpoint(host: "a", port: 5), Endpoint(host: "b", port: 6)]),
        ("postgres://app@/shop?port=8", ["PGHOST": "a,b", "PGPORT": "5,6"], [Endpoint(host: "a", port: 8), Endpoint(host: "b", port: 8)]),
        // No host: libpq's default socket directory, Debian's then upstream's; an empty entry of a list too.
        ("postgres://app@/shop", [:], [Endpoint(host: "/var/run/postgresql", port: 5432), Endpoint(host: "/tmp", port: 5432)]),
        ("postgres:///shop?user=app", ["PGPORT": "6000"], [Endpoint(host: "/var/run/postgresql", port: 6000), Endpoint(host: "/tmp", port: 6000)]),
        ("postgres://app@/shop?host=db,&port=1,2", [:],
         [Endpoint(host: "db", port: 1), Endpoint(host: "/var/run/postgresql", port: 2), Endpoint(host: "/tmp", port: 2)]),
    ] as [(String, [String: String], [Endpoint])])
    func pairsHostsAndPortsAsLibpq(text: String, environment: [String: String], hosts: [Endpoint]) throws {
        #expect(try PostgresStoreURL(parsing: text, environment: environment).hosts == hosts)
    }

    @Test func theDescriptionListsEveryHost() throws {
        let url = try PostgresStoreURL(parsing: "postgres://app:pw@h1:5433,[::1],%2Ftmp/shop?schema=inv", environment: [:])
        #expect(url.description == "postgres://app@h1:5433,[::1]:5432,%2Ftmp:5432/shop?schema=inv")
        #expect(url.host == "h1" && url.port == 5433 && url.password == "pw" && !url.isUnixSocket)
        #expect(try PostgresStoreURL(parsing: url.description, environment: ["PGPASSWORD": "pw"]) == url)
        #expect(try PostgresStoreURL(parsing: "postgres://app@/shop", environment: [:]).description
                == "postgres://app@%2Fvar%2Frun%2Fpostgresql:5432,%2Ftmp:5432/shop?schema=public")
    }

    @Test(arguments: [
        ("postgres://app@/shop?host=a,b,c&port=1,2", [:],
         "it names 3 hosts (host='a,b,c') and 2 ports (port='1,2'): give one port for all hosts, or one port for each host"),
        ("postgres://app@a:1,b:2/shop", ["PGHOST": "x"], nil),
        ("postgres://app@/shop", ["PGHOST": "a,b", "PGPORT": "1,2,3"],
         "it names 2 hosts (PGHOST='a,b') and 3 ports (PGPORT='1,2,3'): give one port for all hosts, or one port for each host"),
        ("postgres://app@/shop?host=a,b&port=1,x", [:], "port='1,x': 'x' is not a port between 1 and 65535"),
        ("postgres://app@/shop?port=70000", [:], "port='70000' is not a port between 1 and 65535"),
        ("postgres://app@a:1,b:http/shop", [:], "port 'http' is not a number between 1 and 65535"),
        ("postgres://app@a:1,b:0/shop", [:], "port 0 is not between 1 and 65535"),
        ("postgres://app@/shop?port=", [:], "port= names no port"),
    ] as [(String, [String: String], String?)])
    func refusesPortsThatDoNotFit(text: String, environment: [String: String], reason: String?) throws {
        guard let reason else {
            // The URL's hosts win over PGHOST.
            #expect(try PostgresStoreURL(parsing: text, environment: environment).hosts.map(\.host) == ["a", "b"])
            return
        }
        let error = #expect(throws: PostgresStoreError.self) { try PostgresStoreURL(parsing: text, environment: environment) }
        #expect(error == .invalidURL(url: text, reason: reason))
        #expect(error?.exitCode == .invalidInput)
    }

    /// libpq looks the password file up for each host; a default socket directory matches `localhost`.
    @Test func thePasswordFileIsReadForEachHost() throws {
        let file = Temporary.directory("pgpass") + "/pgpass"
        try "h1:5432:shop:app:one\nh2:6000:shop:app:two\nlocalhost:5432:shop:app:local\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let url = try PostgresStoreURL(parsing: "postgres://app@h1,h2:6000,h3/shop", environment: ["PGPASSFILE": file])
        #expect(url.hosts.map(\.password) == ["one", "two", nil])
        // passfile= wins over PGPASSFILE; the URL's password is every host's.
        let other = Temporary.directory("pgpass") + "/other"
        try "*:*:*:*:other\n".write(toFile: other, atomically: true, encoding: .utf8)
        chmod(other, 0o600)
        #expect(try PostgresStoreURL(parsing: "postgres://app@h1,h2/shop?passfile=\(other)", environment: ["PGPASSFILE": file]).hosts.map(\.password) == ["other", "other"])
        #expect(try PostgresStoreURL(parsing: "postgres://app:pw@h1,h2/shop", environment: ["PGPASSFILE": file]).hosts.map(\.password) == ["pw", "pw"])
        #expect(try PostgresStoreURL(parsing: "postgres://app@/shop", environment: ["PGPASSFILE": file]).hosts.map(\.password) == ["local", "local"])
    }
}
