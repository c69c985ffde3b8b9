import Foundation
import StrataTestSupport
import Testing

/// TLS to a live server: the throwaway server runs with a self-signed certificate for 127.0.0.1 when
/// `openssl` could make one (else these tests are skipped).
@Suite(.enabled(if: PostgresTestServer.certificate != nil, "needs PostgreSQL and openssl (a self-signed certificate)"))
struct PostgresTLSCLITests {
    @Test func verifyFullTrustsTheGivenRootAndRefusesWithoutIt() throws {
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        let url = PostgresTestServer.url()
        let verified = url + "&sslmode=verify-full&sslrootcert=" + PostgresTestServer.certificate!
        let created = try CLI.run(["migrate", "--create", "--store", verified], in: project)
        #expect(created.status == 0, "\(created.stderr)")
        for mode in ["require", "prefer", "verify-ca&sslrootcert=" + PostgresTestServer.certificate!] {
            let status = try CLI.run(["status", "--store", url + "&sslmode=" + mode], in: project)
            #expect(status.status == 0, "\(mode): \(status.stderr)")
        }

        // The system's roots do not trust a self-signed certificate: exit 1, nothing read.
        let untrusted = try CLI.run(["status", "--store", url + "&sslmode=verify-full"], in: project)
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("error: cannot connect to \(url): "), "\(untrusted.stderr)")
    }

    @Test func theServerSeesAnEncryptedSession() throws {
        let url = PostgresTestServer.url()
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", url + "&sslmode=require"], in: project).status == 0)
        // A run waiting for a table lock stays connected long enough to be seen in pg_stat_ssl.
        let schema = String(url.split(separator: "=").last!)
        let holder = try PostgresTestServer.background(
            "BEGIN; LOCK TABLE \(schema).\"Recipe\" IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(600)",
            readyWhen: { PostgresTestServer.holds($0, mode: "AccessExclusiveLock") })
        defer { holder.end() }
        let run = try E2E.Child(["migrate", "--ddl-lock-timeout", "600", "--store", url + "&sslmode=require"], in: project)
        defer { run.kill() }
        let pid = run.process.processIdentifier
        #expect(Wait.until(timeout: 60) { (try? PostgresTestServer.psql(PostgresTestServer.waitsForLock("strata % \(pid)@%"))) == "t" })
        #expect(try PostgresTestServer.psql("""
            SELECT s.ssl FROM pg_stat_ssl AS s JOIN pg_stat_activity AS a ON a.pid = s.pid WHERE a.application_name LIKE 'strata % \(pid)@%'
            """) == "t")
        holder.end()
        #expect(run.wait().status == 0)
    }
}
