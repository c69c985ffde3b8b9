import CSQLiteSettings

/// SQLite's count of the memory it holds, which it keeps for the whole process under one mutex.
///
/// Every allocation SQLite makes takes that mutex, so connections working at once on separate threads
/// queue on it. A fleet run with `jobs: 2` (``Fleet``) spent 13% more CPU than with `jobs: 1` for the
/// same stores until `strata` turned the count off; with it off the two workers use about the CPU of one
/// (within 2%; Docs/performance.md, "Fleets on two cores"). `strata` turns it off first thing; an
/// application that runs stores on several threads can do the same.
///
/// With the count off, `sqlite3_memory_used()`, `sqlite3_memory_highwater()`, `sqlite3_status64()` and
/// the soft and hard heap limits stop working, for every connection in the process, Strata's or not.
public enum SQLiteMemoryStatistics {
    /// Turns SQLite's memory count off for the process, if SQLite has not started yet.
    ///
    /// Call it before any thread opens a database (SQLite starts with the first connection, through GRDB,
    /// Strata or anything else, and its settings are not safe to change while another thread starts it).
    /// - Returns: true when the count is off; false when SQLite had already started in this process,
    ///   which leaves the count as it was.
    @discardableResult
    public static func disable() -> Bool {
        strata_sqlite3_disable_memstatus() == 0   // SQLITE_OK; SQLITE_MISUSE once SQLite is initialized
    }
}
