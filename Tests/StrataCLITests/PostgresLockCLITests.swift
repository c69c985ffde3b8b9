import Foundation
import Strata
import StrataTestSupport
import Testing

/// SPEC §14.2 locking, end to end with the `strata` binary: `--ddl-lock-timeout` (a step blocked by another
/// session's table lock rolls back with exit 5) and the busy message of the session advisory lock, which
/// quotes the other run's `application_name` (exit 5). Every wait is for an event seen in `pg_locks` or
/// `pg_stat_activity`, never a sleep.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresLockCLITests {
    @Test func aStepBlockedByATableLockRollsBackWithExit5() throws {
        let project = try PostgresOpsProject()
        let holder = try project.lock("Beta")
        defer { holder.end() }
        let blocked = try CLI.run(["migrate", "--ddl-lock-timeout", "0.5", "--store", project.url], in: project.directory)
        #expect(blocked.status == 5)
        #expect(blocked.stderr.contains("""
            error: waited more than 0.5 s (--ddl-lock-timeout) for a lock that another session holds; the transaction \
            was rolled back (PostgreSQL: canceling statement due to lock timeout)
              in: ALTER TABLE "Beta" ADD COLUMN
            """), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("hint: find the holder in pg_locks / pg_stat_activity; retry when it has finished, or raise --ddl-lock-timeout"))
        // The step before committed; the blocked one left nothing.
        #expect(try project.version() == "2")
        #expect(try project.steps() == ["1→2"])
        #expect(try project.tablesWithNote() == ["Alpha"])

        holder.end()
        let rerun = try CLI.run(["migrate", "--store", project.url], in: project.directory)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try project.steps() == ["1→2", "2→3", "3→4"])
    }

    @Test func ddlLockTimeoutIsCheckedAtParseTime() throws {
        let project = try CLI.exampleProject()
        for value in ["0", "-1", "nan", "2000000"] {
            let result = try CLI.run(["migrate", "--ddl-lock-timeout", value, "--store", "postgres://app@127.0.0.1:1/db"], in: project)
            #expect(result.status == 2)
            #expect(result.stderr.contains("--ddl-lock-timeout must be a number of seconds from 0.001 to 1000000, got '"), "\(result.stderr)")
        }
    }

    @Test func theBusyMessageQuotesTheOtherRunsApplicationName() throws {
        let project = try PostgresOpsProject()
        let holder = try project.lock("Alpha")
        defer { holder.end() }
        let first = try E2E.Child(["migrate", "--ddl-lock-timeout", "600", "--store", project.url], in: project.directory)
        defer { first.kill() }
        let pid = first.process.processIdentifier
        #expect(Wait.until(timeout: 60) { (try? PostgresTestServer.psql(PostgresOpsProject.waitsForLock(pid))) == "t" })

        let second = try CLI.run(["migrate", "--lock-timeout", "0.2", "--store", project.url], in: project.directory)
        #expect(second.status == 5)
        #expect(second.stderr.contains("""
            error: \(project.url) is busy: another strata run holds its lock (strata \(StrataVersion.current) \(pid)@\(ProcessInfo.processInfo.hostName))
            """), "\(second.stderr)")

        holder.end()
        let done = first.wait()
        #expect(done.status == 0, "\(done.stderr)")
        #expect(try project.steps() == ["1→2", "2→3", "3→4"])
    }
}
