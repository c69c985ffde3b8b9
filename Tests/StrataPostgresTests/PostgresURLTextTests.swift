import Foundation
@testable import StrataPostgres
import Testing

/// The URL read by hand as libpq reads it: user information, a list of hosts each with its port, the
/// database, the query; percent-decoded.
@Suite struct PostgresURLTextTests {
    @Test func readsSeveralHostsEachWithItsPort() throws {
        let text = try PostgresURLText("postgres://a%40b:p%3Aw@h1:5433,%2Ftmp%2Fpg,[::1]:6000/sh%20op?schema=inv&host&port=1,2")
        #expect(text.user == "a@b" && text.password == "p:w")
        #expect(text.hosts == "h1,/tmp/pg,::1")
        #expect(text.ports == "5433,,6000")
        #expect(text.database == "sh op")
        #expect(text.query.map(\.name) == ["schema", "host", "port"] && text.query.map(\.value) == ["inv", "", "1,2"])
    }

    /// A combining mark after a delimiter makes one `Character` with it: the URL is still cut at the delimiter,
    /// so a password that starts with one is not read as part of the user name (and shown in messages).
    @Test func delimitersAreFoundByScalar() throws {
        let text = try PostgresURLText("postgres://app:\u{301}secret@h\u{301}/d\u{e9}?schema=\u{301}s&x=\u{fc}")
        #expect(text.user == "app")
        #expect(text.password.map { Array($0.unicodeScalars) } == Array("\u{301}secret".unicodeScalars))
        #expect(text.hosts.map { Array($0.unicodeScalars) } == Array("h\u{301}".unicodeScalars))
        #expect(text.database == "d\u{e9}")
        #expect(text.query.map(\.name) == ["schema", "x"])
        #expect(text.query.map { Array($0.value.unicodeScalars) } == [Array("\u{301}s".unicodeScalars), ["\u{fc}"]])
        let url = try PostgresStoreURL(parsing: "postgres://app:\u{301}secret@127.0.0.1:1/db", environment: [:])
        #expect(!url.description.contains("secret"))
    }

    /// libpq keeps an empty port list only when a host has a comma after it: one host without a port
    /// leaves the port to `port=` or `PGPORT`; an empty user, password or database is not given.
    @Test(arguments: [
        ("postgres://h/db", "h", nil, nil, nil),
        ("postgresql://u:@h,k/db", "h,k", ",", "u", nil),
        ("postgres://:7000/", nil, "7000", nil, nil),
        ("postgres:///?x=1", nil, nil, nil, nil),
        ("POSTGRES://@[2001:db8::1]/db", "2001:db8::1", nil, nil, nil),
    ] as [(String, String?, String?, String?, String?)])
    func leavesOutWhatIsEmpty(url: String, hosts: String?, ports: String?, user: String?, password: String?) throws {
        let text = try PostgresURLText(url)
        #expect(text.hosts == hosts && text.ports == ports && text.user == user && text.password == password)
    }

    @Test(arguments: [
        ("postgres://app@[::1/db", "the IPv6 host address '[::1' has no closing ']'"),
        ("postgres://app@[]:5432/db", "an IPv6 host address in brackets is empty"),
        ("postgres://app@[::1]x/db", "unexpected character 'x' after the IPv6 host address [::1]"),
        ("postgres://app@h/d%zzb", "'d%zzb' is not valid percent-encoding"),
        ("postgres://app@h/db?schema=a%00b", "'a%00b' holds a NUL character (%00)"),
    ])
    func refusesWithTheReason(url: String, reason: String) {
        #expect(throws: PostgresStoreError.invalidURL(url: url, reason: reason)) { try PostgresURLText(url) }
    }

    /// The password is hidden in messages, in the authority and as a query parameter.
    @Test func redactsThePasswordInTheAuthorityAndTheQuery() {
        #expect(PostgresStoreURL.redacted("postgres://u:secret@h1,h2/db?password=other&x=1") == "postgres://u:***@h1,h2/db?password=***&x=1")
        #expect(PostgresStoreURL.redacted("postgres://u@h/db?schema=s&password=p") == "postgres://u@h/db?schema=s&password=***")
        #expect(PostgresStoreURL.redacted("postgres://h/db") == "postgres://h/db")
        // A combining mark after the ':' or '=' makes one Character with it; the password is still found.
        #expect(PostgresStoreURL.redacted("postgres://u:\u{301}pw@h/db?x=1&password=\u{301}zz") == "postgres://u:***@h/db?x=1&password=***")
        #expect(PostgresStoreURL.redacted("postgres://h/db?password=p&") == "postgres://h/db?password=***&")
    }
}
