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

    /// A role the server lets in only with a client certificate (pg_hba `cert`): `sslcert=`/`sslkey=` in the
    /// URL, or `PGSSLCERT`/`PGSSLKEY`; without them, or with an unreadable key, exit 1 naming the store.
    @Test func aClientCertificateLogsIn() throws {
        let (certificate, key) = try #require(PostgresTestServer.clientCertificate)
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        let url = PostgresTestServer.url(user: PostgresTestServer.certificateUser)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", url + "&sslmode=require&sslcert=\(certificate)&sslkey=\(key)"], in: project)
        #expect(created.status == 0, "\(created.stderr)")
        let fromEnvironment = try CLI.run(["status", "--store", url], in: project, environment: ["PGSSLCERT": certificate, "PGSSLKEY": key])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stdout.contains("\nversion:  1 (latest model: 4; created at 1)\n"), "\(fromEnvironment.stdout)")

        let without = try CLI.run(["status", "--store", url], in: project)
        #expect(without.status == 1)
        #expect(without.stderr.hasPrefix("error: cannot connect to \(url): "), "\(without.stderr)")
        let missing = try CLI.run(["status", "--store", url + "&sslcert=\(certificate)&sslkey=/nonexistent.key"], in: project)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read the sslkey file '/nonexistent.key'"), "\(missing.stderr)")
    }

    /// `sslmode=allow`: plain first, and TLS when the server refuses a plain login; `disable` stays refused.
    @Test func allowRetriesWithTLSWhenTheServerInsists() throws {
        let project = try CLI.exampleProject()
        try FileManager.default.removeItem(atPath: project + "/migrations")
        let url = PostgresTestServer.url(user: PostgresTestServer.tlsOnlyUser)
        let created = try CLI.run(["migrate", "--create", "--to", "1", "--store", url + "&sslmode=allow"], in: project)
        #expect(created.status == 0, "\(created.stderr)")
        let plain = try CLI.run(["status", "--store", url + "&sslmode=disable"], in: project)
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("pg_hba.conf rejects connection for host \"127.0.0.1\", user \"\(PostgresTestServer.tlsOnlyUser)\", database \"postgres\", no encryption"), "\(plain.stderr)")
        // A role that may log in plain logs in at the first attempt.
        let open = PostgresTestServer.url()
        #expect(try CLI.run(["migrate", "--create", "--to", "1", "--store", open + "&sslmode=allow"], in: project).status == 0)
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
