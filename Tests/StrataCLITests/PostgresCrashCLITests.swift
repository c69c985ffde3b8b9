import Foundation
import Strata
import StrataTestSupport
import Testing

/// SPEC §9 on a PostgreSQL store, end to end with the `strata` binary: a run killed (SIGKILL) at any point
/// leaves the schema at a recorded version whose metadata matches its tables, and a rerun finishes; two
/// runs at once apply each step exactly once and both exit 0. A test stops a run where it wants by holding
/// a table (or the store's advisory lock) in another session, waits until `pg_stat_activity` shows the run
/// waiting, then kills it: no sleeps.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL (initdb, pg_ctl): see the SKIPPED note on stderr"))
struct PostgresCrashCLITests {
    @Test(arguments: PostgresOpsProject.steps)
    func killedInAStepLeavesARecordedVersionAndARerunFinishes(table: String, version: Int) throws {
        let project = try PostgresOpsProject()
        let holder = try project.lock(table)
        defer { holder.end() }
        let run = try E2E.Child(["migrate", "--ddl-lock-timeout", "600", "--store", project.url], in: project.directory)
        let pid = run.process.processIdentifier
        #expect(Wait.until(timeout: 60) { (try? PostgresTestServer.psql(PostgresOpsProject.waitsForLock(pid))) == "t" })
        run.kill()
        holder.end()
        // The killed run's server session ends once it finds its client gone; its transaction is rolled back.
        #expect(Wait.until(timeout: 60) {
            (try? PostgresTestServer.psql("SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'strata % \(pid)@%'")) == "0"
        })

        #expect(try project.version() == String(version))
        let expected = (1..<version).map { "\($0)→\($0 + 1)" }
        #expect(try project.steps() == expected)
        #expect(try project.tablesWithNote() == Array(PostgresOpsProject.steps.map(\.0).prefix(version - 1)))
        let status = try CLI.run(["status", "--store", project.url], in: project.directory)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("version:  \(version) (latest model: 4; created at 1)"))

        let rerun = try CLI.run(["migrate", "--store", project.url], in: project.directory)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try project.steps() == ["1→2", "2→3", "3→4"])
        #expect(try project.tablesWithNote() == ["Alpha", "Beta", "Gamma"])
    }

    @Test func killedWhileCreatingLeavesNoStoreAndARerunCreatesIt() throws {
        let directory = try PostgresOpsProject().directory   // its models; the store is a fresh schema
        let schema = "t_" + UUID().uuidString.prefix(8).lowercased()
        let url = PostgresTestServer.url(schema: schema)
        let key = PostgresNames.advisoryLockKey(schema: schema)
        let holder = try PostgresTestServer.background("SELECT pg_advisory_lock(\(key)); SELECT pg_sleep(600)",
                                                       readyWhen: { PostgresTestServer.holds($0, mode: "ExclusiveLock") })
        defer { holder.end() }
        let run = try E2E.Child(["migrate", "--create", "--ddl-lock-timeout", "600", "--store", url], in: directory)
        let pid = run.process.processIdentifier
        #expect(Wait.until(timeout: 60) { (try? PostgresTestServer.psql(PostgresOpsProject.waitsForLock(pid))) == "t" })
        run.kill()
        holder.end()
        #expect(Wait.until(timeout: 60) {
            (try? PostgresTestServer.psql("SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'strata % \(pid)@%'")) == "0"
        })
        // The creation's one transaction (CREATE SCHEMA included) was rolled back.
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM pg_namespace WHERE nspname = '\(schema)'") == "0")
        let missing = try CLI.run(["migrate", "--store", url], in: directory)
        #expect(missing.status == 2)

        let created = try CLI.run(["migrate", "--create", "--store", url], in: directory)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM \(schema).strata_history") == "1")
    }

    @Test func twoRunsAtOnceApplyEachStepOnceAndBothExit0() throws {
        let project = try PostgresOpsProject()
        // Both runs start while the first step's table is held, so they meet: one inside the step, the
        // other waiting for the session lock.
        let holder = try project.lock("Alpha")
        defer { holder.end() }
        let first = try E2E.Child(["migrate", "--ddl-lock-timeout", "600", "--store", project.url], in: project.directory)
        defer { first.kill() }
        #expect(Wait.until(timeout: 60) {
            (try? PostgresTestServer.psql(PostgresOpsProject.waitsForLock(first.process.processIdentifier))) == "t"
        })
        let second = try E2E.Child(["migrate", "--lock-timeout", "600", "--store", project.url], in: project.directory)
        defer { second.kill() }
        #expect(Wait.until(timeout: 60) {
            (try? PostgresTestServer.psql("""
                SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'strata % \(second.process.processIdentifier)@%'
                """)) == "1"
        })
        holder.end()
        let (a, b) = (first.wait(), second.wait())
        #expect(a.status == 0, "\(a.stderr)")
        #expect(b.status == 0, "\(b.stderr)")
        #expect(a.stdout.contains("\nv1 → v2: "), "\(a.stdout)")
        // The second run waited for the session lock and found nothing left to do; its report says both, as on SQLite.
        #expect(b.stdout == "Migration: store \(project.url) is at v4, nothing to do\nWaited for another run's lock.\n", "\(b.stdout)")
        #expect(try project.steps() == ["1→2", "2→3", "3→4"])
    }

    @Test func runsStartedTogetherApplyEachStepOnce() throws {
        let project = try PostgresOpsProject()
        let runs = try (0..<3).map { _ in
            try E2E.Child(["migrate", "--lock-timeout", "600", "--store", project.url], in: project.directory)
        }
        for result in runs.map({ $0.wait() }) { #expect(result.status == 0, "\(result.stderr)") }
        #expect(try project.steps() == ["1→2", "2→3", "3→4"])
        #expect(try project.version() == "4")
    }
}
