import Foundation

extension PostgresTestServer {
    /// A `psql` session left running in the background (to hold locks while a test runs `strata`), known to
    /// the server by its `application_name`.
    public final class BackgroundSession: @unchecked Sendable {
        public let applicationName: String
        let process: Process

        init(applicationName: String, process: Process) {
            self.applicationName = applicationName
            self.process = process
        }

        /// Ends the session: its server backend is terminated (which releases its locks at once; killing psql
        /// alone would leave the backend sleeping), then psql is waited for.
        public func end() {
            _ = try? PostgresTestServer.psql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(applicationName)'")
            process.waitUntilExit()
        }
    }

    /// Starts `psql -c sql` in the background as `application_name` = a fresh name, and returns once
    /// `ready` (a query returning true or false) is true: the event the test waits for, never a sleep.
    /// `sql` should end in a long `pg_sleep`, so the session holds what it took until ``BackgroundSession/end()``.
    public static func background(_ sql: String, readyWhen ready: (String) -> String) throws -> BackgroundSession {
        let server = try shared.get()
        let name = "strata-test-" + UUID().uuidString.prefix(8).lowercased()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool("psql"))
        process.arguments = ["-X", "-q", "-h", "127.0.0.1", "-p", String(server.port), "-U", server.user, "-d", server.database, "-c", sql]
        var environment = ProcessInfo.processInfo.environment
        environment["PGAPPNAME"] = name
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let session = BackgroundSession(applicationName: name, process: process)
        let query = ready(name)
        guard Wait.until(timeout: 60, { (try? psql(query)) == "t" }) else {
            session.end()
            throw Wait.Timeout(event: "the background session \(name): \(query)")
        }
        return session
    }

    /// The query that is true once the session named `applicationName` holds `count` granted locks of `mode`
    /// (e.g. `AccessExclusiveLock`, `ExclusiveLock` for an advisory lock).
    public static func holds(_ applicationName: String, mode: String, count: Int = 1) -> String {
        """
        SELECT count(*) >= \(count) FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid \
        WHERE a.application_name = '\(applicationName)' AND l.mode = '\(mode)' AND l.granted
        """
    }

    /// The query that is true once a session whose `application_name` matches `pattern` (LIKE) waits for a lock.
    public static func waitsForLock(_ pattern: String) -> String {
        "SELECT count(*) > 0 FROM pg_stat_activity WHERE application_name LIKE '\(pattern)' AND wait_event_type = 'Lock'"
    }
}
