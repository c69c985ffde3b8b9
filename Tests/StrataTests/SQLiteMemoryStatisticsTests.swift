import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif
import Strata
import Testing

/// `SQLiteMemoryStatistics.disable()` calls SQLite's setting, which SQLite refuses once it has started:
/// in this process it has (a connection is open), so the count stays on. (`strata` turns it off before its
/// first connection: `StagesCLITests.sqlitesMemoryCountIsOffWhileAStepRuns` reads it in a running step; the
/// fleet benchmark in Benchmarks/bench.py measures what that saves.)
@Suite struct SQLiteMemoryStatisticsTests {
    @Test func afterTheFirstConnectionTheCountStaysOn() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE t(x);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
                INSERT INTO t SELECT randomblob(1000) FROM n
                """)
        }
        #expect(SQLiteMemoryStatistics.disable() == false)
        #expect(SQLiteMemoryStatistics.disable() == false)   // refused again, never a crash
        // Counted: the open connection holds its schema and pages.
        #expect(sqlite3_memory_used() > 0)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 100)
    }
}
