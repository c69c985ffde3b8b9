import Foundation
import StrataCore
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// Several hosts tried in order, `target_session_attrs` and `options=` against the test server: a port
/// where nothing listens stands for a host that is down; `options=-c default_transaction_read_only=on`
/// makes a session read-only without changing the server for other tests.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresHostsConnectionTests {
    static var port: Int { try! PostgresTestServer.shared.get().port }
    static let readOnly = "options=-c%20default_transaction_read_only=on"

    static func connect(_ text: String) async throws -> PostgresSession {
        try await PostgresSession.connect(try PostgresStoreURL(parsing: text, environment: [:]))
    }

    static func connectionError(_ text: String) async throws -> PostgresStoreError? {
        let url = try PostgresStoreURL(parsing: text, environment: [:])
        do {
            let session = try await PostgresSession.connect(url)
            await session.close()
            return nil
        } catch {
            return error
        }
    }

    @Test func theFirstHostThatAcceptsTheConnectionIsUsed() async throws {
        let dead = try PostgresTestServer.freePort()
        for text in ["postgres://strata@127.0.0.1:\(dead),127.0.0.1:\(Self.port)/postgres?sslmode=disable",
                     "postgres://strata@/postgres?host=127.0.0.1,127.0.0.1&port=\(dead),\(Self.port)&load_balance_hosts=disable",
                     "postgres://strata@/postgres?host=127.0.0.1,\(PostgresTestServer.socketDirectory)&port=\(Self.port)&target_session_attrs=primary"] {
            let session = try await Self.connect(text)
            #expect(try await session.value("SELECT inet_server_port()", as: Int32.self) == Int32(Self.port))
            await session.close()
        }
    }

    /// `load_balance_hosts=random` tries the hosts in a random order: over 24 connections to a TCP host and
    /// a socket directory of the same server, each is used first at least once (all on one: odds 2 in 2^24).
    @Test func loadBalanceHostsRandomShufflesTheHosts() async throws {
        let text = "postgres://strata@/postgres?host=127.0.0.1,\(PostgresTestServer.socketDirectory)&port=\(Self.port)"
            + "&sslmode=disable&load_balance_hosts=random"
        var overTCP = 0, overSocket = 0
        for _ in 0..<24 {
            let session = try await Self.connect(text)
            if try await session.value("SELECT inet_server_port()", as: Int32.self) == nil { overSocket += 1 } else { overTCP += 1 }
            await session.close()
        }
        #expect(overTCP > 0 && overSocket > 0, "TCP \(overTCP), socket \(overSocket)")
        // Without it, the order given: always the first.
        let ordered = try await Self.connect(text.replacingOccurrences(of: "random", with: "disable"))
        #expect(try await ordered.value("SELECT inet_server_port()", as: Int32.self) == Int32(Self.port))
        await ordered.close()
    }

    /// No host accepts: the error names each host tried and why, in libpq's words (exit 1); a host name
    /// that does not resolve says so.
    @Test func whenNoHostAcceptsEachIsNamedWithItsReason() async throws {
        let (first, second) = (try PostgresTestServer.freePort(), try PostgresTestServer.freePort())
        let text = "postgres://strata@127.0.0.1:\(first),127.0.0.1:\(second)/postgres?sslmode=disable"
        let error = try #require(try await Self.connectionError(text))
        guard case .connection(let store, let message) = error else { Issue.record("\(error)"); return }
        #expect(store == "postgres://strata@127.0.0.1:\(first),127.0.0.1:\(second)/postgres?schema=public")
        func refused(_ port: Int) -> String {
            "127.0.0.1:\(port): connection to the server at 127.0.0.1, port \(port) failed: Connection refused "
                + "(is the server running on that host and accepting TCP/IP connections?)"
        }
        #expect(message == "no host accepted the connection: \(refused(first)); \(refused(second))")
        #expect(error.exitCode == .runtimeFailure)
        // The resolver's words vary with the machine's DNS set-up ("Name or service not known", a temporary failure).
        let unknown = try #require(try await Self.connectionError("postgres://strata@host.invalid:\(first)/postgres?sslmode=disable"))
        guard case .connection(_, let lookup) = unknown else { Issue.record("\(unknown)"); return }
        #expect(lookup.hasPrefix("could not translate host name 'host.invalid' to an address: "), "\(lookup)")
    }

    /// read-write leaves read-only sessions; read-only keeps them; primary keeps a server not in recovery,
    /// standby leaves it; prefer-standby takes it in its second pass.
    @Test func targetSessionAttrsKeepsOnlyTheKindAskedFor() async throws {
        let tcp = "postgres://strata@127.0.0.1:\(Self.port)/postgres?sslmode=disable"
        let both = "postgres://strata@/postgres?host=127.0.0.1,\(PostgresTestServer.socketDirectory)&port=\(Self.port)&sslmode=disable"
        let socket = PostgresStoreURL.Endpoint(host: PostgresTestServer.socketDirectory, port: Self.port).description

        #expect(try await Self.connectionError(tcp + "&\(Self.readOnly)&target_session_attrs=read-write")
                == .connection(store: "postgres://strata@127.0.0.1:\(Self.port)/postgres?schema=public", message: "session is read-only"))
        #expect(try await Self.connectionError(both + "&\(Self.readOnly)&target_session_attrs=read-write")
                == .connection(store: "postgres://strata@127.0.0.1:\(Self.port),\(socket)/postgres?schema=public",
                               message: "no host accepted the connection (target_session_attrs=read-write): 127.0.0.1:\(Self.port): session is read-only; "
                                   + "\(socket): session is read-only"))
        #expect(try await Self.connectionError(tcp + "&target_session_attrs=read-only")
                == .connection(store: "postgres://strata@127.0.0.1:\(Self.port)/postgres?schema=public", message: "session is not read-only"))
        #expect(try await Self.connectionError(tcp + "&target_session_attrs=standby")
                == .connection(store: "postgres://strata@127.0.0.1:\(Self.port)/postgres?schema=public", message: "server is not in hot standby mode"))

        let readOnly = try await Self.connect(tcp + "&\(Self.readOnly)&target_session_attrs=read-only")
        #expect(try await readOnly.value("SHOW transaction_read_only", as: String.self) == "on")
        await readOnly.close()
        for attrs in ["read-write", "primary", "prefer-standby", "any"] {
            let session = try await Self.connect(both + "&target_session_attrs=\(attrs)")
            #expect(try await session.value("SHOW transaction_read_only", as: String.self) == "off")
            await session.close()
        }
    }

    /// `options=` holds from the login on; Strata's own `search_path` and `application_name` win over it.
    @Test func optionsAreSentAtLoginAndStrataKeepsItsOwnSettings() async throws {
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let options = #"-c statement_timeout=4321 --work-mem=3MB -c search_path=elsewhere -c application_name=other -c default_text_search_config=pg_catalog.english"#
        let encoded = options.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let session = try await Self.connect("postgres://strata@127.0.0.1:\(Self.port)/postgres?sslmode=disable&schema=\(schema)&options=\(encoded)")
        #expect(try await session.value("SHOW statement_timeout", as: String.self) == "4321ms")
        #expect(try await session.value("SHOW work_mem", as: String.self) == "3MB")
        #expect(try await session.value("SHOW search_path", as: String.self) == schema)
        #expect(try await session.value("SELECT current_setting('application_name') LIKE 'strata %'", as: Bool.self) == true)
        await session.close()
        // PGOPTIONS the same way; a setting the server does not know is its refusal of the login (exit 1).
        let unknown = try PostgresStoreURL(parsing: "postgres://strata@127.0.0.1:\(Self.port)/postgres?sslmode=disable",
                                           environment: ["PGOPTIONS": "-c no_such_setting=1"])
        let error = await #expect(throws: PostgresStoreError.self) { try await PostgresSession.connect(unknown) }
        #expect(error?.description.contains(#"unrecognized configuration parameter "no_such_setting""#) == true, "\(String(describing: error))")
        #expect(error?.exitCode == .runtimeFailure)
    }
}
